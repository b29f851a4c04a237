//! Writes the benchmarks' stress session as a `compaction-drift/scenario@1`
//! file, so the `drift` command can be measured on it as a whole process:
//!
//! ```sh
//! cargo run --release -p drift-core --example stress_scenario -- target/stress.json
//! cargo run --release -p drift-core --example stress_scenario -- --pressured target/stress-pressured.json
//! ```
//!
//! 100,000 turns, 2,000 facts, 1,000 actions (see `benches/support/stress.rs`);
//! `--pressured` sets context pressure 0.3 and every guard on. Without a
//! path the file goes to stdout. The generator is deterministic: the same
//! bytes on every run and every machine.

#[path = "../benches/support/mod.rs"]
mod support;

use std::io::Write as _;
use std::process::ExitCode;

use support::stress::{STRESS, pressured, stress};

fn main() -> ExitCode {
    let mut pressure = false;
    let mut path = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--pressured" => pressure = true,
            _ if path.is_none() && !arg.starts_with('-') => path = Some(arg),
            _ => {
                eprintln!("usage: stress_scenario [--pressured] [PATH]");
                return ExitCode::from(2);
            }
        }
    }
    let mut scenario = stress(STRESS);
    if pressure {
        scenario = pressured(scenario);
    }
    let mut json = drift_core::scenario_to_json(&scenario);
    json.push('\n');
    let written = match &path {
        Some(path) => std::fs::write(path, json),
        None => std::io::stdout().lock().write_all(json.as_bytes()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "stress_scenario: {}: {e}",
                path.as_deref().unwrap_or("stdout")
            );
            ExitCode::FAILURE
        }
    }
}
