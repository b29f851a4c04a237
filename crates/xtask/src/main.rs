//! Project automation, the two commands of the README:
//!
//! - `cargo xtask test`: installs what a fresh machine lacks, then runs every
//!   check CI runs (formatting, lints, native tests, the no-std build, the
//!   browser tests).
//! - `cargo xtask serve`: installs what the page needs and serves it at
//!   <http://127.0.0.1:8080>.
//!
//! Only the Rust, npm and Debian registries are assumed reachable: every tool
//! is installed from one of them, never downloaded from elsewhere.

mod loader;
mod serve;
mod tools;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "\
usage: cargo xtask <command>

  test     install what is missing, then run every check CI runs
  serve    install what is missing, then serve the pages at http://127.0.0.1:8080
           (--dev: an unoptimised build, faster to make)
  eval     score the rule finder and the judge on every labelled set, by
           people: across people first (5 folds by person), then in-sample
           (--misses; --frozen: the frozen group, once; see
           docs/LABELLING.md; --judge: the judge alone; --write-scores: write
           every score table into eval/SCORES.md)
  train    rebuild the rule finder's model (crates/drift-session/model/finder.bin)
           from eval/real's labels, ../shared/real-logs and the rule corpus, and
           the judge's (crates/drift-session/model/judge.bin) from the labelled
           fates, eval/judge's written pairs and the verdict and audit sets, byte
           for byte the same from the same labels; `cargo xtask eval` measures them
  dist     install what is missing, then build the release pages into dist/
           (--public-url /path/: where it will be served from, e.g. GitHub Pages)
";

/// A failed step: what failed, for the last line of output.
#[derive(Debug)]
pub struct Failed(pub String);

pub type Result<T = ()> = std::result::Result<T, Failed>;

/// The workspace root (this crate lives in `crates/xtask`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Runs `cmd` in the workspace root, streaming its output; fails unless it succeeds.
pub fn run(mut cmd: impl std::borrow::BorrowMut<Command>) -> Result {
    let cmd = cmd.borrow_mut();
    cmd.current_dir(root());
    let shown = format!("{cmd:?}").replace('"', "");
    eprintln!("  $ {shown}");
    let status = cmd
        .status()
        .map_err(|e| Failed(format!("cannot start {shown}: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Failed(format!("{shown} failed ({status})")))
    }
}

/// `cargo` with the arguments given.
pub fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args);
    cmd
}

/// Clippy over every target and feature of what `which` selects, warnings
/// denied.
fn clippy(which: &[&str]) -> Result {
    let mut args = vec!["clippy"];
    args.extend_from_slice(which);
    args.extend_from_slice(&[
        "--all-targets",
        "--all-features",
        "--locked",
        "--",
        "-D",
        "warnings",
    ]);
    run(cargo(&args))
}

/// Runs a named step and reports its duration.
fn step(name: &str, f: impl FnOnce() -> Result) -> Result {
    eprintln!("\n==> {name}");
    let start = Instant::now();
    let result = f();
    let secs = start.elapsed().as_secs_f64();
    match &result {
        Ok(()) => eprintln!("<== {name}: ok in {secs:.1} s"),
        Err(Failed(why)) => eprintln!("<== {name}: FAILED after {secs:.1} s: {why}"),
    }
    result
}

fn test() -> Result {
    step("install the Rust targets", tools::rust_targets)?;
    step("formatting", || {
        run(cargo(&["fmt", "--all", "--", "--check"]))
    })?;
    step("lints, native", || clippy(&["--workspace"]))?;
    step("lints, the page (wasm32)", || {
        clippy(&[
            "--package",
            "drift-web",
            "--target",
            "wasm32-unknown-unknown",
        ])
    })?;
    step("native tests, doc tests included", || {
        run(cargo(&[
            "test",
            "--workspace",
            "--all-features",
            "--locked",
        ]))
    })?;
    step("API documentation builds without warnings", || {
        let mut cmd = cargo(&[
            "doc",
            "--no-deps",
            "--locked",
            "--all-features",
            "--package",
            "drift-core",
            "--package",
            "drift-session",
            "--package",
            "drift-web",
        ]);
        cmd.env("RUSTDOCFLAGS", "-D warnings");
        run(cmd)
    })?;
    step(
        "drift-core, drift-session and drift-eval's scoring build without std (thumbv7em-none-eabihf)",
        || {
            run(cargo(&[
                "build",
                "--package",
                "drift-core",
                "--package",
                "drift-session",
                "--target",
                "thumbv7em-none-eabihf",
                "--locked",
            ]))?;
            run(cargo(&[
                "build",
                "--package",
                "drift-eval",
                "--lib",
                "--no-default-features",
                "--target",
                "thumbv7em-none-eabihf",
                "--locked",
            ]))
        },
    )?;
    step(
        "install the browser tools (npm packages, trunk, wasm-bindgen-cli, Chromium)",
        tools::browser_test_tools,
    )?;
    step("the page in headless Chromium (wasm-bindgen-test)", || {
        let mut cmd = cargo(&[
            "test",
            "--package",
            "drift-web",
            "--target",
            "wasm32-unknown-unknown",
            "--test",
            "browser",
            "--locked",
        ]);
        cmd.env("PATH", tools::tool_path());
        run(cmd)
    })?;
    step("release build of the pages (trunk)", || {
        tools::build_pages(true, "/")
    })?;
    step("size of the release pages", tools::report_wasm_size)?;
    step("end-to-end tests (Playwright, Chromium)", || {
        let mut cmd = tools::tool("node");
        cmd.arg("tests/e2e/run.mjs");
        run(cmd)
    })?;
    Ok(())
}

fn serve(dev: bool) -> Result {
    step("install the page's tools", tools::web_tools)?;
    step("build the pages (trunk)", || tools::build_pages(!dev, "/"))?;
    serve::dist(&root().join("dist"), "127.0.0.1:8080")
}

fn dist(public_url: &str) -> Result {
    step("install the page's tools", tools::web_tools)?;
    step("release build of the pages (trunk)", || {
        tools::build_pages(true, public_url)
    })?;
    step("size of the release pages", tools::report_wasm_size)
}

/// `cargo xtask eval --write-scores`: every section of `eval/SCORES.md`,
/// written by what measures it: drift-session's labelled tests with
/// `DRIFT_WRITE_SCORES` set, then the evaluation binary (`args` are its
/// own, `--write-scores` among them).
fn write_scores(args: &[&str]) -> Result {
    step(
        "the labelled pairs' and the rule corpus's tables (drift-session's tests)",
        || {
            let mut cmd = cargo(&[
                "test",
                "--quiet",
                "--locked",
                "--package",
                "drift-session",
                "--test",
                "labelled",
                "--test",
                "rules",
                "--",
                "eval_scores",
            ]);
            cmd.env("DRIFT_WRITE_SCORES", "1");
            run(cmd)
        },
    )?;
    step(
        "the real logs' and the verdict sets' tables (drift-eval)",
        || eval(args),
    )?;
    eprintln!("\neval/SCORES.md written: `git diff eval/SCORES.md` shows what changed");
    Ok(())
}

/// `cargo xtask eval`: the evaluation binary, built for speed.
fn eval(args: &[&str]) -> Result {
    let mut cmd = cargo(&[
        "run",
        "--quiet",
        "--locked",
        "--profile",
        "eval",
        "--package",
        "drift-eval",
        "--",
    ]);
    cmd.args(args);
    run(cmd)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let started = Instant::now();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["test"] => test(),
        ["serve"] => serve(false),
        ["serve", "--dev"] => serve(true),
        ["eval", rest @ ..] if rest.contains(&"--write-scores") => write_scores(rest),
        ["eval", rest @ ..] => eval(rest),
        ["train"] => eval(&["train"]),
        ["dist"] => dist("/"),
        ["dist", "--public-url", url] => dist(url),
        // Run by Trunk (see Trunk.toml), not by people.
        ["externalise-loader"] => loader::externalise(),
        [] | ["help"] | ["--help"] | ["-h"] => {
            eprint!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprint!("unknown arguments: {}\n\n{USAGE}", args.join(" "));
            return ExitCode::from(2);
        }
    };
    let secs = started.elapsed().as_secs_f64();
    let quiet = args.first().is_some_and(|a| a == "externalise-loader");
    match result {
        Ok(()) if quiet => ExitCode::SUCCESS,
        Ok(()) => {
            eprintln!(
                "\nall done in {:.0} min {:.0} s",
                (secs / 60.0).floor(),
                secs % 60.0
            );
            ExitCode::SUCCESS
        }
        Err(Failed(why)) => {
            eprintln!("\nxtask: {why}");
            ExitCode::FAILURE
        }
    }
}
