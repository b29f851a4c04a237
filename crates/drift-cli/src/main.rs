//! `drift`: Compaction Drift in the terminal and in CI.
//!
//! Every command prints to stdout and exits 0 on success (`import` without
//! `-o` prints the scenario there and its summary on stderr); `check` exits 1
//! when an action fails, `audit` when the summary lost a rule or asserts an
//! unsupported detail; any unreadable input exits 2 with one line on stderr
//! naming the file and the field (for a transcript, the line): an
//! [`Error`], which every command that can fail returns. Nothing here
//! panics on user input.

mod audit;
mod error;
mod hook;
mod import;
mod install;
mod load;
mod remedy;
mod report;
mod session_audit;
mod text;
mod tipping;

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use error::Error;

use drift_core::{
    Preset, RemedyHarness, SETTINGS, Scenario, SettingInfo, Value, builtin, builtin_ids,
    find_setting, simulate,
};

const USAGE: &str = "\
drift: what automatic context compaction does to an agent's rules

USAGE:
    drift run <FILE|ID> [--policy ID] [--format text|json]
    drift check <FILE|ID> [--policy ID]
    drift tipping <FILE|ID> [--policy ID] [--format text|json]
    drift matrix [FILE|ID ...] [--format text|json]
    drift list
    drift audit --before BEFORE --after AFTER [--format text|json]
    drift audit SESSION... [--all] [--lineage] [--format text|json]
    drift audit LOG... --retention [--format text|json]
    drift import TRANSCRIPT [-o FILE] [--window N] [--policy ID] [--id ID]
    drift remedy <FILE|ID|LOG> [--harness ID] [--format text|json]
    drift hook claude-code|codex [--max-tokens N] [--tool-policy]
    drift hook claude-code|codex --install [--project | --user] [--write]

COMMANDS:
    run      simulate one scenario and print the report (json: result@1)
    check    exit 1 when any action is ungoverned, misbound or not reached
    tipping  per action, the smallest change that flips its outcome: each
             kind's retention, the window, forwarding or externalising one fact
    matrix   outcome counts for every scenario under every policy preset
    list     the built-in scenarios, the policy presets and the settings
    audit    check a real summary (AFTER) against what it replaced (BEFORE):
             lost rules, unsupported details, changed ids, vanished reasons;
             exit 1 when a rule was lost or a detail is unsupported.
             Given session logs instead: per compaction they record, the
             rules of yours, a brief's and the system's it weakened,
             dropped or contradicts (who gave each, where, the summary's
             words, why, the fix), instruction files and skills it lost
             rules of, the carried and re-injected ones counted, tool-output
             policies apart, invented rules, re-bound ids; exit 1 when a
             rule was lost, one invented or an id re-bound. --all: the
             carried rules too. --lineage: each rule's fate at every
             compaction, how many summaries deep its copy is, where it was
             last said, and the claims each summary carries only from the
             one before. --retention: the retention per kind those
             compactions show, as a block a scenario can use
    import   a real session as a scenario file: its rules as facts, its
             consequential tool calls as actions, every one a guess to check;
             the scenario to FILE (or stdout), what was guessed to stdout
             (or stderr); --window defaults to 200000, --policy to the
             preset for the transcript's harness
    remedy   the change to a harness that keeps the rules that matter through
             compaction, as text to paste with the source of each setting:
             for a scenario, the rules governing actions that fail under the
             harness (each remedy also modelled: the run with it beside the
             run without); for a session log, the rules its compactions lost.
             --harness: claude_code, codex_cli, openai_compact,
             openhands_summarizing, openhands_masking, letta_sliding,
             deepagents, opencode, gemini_cli, roo_code or cline (default:
             the one the policy or the log names)
    hook     claude-code, codex: the harness's SessionStart hook (matcher
             compact): reads the hook's JSON on stdin and prints the rules
             the latest compaction lost (or, its summary encrypted, may have
             lost), word for word, as additionalContext, within --max-tokens
             (default 1500). It always exits 0, with one line on stderr when
             something is wrong. --install shows the change that registers
             it (--project, the default: .claude/settings.json or
             .codex/hooks.json here; --user: the same under ~/.claude or
             ~/.codex); --write makes it. `drift hook --help` says more
A scenario is a compaction-drift/scenario@1 file or a built-in id.
--policy replaces the scenario's policy with a preset. run, check, tipping
and matrix also take --set NAME=VALUE, as often as needed, to change one
setting (harness.window_tokens=200000, retention.carve_out=0.5,
guards.verify_bindings=on; the bare name or a link key works too):
`drift list` shows every setting with its range and default.
BEFORE and TRANSCRIPT are plain text, OpenAI Responses items (JSON or
JSON lines), or a Codex CLI or Claude Code session log; AFTER is text.
Any of them may be `-` for stdin.
";

/// The one input of `inputs`; with none or more, a usage failure saying
/// `usage`.
fn only_input(inputs: Vec<String>, usage: &str) -> Result<String, Error> {
    let mut inputs = inputs.into_iter();
    match (inputs.next(), inputs.next()) {
        (Some(input), None) => Ok(input),
        _ => Err(Error::usage(usage)),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// Changes to a scenario's settings asked for on the command line.
#[derive(Debug, Default)]
struct Changes {
    /// `--policy`: a preset in place of the scenario's policy.
    policy: Option<Preset>,
    /// `--set NAME=VALUE`, in order.
    set: Vec<(&'static SettingInfo, Value)>,
}

impl Changes {
    /// Applies the changes to `scenario`, then validates it: overrides can
    /// make a valid file invalid (a preset's trigger, say). `input` names
    /// the scenario in messages.
    fn apply(&self, scenario: &mut Scenario, input: &str) -> Result<(), Error> {
        if let Some(p) = self.policy {
            scenario.policy = drift_core::PolicyChoice::Preset(p);
        }
        for (info, value) in &self.set {
            info.setting
                .set(scenario, *value)
                .map_err(|e| Error::input(format!("--set: {e}")))?;
        }
        scenario.validate().map_err(|e| Error::at(input, e))
    }
}

/// What the command line asks for: one variant per command, with its flags.
#[derive(Debug)]
enum Command {
    /// The usage, or one command's.
    Help(&'static str),
    Version,
    List,
    Run {
        scenario: String,
        changes: Changes,
        format: Format,
    },
    Check {
        scenario: String,
        changes: Changes,
    },
    Tipping {
        scenario: String,
        changes: Changes,
        format: Format,
    },
    Matrix {
        scenarios: Vec<String>,
        changes: Changes,
        format: Format,
    },
    Audit {
        before: String,
        after: String,
        format: Format,
    },
    AuditSession {
        logs: Vec<String>,
        retention: bool,
        options: session_audit::Options,
        format: Format,
    },
    Import(import::Request),
    Remedy(remedy::Request),
    /// `drift hook claude-code` or `drift hook codex`, run by the harness.
    Hook {
        harness: RemedyHarness,
        max_tokens: usize,
        tool_policy: bool,
    },
    /// `drift hook NAME --install`.
    Install(install::Request),
}

/// `drift hook --help`.
const HOOK_HELP: &str = "\
drift hook: put back what a compaction lost, as the harness's hook

USAGE:
    drift hook claude-code|codex [--max-tokens N] [--tool-policy]
    drift hook claude-code|codex --install [--project | --user] [--write]

Claude Code and Codex run a SessionStart hook whose matcher is \"compact\"
right after every compaction, with a JSON object on stdin that names the
session's log (transcript_path). The hook reads that log, audits its latest
compaction and prints, as hookSpecificOutput.additionalContext, every rule
of yours, a brief's, the system's or an instruction file's that the
summary weakened, dropped or contradicts, word for word with who stated it,
where and when; under Codex's remote compaction, whose summary is
encrypted, every such rule it may have lost. Nothing when nothing was lost.
What a tool printed is never restated as a rule.

OPTIONS:
    --max-tokens N  the restatement's budget (characters / 4; default 1500,
                    at least 50; never more than the harness passes on
                    whole, 10,000 characters)
    --tool-policy   also restate the policies a tool announced (a freeze, a
                    lock), marked as what a tool printed
    --install       show the change that registers the hook: .claude/
                    settings.json (Claude Code) or .codex/hooks.json (Codex)
                    under the current directory (--project, the default) or
                    under ~/.claude, ~/.codex or $CODEX_HOME (--user)
    --write         with --install: make the change (other settings and
                    hooks are kept as they are)

The hook always exits 0, with one line on stderr when something is wrong:
it never stands in the harness's way. Codex runs a hook only once it is
trusted: review it with /hooks after installing. PreCompact and PostCompact
hooks cannot do this: their output never reaches the model.
";

/// Every flag as given, before the command decides which belong to it.
#[derive(Debug, Default)]
struct Flags {
    help: bool,
    inputs: Vec<String>,
    changes: Changes,
    format: Option<Format>,
    before: Option<String>,
    after: Option<String>,
    output: Option<String>,
    window: Option<u64>,
    id: Option<String>,
    retention: bool,
    harness: Option<String>,
    max_tokens: Option<usize>,
    install: bool,
    scope: Option<install::Scope>,
    write: bool,
    tool_policy: bool,
    lineage: bool,
    all: bool,
}

/// Reads `--set NAME=VALUE`.
fn setting(arg: &str) -> Result<(&'static SettingInfo, Value), Error> {
    let Some((name, value)) = arg.split_once('=') else {
        return Err(Error::usage(format!(
            "--set {arg}: give NAME=VALUE, e.g. --set harness.window_tokens=200000"
        )));
    };
    let info = find_setting(name.trim()).ok_or_else(|| {
        let ids: Vec<String> = SETTINGS.iter().map(SettingInfo::id).collect();
        Error::input(format!(
            "--set {arg}: no setting \"{name}\" (settings: {})",
            ids.join(", ")
        ))
    })?;
    let value = info
        .parse(value)
        .map_err(|e| Error::input(format!("--set {arg}: {e}")))?;
    info.check(&info.id(), value)
        .map_err(|e| Error::input(format!("--set {arg}: {e}")))?;
    Ok((info, value))
}

fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, Error> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut command: Option<String> = None;
    let mut flags = Flags::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => flags.help = true,
            Short('V') | Long("version") => command = Some("version".to_string()),
            Long("policy") | Short('p') => {
                let id: String = parser.value()?.string()?;
                flags.changes.policy = Some(Preset::from_id(&id).ok_or_else(|| {
                    let known: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
                    Error::input(format!(
                        "unknown policy \"{id}\"; presets: {}",
                        known.join(", ")
                    ))
                })?);
            }
            Long("set") => {
                let arg = parser.value()?.string()?;
                flags.changes.set.push(setting(&arg)?);
            }
            Long("format") | Short('f') => {
                flags.format = Some(match parser.value()?.string()?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => {
                        return Err(Error::usage(format!(
                            "unknown format \"{other}\"; use text or json"
                        )));
                    }
                })
            }
            Long("before") => flags.before = Some(parser.value()?.string()?),
            Long("after") => flags.after = Some(parser.value()?.string()?),
            Short('o') | Long("output") => flags.output = Some(parser.value()?.string()?),
            Long("window") => {
                let value = parser.value()?.string()?;
                flags.window = Some(value.parse().map_err(|_| {
                    Error::usage(format!("--window: \"{value}\" is not a number of tokens"))
                })?);
            }
            Long("id") => flags.id = Some(parser.value()?.string()?),
            Long("retention") => flags.retention = true,
            Long("harness") => flags.harness = Some(parser.value()?.string()?),
            Long("max-tokens") => {
                let value = parser.value()?.string()?;
                let n: usize = value.parse().map_err(|_| {
                    Error::usage(format!(
                        "--max-tokens: \"{value}\" is not a number of tokens"
                    ))
                })?;
                if n < drift_session::restate::MIN_RESTATE_TOKENS {
                    return Err(Error::usage(format!(
                        "--max-tokens {n}: give at least {}",
                        drift_session::restate::MIN_RESTATE_TOKENS
                    )));
                }
                flags.max_tokens = Some(n);
            }
            Long("install") => flags.install = true,
            Long("tool-policy") => flags.tool_policy = true,
            Long("lineage") => flags.lineage = true,
            Long("all") => flags.all = true,
            Long("project") => flags.scope = Some(install::Scope::Project),
            Long("user") => flags.scope = Some(install::Scope::User),
            Long("write") => flags.write = true,
            Value(value) if command.is_none() => command = Some(value.string()?),
            Value(value) => flags.inputs.push(value.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if flags.help {
        return Ok(Command::Help(match command.as_deref() {
            Some("hook") => HOOK_HELP,
            _ => USAGE,
        }));
    }
    command_of(command.as_deref().unwrap_or("help"), flags)
}

/// The command named `name`, with the flags that belong to it; a flag of
/// another command is an error that says whose it is.
fn command_of(name: &str, flags: Flags) -> Result<Command, Error> {
    if name != "audit" && (flags.before.is_some() || flags.after.is_some()) {
        return Err(Error::usage(format!(
            "--before and --after belong to drift audit, not drift {name}"
        )));
    }
    if name != "audit" && flags.retention {
        return Err(Error::usage(format!(
            "--retention belongs to drift audit, not drift {name}"
        )));
    }
    if name != "import" && (flags.output.is_some() || flags.window.is_some() || flags.id.is_some())
    {
        return Err(Error::usage(format!(
            "-o, --window and --id belong to drift import, not drift {name}"
        )));
    }
    if name != "remedy" && flags.harness.is_some() {
        return Err(Error::usage(format!(
            "--harness belongs to drift remedy, not drift {name}"
        )));
    }
    if name != "hook"
        && (flags.max_tokens.is_some() || flags.install || flags.scope.is_some() || flags.write)
    {
        return Err(Error::usage(format!(
            "--max-tokens, --install, --project, --user and --write belong to drift hook, not drift {name}"
        )));
    }
    if !matches!(name, "hook" | "remedy") && flags.tool_policy {
        return Err(Error::usage(format!(
            "--tool-policy belongs to drift hook and drift remedy, not drift {name}"
        )));
    }
    if name != "audit" && (flags.lineage || flags.all) {
        return Err(Error::usage(format!(
            "--lineage and --all belong to drift audit, not drift {name}"
        )));
    }
    let simulates = matches!(name, "run" | "check" | "tipping" | "matrix");
    if !simulates && !flags.changes.set.is_empty() {
        return Err(Error::usage(format!(
            "--set belongs to drift run, check, tipping and matrix, not drift {name}"
        )));
    }
    let format = flags.format.unwrap_or(Format::Text);
    let one = |flags: Flags| -> Result<(String, Changes), Error> {
        let mut inputs = flags.inputs.into_iter();
        match (inputs.next(), inputs.next()) {
            (Some(input), None) => Ok((input, flags.changes)),
            (None, _) => Err(Error::usage(format!(
                "{name}: which scenario? Give a file or a built-in id"
            ))),
            (Some(_), Some(_)) => Err(Error::usage(format!("{name} takes one scenario"))),
        }
    };
    Ok(match name {
        "help" => Command::Help(USAGE),
        "version" => Command::Version,
        "list" => Command::List,
        "run" => {
            let (scenario, changes) = one(flags)?;
            Command::Run {
                scenario,
                changes,
                format,
            }
        }
        "check" => {
            let (scenario, changes) = one(flags)?;
            Command::Check { scenario, changes }
        }
        "tipping" => {
            let (scenario, changes) = one(flags)?;
            Command::Tipping {
                scenario,
                changes,
                format,
            }
        }
        "matrix" => Command::Matrix {
            scenarios: flags.inputs,
            changes: flags.changes,
            format,
        },
        "audit" => match (flags.before, flags.after) {
            (Some(before), Some(after)) => {
                if !flags.inputs.is_empty() || flags.retention {
                    return Err(Error::usage(
                        "audit takes its files as --before and --after, or session logs without them",
                    ));
                }
                if flags.lineage || flags.all {
                    return Err(Error::usage(
                        "--lineage and --all read session logs: give the logs, not --before and --after",
                    ));
                }
                Command::Audit {
                    before,
                    after,
                    format,
                }
            }
            (None, None) if !flags.inputs.is_empty() => Command::AuditSession {
                logs: flags.inputs,
                retention: flags.retention,
                options: session_audit::Options {
                    all: flags.all,
                    lineage: flags.lineage,
                },
                format,
            },
            _ => {
                return Err(Error::usage(
                    "audit needs --before (what was compacted) and --after (the summary), or session logs",
                ));
            }
        },
        "import" => {
            let transcript = only_input(
                flags.inputs,
                "import takes one transcript file (or - for stdin)",
            )?;
            Command::Import(import::Request {
                transcript,
                output: flags.output,
                window: flags.window,
                policy: flags.changes.policy,
                id: flags.id,
            })
        }
        "remedy" => {
            if flags.changes.policy.is_some() {
                return Err(Error::usage(
                    "remedy takes --harness, not --policy: the harness decides the policy",
                ));
            }
            let input = only_input(
                flags.inputs,
                "remedy takes one scenario file, built-in id or session log",
            )?;
            Command::Remedy(remedy::Request {
                input,
                harness: flags.harness,
                json: format == Format::Json,
                tool_policy: flags.tool_policy,
            })
        }
        "hook" => {
            let hooks: Vec<&str> = RemedyHarness::ALL
                .into_iter()
                .filter_map(|h| h.hook().map(|k| k.command))
                .collect();
            let mut inputs = flags.inputs.into_iter();
            let harness = match (inputs.next().as_deref(), inputs.next()) {
                (Some(name), None) => RemedyHarness::of_hook(name).ok_or_else(|| {
                    Error::usage(format!(
                        "hook: no hook for \"{name}\"; the hooks are {}",
                        hooks.join(" and ")
                    ))
                })?,
                _ => {
                    return Err(Error::usage(format!(
                        "hook takes one harness: {}",
                        hooks.join(" or ")
                    )));
                }
            };
            if flags.changes.policy.is_some() || flags.format.is_some() {
                return Err(Error::usage(
                    "hook takes --max-tokens, or --install with --project, --user and --write",
                ));
            }
            if flags.install {
                if flags.max_tokens.is_some() || flags.tool_policy {
                    return Err(Error::usage(
                        "--max-tokens and --tool-policy are for the hook itself, not --install",
                    ));
                }
                Command::Install(install::Request {
                    harness,
                    scope: flags.scope.unwrap_or(install::Scope::Project),
                    write: flags.write,
                })
            } else {
                if flags.scope.is_some() || flags.write {
                    return Err(Error::usage(
                        "--project, --user and --write go with --install",
                    ));
                }
                Command::Hook {
                    harness,
                    max_tokens: flags
                        .max_tokens
                        .unwrap_or(drift_session::restate::DEFAULT_RESTATE_TOKENS),
                    tool_policy: flags.tool_policy,
                }
            }
        }
        other => {
            let mut msg = format!("unknown command \"{other}\"");
            if std::path::Path::new(other).exists() || builtin(other).is_some() {
                let _ = write!(msg, " (did you mean `drift run {other}`?)");
            }
            return Err(Error::usage(msg));
        }
    })
}

/// Loads `input` with the command line's changes applied.
fn load_changed(input: &str, changes: &Changes) -> Result<Scenario, Error> {
    let mut scenario = load::scenario(input)?;
    changes.apply(&mut scenario, input)?;
    Ok(scenario)
}

/// Runs the command; returns what to print and the exit code.
fn execute(command: Command) -> Result<(String, u8), Error> {
    match command {
        Command::Help(text) => Ok((text.to_string(), 0)),
        Command::Version => Ok((format!("drift {}\n", env!("CARGO_PKG_VERSION")), 0)),
        Command::List => Ok((report::list(), 0)),
        Command::Run {
            scenario,
            changes,
            format,
        } => {
            let scenario = load_changed(&scenario, &changes)?;
            let run = simulate(&scenario).map_err(|e| Error::input(e.to_string()))?;
            // Streamed to stdout as it is written: a result@1 can run to gigabytes.
            report::print_run(&scenario, &run, format == Format::Json)?;
            Ok((String::new(), 0))
        }
        Command::Check { scenario, changes } => {
            let scenario = load_changed(&scenario, &changes)?;
            let run = simulate(&scenario).map_err(|e| Error::input(e.to_string()))?;
            let (text, failed) = report::check(&scenario, &run);
            Ok((text, u8::from(failed)))
        }
        Command::Tipping {
            scenario,
            changes,
            format,
        } => {
            let scenario = load_changed(&scenario, &changes)?;
            let out = tipping::command(&scenario, format == Format::Json)?;
            Ok((out, 0))
        }
        Command::Audit {
            before,
            after,
            format,
        } => {
            let (out, drifted) = audit::command(&before, &after, format == Format::Json)?;
            Ok((out, u8::from(drifted)))
        }
        Command::AuditSession {
            logs,
            retention,
            options,
            format,
        } => {
            if retention {
                let out = session_audit::retention(&logs, format == Format::Json)?;
                return Ok((out, 0));
            }
            let (out, broke) = session_audit::command(&logs, format == Format::Json, options)?;
            Ok((out, u8::from(broke)))
        }
        Command::Import(request) => Ok((import::command(&request)?, 0)),
        Command::Remedy(request) => Ok((remedy::command(&request)?, 0)),
        Command::Install(request) => Ok((install::command_install(&request)?, 0)),
        Command::Hook {
            harness,
            max_tokens,
            tool_policy,
        } => {
            let context = hook::run(harness, max_tokens, tool_policy)?;
            Ok((context.unwrap_or_default(), 0))
        }
        Command::Matrix {
            scenarios,
            changes,
            format,
        } => {
            let inputs: Vec<&str> = if scenarios.is_empty() {
                builtin_ids().collect()
            } else {
                scenarios.iter().map(String::as_str).collect()
            };
            let scenarios = inputs
                .into_iter()
                .map(|input| {
                    // The matrix sets every preset itself; the other changes apply.
                    let mut scenario = load::scenario(input)?;
                    for (info, value) in &changes.set {
                        info.setting
                            .set(&mut scenario, *value)
                            .map_err(|e| Error::input(format!("--set: {e}")))?;
                    }
                    Ok(scenario)
                })
                .collect::<Result<Vec<_>, Error>>()?;
            let matrix = report::Matrix::compute(&scenarios);
            let out = match format {
                Format::Text => matrix.text(),
                Format::Json => matrix.json(),
            };
            Ok((out, 0))
        }
    }
}

/// Whether the command line runs the hook itself (`drift hook …` without
/// `--install`): then nothing may stand in the harness's way, and every
/// failure, a bad flag included, exits 0 with one line on stderr.
fn runs_hook(args: &[std::ffi::OsString]) -> bool {
    args.first().is_some_and(|a| a == "hook") && !args.iter().any(|a| a == "--install")
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let hook = runs_hook(&args);
    let result = parse_args(args).and_then(execute);
    match result {
        Ok((out, code)) => {
            // A closed pipe (`drift run x | head`) is not an error worth a message.
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::from(code)
        }
        Err(error) if hook => {
            let _ = writeln!(std::io::stderr(), "drift hook: {}", error.hook_line());
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "drift: {}", error.to_string().trim_end());
            ExitCode::from(error.code())
        }
    }
}
