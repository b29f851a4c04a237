//! Trunk's post-build hook: moves the inline wasm loader script into a file,
//! and tidies what Trunk writes so the browser has nothing to warn about.
//!
//! Trunk writes `<script type="module">import init from '…'; …</script>`
//! into `index.html`. The page's Content-Security-Policy allows scripts from
//! its own origin only, so the hook writes that code to `loader-<hash>.js`
//! beside it and leaves `<script type="module" src="…">` in its place.
//!
//! It also drops the `integrity` of the wasm's `preload` link (the browser
//! ignores integrity there, and says so), and rewrites each worker's loader
//! shim: its module passed as `{ module_or_path }`, the form wasm-bindgen
//! asks for (the positional form logs a deprecation warning), and its files
//! versioned by their contents (see [`worker_shim`]).

use std::path::PathBuf;

use crate::{Failed, Result};

const OPEN: &str = "<script type=\"module\">";
const CLOSE: &str = "</script>";

/// FNV-1a, for a cache-busting file name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Rewrites `html`; returns the new page and the loader file `(name, code)`.
pub fn split(
    html: &str,
    public_url: &str,
) -> std::result::Result<(String, String, String), String> {
    let start = html
        .find(OPEN)
        .ok_or("index.html has no inline module script to move")?;
    let body_start = start + OPEN.len();
    let len = html[body_start..]
        .find(CLOSE)
        .ok_or("the inline module script is not closed")?;
    let code = html[body_start..body_start + len].trim().to_string();
    if !code.contains("import init") {
        return Err("the inline module script is not Trunk's loader".into());
    }
    let name = format!("loader-{:016x}.js", fnv1a(code.as_bytes()));
    let base = if public_url.ends_with('/') {
        public_url.to_string()
    } else {
        format!("{public_url}/")
    };
    let page = format!(
        "{}<script type=\"module\" src=\"{base}{name}\"></script>{}",
        &html[..start],
        &html[body_start + len + CLOSE.len()..]
    );
    if page.contains(OPEN) {
        return Err("index.html has more than one inline module script".into());
    }
    Ok((quiet_preloads(&page), name, format!("{code}\n")))
}

/// `html` without `integrity` on `<link rel="preload" … as="fetch">`.
fn quiet_preloads(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<link rel=\"preload\"") {
        let len = rest[at..].find('>').map_or(rest.len() - at, |n| n + 1);
        let tag = &rest[at..at + len];
        out.push_str(&rest[..at]);
        match tag.find(" integrity=\"") {
            Some(i) if tag.contains("as=\"fetch\"") => {
                let value = i + " integrity=\"".len();
                let end = tag[value..].find('"').map_or(tag.len(), |n| value + n + 1);
                out.push_str(&tag[..i]);
                out.push_str(&tag[end..]);
            }
            _ => out.push_str(tag),
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// The files a worker loader shim loads: `(script, module)`, when `code` is
/// Trunk's shim as Trunk writes it.
pub fn shim_files(code: &str) -> Option<(&str, &str)> {
    let rest = code.strip_prefix("importScripts(\"")?;
    let (script, rest) = rest.split_once("\");wasm_bindgen(\"")?;
    let (module, rest) = rest.split_once("\");")?;
    rest.trim().is_empty().then_some((script, module))
}

/// Trunk's worker loader shim rewritten: its module passed as `{
/// module_or_path }`, and both files asked for with `?v=version`, so a
/// browser never pairs a new page with a worker it cached earlier (Trunk does
/// not put a hash in a worker's file names). `None` when `code` is not
/// Trunk's shim (or was rewritten already).
pub fn worker_shim(code: &str, version: &str) -> Option<String> {
    let (script, module) = shim_files(code)?;
    Some(format!(
        "importScripts(\"{script}?v={version}\");wasm_bindgen({{ module_or_path: \"{module}?v={version}\" }});\n"
    ))
}

/// Rewrites every worker loader shim in `dir` (see [`worker_shim`]), each
/// versioned by the contents of the files it loads.
fn version_workers(dir: &std::path::Path) -> Result {
    let fail = |what: &str, path: &std::path::Path, e: std::io::Error| {
        Failed(format!("cannot {what} {}: {e}", path.display()))
    };
    let entries = std::fs::read_dir(dir).map_err(|e| fail("list", dir, e))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.to_string_lossy().ends_with("_loader.js") {
            continue;
        }
        let shim = std::fs::read_to_string(&path).map_err(|e| fail("read", &path, e))?;
        let Some((script, module)) = shim_files(&shim) else {
            continue;
        };
        let mut contents = Vec::new();
        for file in [script, module] {
            let file = dir.join(file.trim_start_matches("./"));
            contents.extend(std::fs::read(&file).map_err(|e| fail("read", &file, e))?);
        }
        let version = format!("{:016x}", fnv1a(&contents));
        if let Some(versioned) = worker_shim(&shim, &version) {
            std::fs::write(&path, versioned).map_err(|e| fail("write", &path, e))?;
        }
    }
    Ok(())
}

/// The hook itself: works in `$TRUNK_STAGING_DIR`.
pub fn externalise() -> Result {
    let dir = std::env::var_os("TRUNK_STAGING_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            Failed("externalise-loader runs as a Trunk hook (TRUNK_STAGING_DIR is not set)".into())
        })?;
    let public_url = std::env::var("TRUNK_PUBLIC_URL").unwrap_or_else(|_| "/".into());
    let index = dir.join("index.html");
    let html = std::fs::read_to_string(&index)
        .map_err(|e| Failed(format!("cannot read {}: {e}", index.display())))?;
    let (page, name, code) = split(&html, &public_url).map_err(Failed)?;
    std::fs::write(dir.join(&name), code)
        .and_then(|()| std::fs::write(&index, page))
        .map_err(|e| Failed(format!("cannot write the loader: {e}")))?;
    version_workers(&dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<head><link rel=\"modulepreload\" href=\"/app.js\"></head><body>\n<script type=\"module\">\nimport init from '/app.js';\nconst wasm = await init({ module_or_path: '/app_bg.wasm' });\n</script></body>";

    #[test]
    fn moves_the_loader_out_of_the_page() {
        let (page, name, code) = split(PAGE, "/").unwrap();
        assert!(name.starts_with("loader-") && name.ends_with(".js"));
        assert!(page.contains(&format!(
            "<script type=\"module\" src=\"/{name}\"></script></body>"
        )));
        assert!(!page.contains("import init"));
        assert!(code.starts_with("import init from '/app.js';"));
        // Same code, same name.
        assert_eq!(split(PAGE, "/").unwrap().1, name);
    }

    #[test]
    fn honours_the_public_url() {
        let (page, name, _) = split(PAGE, "/compaction-drift").unwrap();
        assert!(page.contains(&format!("src=\"/compaction-drift/{name}\"")));
    }

    #[test]
    fn drops_integrity_from_fetch_preloads_only() {
        let page = format!(
            "{PAGE}<link rel=\"modulepreload\" href=\"/a.js\" integrity=\"sha384-A\"><link rel=\"preload\" href=\"/a.wasm\" crossorigin=\"anonymous\" integrity=\"sha384-B\" as=\"fetch\" type=\"application/wasm\"></head>"
        );
        let (page, _, _) = split(&page, "/").unwrap();
        assert!(page.contains("integrity=\"sha384-A\""));
        assert!(!page.contains("sha384-B"));
        assert!(page.contains(
            "<link rel=\"preload\" href=\"/a.wasm\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\"></head>"
        ));
    }

    #[test]
    fn versions_a_worker_and_passes_its_module_as_an_object() {
        let shim = "importScripts(\"./w.js\");wasm_bindgen(\"./w_bg.wasm\");";
        assert_eq!(shim_files(shim), Some(("./w.js", "./w_bg.wasm")));
        let versioned = worker_shim(shim, "00ff").unwrap();
        assert_eq!(
            versioned,
            "importScripts(\"./w.js?v=00ff\");wasm_bindgen({ module_or_path: \"./w_bg.wasm?v=00ff\" });\n"
        );
        assert_eq!(worker_shim(&versioned, "00ff"), None);
        assert_eq!(worker_shim("importScripts(\"./w.js\");", "1"), None);
    }

    #[test]
    fn refuses_pages_it_does_not_understand() {
        assert!(split("<body></body>", "/").is_err());
        assert!(split("<script type=\"module\">alert(1)</script>", "/").is_err());
        assert!(split("<script type=\"module\">import init", "/").is_err());
    }
}
