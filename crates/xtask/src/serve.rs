//! A static file server for `dist/`: both pages, same origin, loopback only.
//! Small on purpose: the pages are static files and need nothing else.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

use crate::{Failed, Result};

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// The file under `root` that a request path names, if any: no `..`, and a
/// directory means its `index.html`.
pub fn resolve(root: &Path, request_path: &str) -> Option<PathBuf> {
    let path = request_path.split(['?', '#']).next().unwrap_or("/");
    let mut file = root.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn respond(root: &Path, stream: TcpStream) -> std::io::Result<()> {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // Drain the headers.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let mut parts = request.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let mut out = &stream;
    match (method, resolve(root, path)) {
        ("GET" | "HEAD", Some(file)) => {
            let body = std::fs::read(&file)?;
            write!(
                out,
                "HTTP/1.1 200 OK\r\ncontent-type: {}\r\ncontent-length: {}\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n",
                content_type(&file),
                body.len()
            )?;
            if method == "GET" {
                out.write_all(&body)?;
            }
        }
        _ => out.write_all(
            b"HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found",
        )?,
    }
    out.flush()
}

/// Serves `root` at `address` until interrupted.
pub fn dist(root: &Path, address: &str) -> Result {
    let listener = TcpListener::bind(address)
        .map_err(|e| Failed(format!("cannot listen on {address}: {e}")))?;
    eprintln!(
        "\nServing {} at http://{address}/ (Ctrl-C to stop)",
        root.display()
    );
    for stream in listener.incoming().flatten() {
        let root = root.to_path_buf();
        std::thread::spawn(move || {
            let _ = respond(&root, stream);
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_files_and_directories_inside_the_root_only() {
        let root = crate::root().join("crates/xtask");
        assert_eq!(resolve(&root, "/Cargo.toml"), Some(root.join("Cargo.toml")));
        assert_eq!(
            resolve(&root, "/src/main.rs?v=1"),
            Some(root.join("src/main.rs"))
        );
        assert_eq!(resolve(&root, "/../Cargo.toml"), None);
        assert_eq!(resolve(&root, "/src/../../Cargo.toml"), None);
        assert_eq!(resolve(&root, "/missing"), None);
        // A directory without index.html is not served.
        assert_eq!(resolve(&root, "/src/"), None);
    }
}
