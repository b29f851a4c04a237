//! `drift`: Compaction Drift in the terminal and in CI.
//!
//! Every command prints to stdout and exits 0 on success (`import` without
//! `-o` prints the scenario there and its summary on stderr); `check` exits 1
//! when an action fails, `audit` when the summary lost a rule or asserts an
//! unsupported detail; any unreadable input exits 2 with one line on stderr
//! naming the file and the field (for a transcript, the line). Nothing here
//! panics on user input.

mod audit;
mod import;
mod report;
mod tipping;

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use drift_core::{Preset, Scenario, builtin, builtin_ids, parse_scenario, simulate};

const USAGE: &str = "\
drift: what automatic context compaction does to an agent's rules

USAGE:
    drift run <FILE|ID> [--policy ID] [--format text|json]
    drift check <FILE|ID> [--policy ID]
    drift tipping <FILE|ID> [--policy ID] [--format text|json]
    drift matrix [FILE|ID ...] [--format text|json]
    drift list
    drift audit --before BEFORE --after AFTER [--format text|json]
    drift import TRANSCRIPT [-o FILE] [--window N] [--policy ID] [--id ID]

COMMANDS:
    run      simulate one scenario and print the report (json: result@1)
    check    exit 1 when any action is ungoverned, misbound or not reached
    tipping  per action, the smallest change that flips its outcome: each
             kind's retention, the window, forwarding or externalising one fact
    matrix   outcome counts for every scenario under every policy preset
    list     the built-in scenarios and policy presets
    audit    check a real summary (AFTER) against what it replaced (BEFORE):
             lost rules, unsupported details, changed ids, vanished reasons;
             exit 1 when a rule was lost or a detail is unsupported
    import   a real session as a scenario file: its rules as facts, its
             consequential tool calls as actions, every one a guess to check;
             the scenario to FILE (or stdout), what was guessed to stdout
             (or stderr); --window defaults to 200000, --policy to the
             preset for the transcript's harness

A scenario is a compaction-drift/scenario@1 file or a built-in id.
--policy replaces the scenario's policy with a preset (see `drift list`).
BEFORE and TRANSCRIPT are plain text, OpenAI Responses items (JSON or
JSON lines), or a Codex CLI or Claude Code session log; AFTER is text.
Any of them may be `-` for stdin.
";

/// A failure to report: the message and the exit code.
#[derive(Debug)]
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: format!("{}\n\n{USAGE}", message.into()),
            code: 2,
        }
    }

    fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Failure {
        Failure::usage(e.to_string())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// What the command line asks for.
#[derive(Debug)]
struct Args {
    command: String,
    inputs: Vec<String>,
    policy: Option<Preset>,
    format: Format,
    before: Option<String>,
    after: Option<String>,
    output: Option<String>,
    window: Option<u64>,
    id: Option<String>,
}

fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut command = None;
    let mut inputs = Vec::new();
    let mut policy = None;
    let mut format = Format::Text;
    let mut before = None;
    let mut after = None;
    let mut output = None;
    let mut window = None;
    let mut id = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => command = Some("help".to_string()),
            Short('V') | Long("version") => command = Some("version".to_string()),
            Long("policy") | Short('p') => {
                let id: String = parser.value()?.string()?;
                policy = Some(Preset::from_id(&id).ok_or_else(|| {
                    let known: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
                    Failure::input(format!(
                        "unknown policy \"{id}\"; presets: {}",
                        known.join(", ")
                    ))
                })?);
            }
            Long("format") | Short('f') => {
                format = match parser.value()?.string()?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => {
                        return Err(Failure::usage(format!(
                            "unknown format \"{other}\"; use text or json"
                        )));
                    }
                }
            }
            Long("before") => before = Some(parser.value()?.string()?),
            Long("after") => after = Some(parser.value()?.string()?),
            Short('o') | Long("output") => output = Some(parser.value()?.string()?),
            Long("window") => {
                let value = parser.value()?.string()?;
                window = Some(value.parse().map_err(|_| {
                    Failure::usage(format!("--window: \"{value}\" is not a number of tokens"))
                })?);
            }
            Long("id") => id = Some(parser.value()?.string()?),
            Value(value) if command.is_none() => command = Some(value.string()?),
            Value(value) => inputs.push(value.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    Ok(Args {
        command: command.unwrap_or_else(|| "help".to_string()),
        inputs,
        policy,
        format,
        before,
        after,
        output,
        window,
        id,
    })
}

/// Reads a scenario from a file, or a built-in by id.
fn load(input: &str) -> Result<Scenario, Failure> {
    let path = std::path::Path::new(input);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::input(format!("{input}: cannot read: {e}")))?;
        return parse_scenario(&text).map_err(|e| Failure::input(format!("{input}: {e}")));
    }
    builtin(input).ok_or_else(|| {
        let ids: Vec<&str> = builtin_ids().collect();
        Failure::input(format!(
            "{input}: no such file or built-in scenario (built-ins: {})",
            ids.join(", ")
        ))
    })
}

fn one_input(args: &Args) -> Result<Scenario, Failure> {
    match args.inputs.as_slice() {
        [input] => {
            let mut scenario = load(input)?;
            if let Some(p) = args.policy {
                scenario.policy = drift_core::PolicyChoice::Preset(p);
            }
            // Overrides can make a valid file invalid (a preset's trigger, say).
            scenario
                .validate()
                .map_err(|e| Failure::input(format!("{input}: {e}")))?;
            Ok(scenario)
        }
        [] => Err(Failure::usage(format!(
            "{}: which scenario? Give a file or a built-in id",
            args.command
        ))),
        _ => Err(Failure::usage(format!(
            "{} takes one scenario",
            args.command
        ))),
    }
}

/// Runs the command; returns what to print and the exit code.
fn execute(args: &Args) -> Result<(String, u8), Failure> {
    if args.command != "audit" && (args.before.is_some() || args.after.is_some()) {
        return Err(Failure::usage(format!(
            "--before and --after belong to drift audit, not drift {}",
            args.command
        )));
    }
    if args.command != "import"
        && (args.output.is_some() || args.window.is_some() || args.id.is_some())
    {
        return Err(Failure::usage(format!(
            "-o, --window and --id belong to drift import, not drift {}",
            args.command
        )));
    }
    match args.command.as_str() {
        "help" => Ok((USAGE.to_string(), 0)),
        "version" => Ok((format!("drift {}\n", env!("CARGO_PKG_VERSION")), 0)),
        "list" => Ok((report::list(), 0)),
        "run" => {
            let scenario = one_input(args)?;
            let run = simulate(&scenario).map_err(|e| Failure::input(e.to_string()))?;
            let out = match args.format {
                Format::Json => {
                    let mut json = drift_core::result_to_json(&scenario, &run);
                    json.push('\n');
                    json
                }
                Format::Text => report::run(&scenario, &run),
            };
            Ok((out, 0))
        }
        "check" => {
            let scenario = one_input(args)?;
            let run = simulate(&scenario).map_err(|e| Failure::input(e.to_string()))?;
            let (text, failed) = report::check(&scenario, &run);
            Ok((text, u8::from(failed)))
        }
        "tipping" => {
            let scenario = one_input(args)?;
            let out =
                tipping::command(&scenario, args.format == Format::Json).map_err(Failure::input)?;
            Ok((out, 0))
        }
        "audit" => {
            let (Some(before), Some(after)) = (&args.before, &args.after) else {
                return Err(Failure::usage(
                    "audit needs --before (what was compacted) and --after (the summary)",
                ));
            };
            if !args.inputs.is_empty() {
                return Err(Failure::usage(
                    "audit takes its files as --before and --after",
                ));
            }
            let (out, drifted) = audit::command(before, after, args.format == Format::Json)
                .map_err(Failure::input)?;
            Ok((out, u8::from(drifted)))
        }
        "import" => {
            let [transcript] = args.inputs.as_slice() else {
                return Err(Failure::usage(
                    "import takes one transcript file (or - for stdin)",
                ));
            };
            let request = import::Request {
                transcript,
                output: args.output.as_deref(),
                window: args.window,
                policy: args.policy,
                id: args.id.as_deref(),
            };
            Ok((import::command(&request).map_err(Failure::input)?, 0))
        }
        "matrix" => {
            let scenarios = if args.inputs.is_empty() {
                builtin_ids().map(load).collect::<Result<Vec<_>, _>>()?
            } else {
                args.inputs
                    .iter()
                    .map(|i| load(i))
                    .collect::<Result<Vec<_>, _>>()?
            };
            let matrix = report::Matrix::compute(&scenarios);
            let out = match args.format {
                Format::Text => matrix.text(),
                Format::Json => matrix.json(),
            };
            Ok((out, 0))
        }
        other => {
            let mut msg = format!("unknown command \"{other}\"");
            if std::path::Path::new(other).exists() || builtin(other).is_some() {
                let _ = write!(msg, " (did you mean `drift run {other}`?)");
            }
            Err(Failure::usage(msg))
        }
    }
}

fn main() -> ExitCode {
    let result = parse_args(std::env::args_os().skip(1)).and_then(|args| execute(&args));
    match result {
        Ok((out, code)) => {
            // A closed pipe (`drift run x | head`) is not an error worth a message.
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::from(code)
        }
        Err(failure) => {
            let _ = writeln!(std::io::stderr(), "drift: {}", failure.message.trim_end());
            ExitCode::from(failure.code)
        }
    }
}
