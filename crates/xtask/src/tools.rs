//! Installing what the project needs, each from a registry this machine can
//! reach: rustup targets, crates.io binaries, Debian packages, npm packages.
//! Every installer checks first and does nothing when the tool is there.

use std::path::PathBuf;
use std::process::Command;

use crate::{Failed, Result, cargo, root, run};

/// Trunk's version: newer releases need a newer rustc than the pinned one.
pub const TRUNK_VERSION: &str = "0.21.14";

/// Where the browser tests live (their npm packages include wasm-opt).
pub const E2E_DIR: &str = "tests/e2e";

/// Builds tools in a fraction of the time a full release build takes; they
/// are run a few times per build, so the lost speed does not matter.
fn quick_release(cmd: &mut Command) -> &mut Command {
    cmd.env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
}

/// `$CARGO_HOME/bin`, where `cargo install` puts binaries.
fn cargo_bin() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
        .join("bin")
}

/// PATH with the cargo bin directory and the browser tests' npm binaries
/// (wasm-opt from binaryen) first.
pub fn tool_path() -> std::ffi::OsString {
    let mut dirs = vec![root().join(E2E_DIR).join("node_modules/.bin"), cargo_bin()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).unwrap_or_default()
}

/// A command that finds the installed tools first.
pub fn tool(program: &str) -> Command {
    let mut cmd = Command::new(program);
    cmd.env("PATH", tool_path());
    cmd
}

/// `trunk` with the arguments given.
fn trunk(args: &[&str]) -> Command {
    let mut cmd = tool("trunk");
    cmd.args(args);
    cmd
}

/// The first line a program prints for `--version`, if it runs.
fn version_of(program: &str) -> Option<String> {
    let out = tool(program).arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The version of the `wasm-bindgen` crate in Cargo.lock: the CLI must match
/// it exactly.
pub fn locked_wasm_bindgen() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| Failed(format!("cannot read Cargo.lock: {e}")))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\""
            && let Some(v) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
        {
            return Ok(v.trim_matches('"').to_string());
        }
    }
    Err(Failed("Cargo.lock has no wasm-bindgen entry".into()))
}

pub fn rust_targets() -> Result {
    run(Command::new("rustup").args([
        "target",
        "add",
        "wasm32-unknown-unknown",
        "thumbv7em-none-eabihf",
    ]))
}

fn install_trunk() -> Result {
    if version_of("trunk").is_some_and(|v| v.ends_with(TRUNK_VERSION)) {
        eprintln!("  trunk {TRUNK_VERSION} is installed");
        return Ok(());
    }
    run(quick_release(&mut cargo(&[
        "install",
        "--locked",
        "trunk",
        "--version",
        TRUNK_VERSION,
    ])))
}

fn install_wasm_bindgen() -> Result {
    let version = locked_wasm_bindgen()?;
    let installed = |p: &str| version_of(p).is_some_and(|v| v.ends_with(&version));
    if installed("wasm-bindgen") && installed("wasm-bindgen-test-runner") {
        eprintln!("  wasm-bindgen-cli {version} is installed");
        return Ok(());
    }
    // Not --locked: the CLI's own lockfile names a webpki-roots release the
    // registry no longer serves; the version itself is pinned exactly.
    run(quick_release(&mut cargo(&[
        "install",
        "wasm-bindgen-cli",
        "--version",
        &format!("={version}"),
    ])))
}

fn install_chromium() -> Result {
    let present = |p: &str| std::path::Path::new(p).exists();
    if present("/usr/bin/chromium") && present("/usr/bin/chromedriver") {
        eprintln!("  chromium and chromedriver are installed");
        return Ok(());
    }
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let apt = |args: &[&str]| {
        let mut cmd = if root_user {
            Command::new("apt-get")
        } else {
            let mut c = Command::new("sudo");
            c.arg("apt-get");
            c
        };
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    run(&mut apt(&["update", "-qq"]))?;
    run(&mut apt(&[
        "install",
        "-y",
        "-qq",
        "--no-install-recommends",
        "chromium",
        "chromium-driver",
    ]))
}

fn install_npm_packages() -> Result {
    let dir = root().join(E2E_DIR);
    let lock = dir.join("package-lock.json");
    let marker = dir.join("node_modules/.package-lock.json");
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if modified(&marker).is_some() && modified(&marker) >= modified(&lock) {
        eprintln!("  npm packages of {E2E_DIR} are installed");
        return Ok(());
    }
    run(Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--prefix", E2E_DIR]))
}

/// Everything the page needs to build and serve.
pub fn web_tools() -> Result {
    rust_targets()?;
    install_npm_packages()?;
    install_trunk()?;
    install_wasm_bindgen()
}

/// Everything the browser tests need on top.
pub fn browser_test_tools() -> Result {
    web_tools()?;
    install_chromium()
}

/// Builds the simulator (`index.html` into `dist/`) and "Your own session"
/// (`session.html` into `dist/session/`), each its own WebAssembly module,
/// for serving under `public_url`.
pub fn build_pages(release: bool, public_url: &str) -> Result {
    let base = if public_url.ends_with('/') {
        public_url.to_string()
    } else {
        format!("{public_url}/")
    };
    // Release pages are built with the `web` profile, sized for the
    // browser; the `release` profile is the CLI's, built for speed.
    let mode: &[&str] = if release {
        &["--release", "--cargo-profile", "web"]
    } else {
        &[]
    };
    // The target goes first: `--release` takes an optional value.
    let mut main = trunk(&["build", "index.html", "--locked", "--public-url", &base]);
    main.args(mode);
    run(main)?;
    let session_url = format!("{base}session/");
    let mut session = trunk(&[
        "build",
        "session.html",
        "--locked",
        "--public-url",
        &session_url,
        "--dist",
        "dist/session",
    ]);
    session.args(mode);
    run(session)
}

/// The most the simulator page's own `.wasm` may weigh, gzipped: what a
/// person waits for before the page works. Its workers and the session page
/// load apart.
const SIMULATOR_GZIPPED: usize = 250_000;

/// Prints the size of every `.wasm` of the pages, raw and gzipped (`gzip
/// -9`, what a browser downloads from a server that compresses), and fails
/// when the simulator's own is over [`SIMULATOR_GZIPPED`].
pub fn report_wasm_size() -> Result {
    for dir in [root().join("dist"), root().join("dist/session")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| Failed(format!("cannot read {}: {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "wasm"))
            .collect();
        if files.is_empty() {
            return Err(Failed(format!("{} has no .wasm", dir.display())));
        }
        files.sort();
        for wasm in files {
            let raw = std::fs::metadata(&wasm).map(|m| m.len()).unwrap_or(0);
            let out = Command::new("gzip")
                .args(["-9", "-c"])
                .arg(&wasm)
                .output()
                .map_err(|e| Failed(format!("cannot run gzip: {e}")))?;
            let name = wasm.strip_prefix(root()).unwrap_or(&wasm).display();
            let gzipped = out.stdout.len();
            eprintln!(
                "  {name}: {raw} bytes, {gzipped} bytes gzipped ({:.1} KiB)",
                gzipped as f64 / 1024.0
            );
            // The simulator: `dist/drift-web-<hash>_bg.wasm`.
            let simulator = wasm.parent() == Some(root().join("dist").as_path())
                && wasm
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("drift-web-"));
            if simulator && gzipped > SIMULATOR_GZIPPED {
                return Err(Failed(format!(
                    "{name} is {gzipped} bytes gzipped, over the simulator's {SIMULATOR_GZIPPED}: a feature pays for itself or loads only when used"
                )));
            }
        }
    }
    Ok(())
}
