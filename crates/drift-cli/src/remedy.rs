//! `drift remedy FILE|ID|LOG [--harness ID]`: the change to a harness that
//! keeps the rules that matter through compaction, as text to paste, each
//! with the public source of the setting it uses.
//!
//! The rules that matter: for a scenario (a file or a built-in id), the
//! standing rules, carve-outs, corrections, scopes and bindings that govern
//! an action failing under the harness ([`drift_core::rules_at_stake`]); for
//! a session log, the rules (and re-attributed ids) its compactions lost
//! ([`drift_session::session_losses`]), and those an encrypted compaction
//! may have lost. For a scenario, each remedy is also
//! modelled ([`drift_core::apply_remedy`]) and the run with it is set beside
//! the run without. `--harness` takes a harness preset's id or `opencode`;
//! without it, the harness the scenario's policy or the log's format names.

use std::fmt::Write as _;
use std::path::Path;

use drift_core::{
    Kind, Outcome, Remedied, Remedy, RemedyHarness, Run, Scenario, apply_remedy, builtin,
    builtin_ids, explain, parse_scenario, simulate,
};
use drift_session::{
    LossKind, SessionAudit, Transcript, TranscriptFormat, audit_session, place, read_transcript,
    session_losses, speaker,
};

use crate::audit::{plural, quote, read_text};
use crate::import::read_agent_logs;

/// The `format` of `drift remedy --format json`.
pub const REMEDY_FORMAT: &str = "compaction-drift/remedy@1";

/// What `drift remedy` was asked for.
#[derive(Debug)]
pub struct Request {
    /// A scenario file, a built-in id or a session log (`-` for stdin).
    pub input: String,
    /// `--harness`.
    pub harness: Option<String>,
    /// `--format json`.
    pub json: bool,
}

/// What was read.
enum Source {
    Scenario(Box<Scenario>),
    Log {
        transcript: Box<Transcript>,
        audit: SessionAudit,
    },
}

/// A rule to carry, as the remedies write it.
struct Carried {
    /// Verbatim.
    text: String,
    /// "standing rule", "binding", "id"…
    kind: &'static str,
    /// Who stated it and where: "tool, turn 4" or "the user, line 15, …".
    origin: String,
    /// Why it matters: the actions it governs, or what a compaction did.
    why: String,
    /// The scenario fact's id.
    id: Option<String>,
    /// Its turn (scenario) or its message's position (log), for
    /// `keep_first`.
    position: u64,
}

/// A remedy, written out.
struct Block {
    remedy: Remedy,
    title: String,
    /// What the mechanism does, in a few sentences.
    intro: String,
    /// Text to paste, each where it goes.
    pastes: Vec<Paste>,
    /// Where the setting is documented.
    sources: Vec<&'static str>,
    /// What to know before relying on it.
    caveats: Vec<String>,
}

struct Paste {
    /// Where it goes.
    file: String,
    /// Its language, for the JSON reader.
    language: &'static str,
    text: String,
}

/// The paths and commands a remedy names that depend on this machine.
struct Machine {
    /// `drift hook claude-code` as registered: the running drift's path.
    hook_command: String,
    /// `$HOME`, for Codex's prompt file (whose key takes an absolute path).
    home: String,
}

fn machine() -> Machine {
    Machine {
        hook_command: crate::install::command()
            .unwrap_or_else(|_| "drift hook claude-code".to_string()),
        home: std::env::var("HOME")
            .ok()
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "/home/you".to_string()),
    }
}

/// Reads `input`: a built-in id, a scenario file (JSON whose `format` is a
/// scenario's), or a session log.
fn read(input: &str) -> Result<Source, String> {
    let path = Path::new(input);
    if input != "-" && !path.exists() {
        return builtin(input)
            .map(|s| Source::Scenario(Box::new(s)))
            .ok_or_else(|| {
                let ids: Vec<&str> = builtin_ids().collect();
                format!(
                    "{input}: no such file or built-in scenario (built-ins: {})",
                    ids.join(", ")
                )
            });
    }
    let text = read_text(input, "the input")?;
    let is_scenario = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format")?.as_str().map(str::to_string))
        .is_some_and(|f| f.starts_with("compaction-drift/scenario"));
    if is_scenario {
        return parse_scenario(&text)
            .map(|s| Source::Scenario(Box::new(s)))
            .map_err(|e| format!("{input}: {e}"));
    }
    let mut transcript = read_transcript(&text).map_err(|e| format!("{input}: {e}"))?;
    read_agent_logs(input, &mut transcript)?;
    let audit = audit_session(&transcript);
    Ok(Source::Log {
        transcript: Box::new(transcript),
        audit,
    })
}

fn harness_ids() -> String {
    let ids: Vec<&str> = RemedyHarness::ALL.iter().map(|h| h.id()).collect();
    ids.join(", ")
}

/// The harness asked for, or the one the input names.
fn harness(request: &Request, source: &Source) -> Result<RemedyHarness, String> {
    if let Some(id) = &request.harness {
        return RemedyHarness::from_id(id).ok_or_else(|| {
            format!(
                "--harness {id}: not a harness (harnesses: {})",
                harness_ids()
            )
        });
    }
    let input = &request.input;
    match source {
        Source::Scenario(s) => match s.policy {
            drift_core::PolicyChoice::Preset(p) => RemedyHarness::of_preset(p),
            drift_core::PolicyChoice::Custom(_) => None,
        }
        .ok_or_else(|| {
            format!(
                "{input}: its policy {} is not a harness's; give --harness ({})",
                s.policy.id(),
                harness_ids()
            )
        }),
        Source::Log { transcript, .. } => match transcript.format {
            TranscriptFormat::ClaudeCodeSession => Some(RemedyHarness::ClaudeCode),
            TranscriptFormat::CodexSession => Some(RemedyHarness::CodexCli),
            TranscriptFormat::ResponsesItems => Some(RemedyHarness::OpenaiCompact),
            TranscriptFormat::PlainText => None,
        }
        .ok_or_else(|| {
            format!(
                "{input}: plain text names no harness; give --harness ({})",
                harness_ids()
            )
        }),
    }
}

/// A remedy modelled on a scenario: both runs.
struct Modelled {
    remedied: Remedied,
    without: Run,
    with: Run,
}

fn model(scenario: &Scenario, h: RemedyHarness, input: &str) -> Result<Vec<Modelled>, String> {
    h.remedies()
        .iter()
        .map(|&r| {
            let remedied = apply_remedy(scenario, h, r)
                .map_err(|e| format!("{input} under {}: {e}", h.id()))?;
            let without = simulate(&remedied.without).map_err(|e| format!("{input}: {e}"))?;
            let with = simulate(&remedied.with).map_err(|e| format!("{input}: {e}"))?;
            Ok(Modelled {
                remedied,
                without,
                with,
            })
        })
        .collect()
}

fn failing(o: Outcome) -> bool {
    matches!(o, Outcome::Ungoverned | Outcome::Misbound)
}

/// The facts a remedy carries, with the failing actions each governs.
fn scenario_rules(m: &Modelled) -> Vec<Carried> {
    let s = &m.remedied.without;
    m.remedied
        .rules
        .iter()
        .filter_map(|&i| {
            let f = s.facts.get(i)?;
            let governs: Vec<String> = s
                .actions
                .iter()
                .zip(m.without.actions())
                .filter(|(a, g)| {
                    failing(g.outcome)
                        && (a.governed_by.contains(&f.id) || a.target.as_ref() == Some(&f.id))
                })
                .map(|(a, g)| format!("{} (turn {}, {})", a.id, a.turn, g.outcome.label()))
                .collect();
            Some(Carried {
                text: f.text.clone(),
                kind: f.kind.label(),
                origin: format!("{}, turn {}", f.role.id(), f.turn),
                why: format!("governs {}", governs.join(", ")),
                id: Some(f.id.clone()),
                position: u64::from(f.turn),
            })
        })
        .collect()
}

/// What a log's compactions lost, and the rules an encrypted compaction
/// may have lost (nobody can read what it kept).
fn log_rules(t: &Transcript, audit: &SessionAudit) -> Vec<Carried> {
    let mut rules: Vec<Carried> = session_losses(t, audit)
        .into_iter()
        .map(|l| {
            let when = t
                .messages
                .get(l.message)
                .and_then(|m| m.timestamp.as_deref())
                .map_or(String::new(), |ts| format!(", {ts}"));
            Carried {
                kind: match l.what {
                    LossKind::Rule { kind, .. } => kind.label(),
                    LossKind::Id { .. } => "binding",
                },
                origin: format!("{}, {}{when}", speaker(t, l.message), place(t, l.message)),
                why: l.what_happened(),
                text: l.text,
                id: None,
                position: l.message as u64 + 1,
            }
        })
        .collect();
    for r in audit.compactions.iter().flat_map(|c| &c.unjudged) {
        let kind = r.rule.kind;
        let carried = kind.is_constraint() || matches!(kind, Kind::Scope | Kind::Binding);
        if !carried || rules.iter().any(|x| x.text == r.rule.text) {
            continue;
        }
        let message = r.rule.before.message;
        let when = t
            .messages
            .get(message)
            .and_then(|m| m.timestamp.as_deref())
            .map_or(String::new(), |ts| format!(", {ts}"));
        rules.push(Carried {
            text: r.rule.text.clone(),
            kind: kind.label(),
            origin: format!("{}, {}{when}", speaker(t, message), place(t, message)),
            why: "unknown: the compaction's summary is encrypted, so what it kept cannot be read"
                .to_string(),
            id: None,
            position: message as u64 + 1,
        });
    }
    rules
}

/// The rules as a Markdown list.
fn bullets(rules: &[Carried]) -> String {
    let mut out = String::new();
    for r in rules {
        let text = r.text.trim().replace('\n', "\n  ");
        let _ = writeln!(out, "- {text}");
    }
    out
}

/// The rules as a list of JSON string literals, one a line, indented: valid
/// in Python and TypeScript.
fn literals(rules: &[Carried], indent: &str) -> String {
    let mut out = String::new();
    for r in rules {
        let _ = writeln!(out, "{indent}{},", serde_json::Value::from(r.text.trim()));
    }
    out
}

const SECTION: &str = "## Rules that hold for the whole session\n\nThese stand until the operator changes them, whatever a summary of earlier work says.\n\n";

fn block(h: RemedyHarness, remedy: Remedy, rules: &[Carried], machine: &Machine) -> Block {
    let head = rules.iter().map(|r| r.position).max().unwrap_or(1).max(1);
    match (h, remedy) {
        (_, Remedy::RestateHook) => {
            // The file as `--install` would create it.
            let registration =
                crate::install::merge(None, ".claude/settings.json", &machine.hook_command)
                    .map(|m| m.text)
                    .unwrap_or_default();
            Block {
                remedy,
                title: "a SessionStart hook that restates what each compaction lost".to_string(),
                intro: "Claude Code runs the SessionStart hooks whose matcher is \"compact\" right after every compaction and adds what a hook returns as hookSpecificOutput.additionalContext to the context. `drift hook claude-code` reads the session log, audits that compaction and returns every rule, carve-out, correction, scope and re-attributed id the summary lost, word for word, with who stated it, where and when; nothing when nothing was lost. Register it with\n\n    drift hook claude-code --install --project          (shows the change)\n    drift hook claude-code --install --project --write  (makes it)\n\n(--user for ~/.claude/settings.json), or add the entry yourself:".to_string(),
                pastes: vec![Paste {
                    file: ".claude/settings.json".to_string(),
                    language: "json",
                    text: registration,
                }],
                sources: vec![
                    "code.claude.com/docs/en/hooks (SessionStart: the \"compact\" matcher, the input's source, hookSpecificOutput.additionalContext)",
                    "code.claude.com/docs/en/hooks-guide (re-inject context after compaction)",
                ],
                caveats: vec![
                    "Its budget is 1,500 tokens (--max-tokens N in the command): the riskiest losses come first, and a last line counts what was left out.".to_string(),
                    "It restates what the audit reads as a rule in the log's words; `drift audit` on a session shows what it finds.".to_string(),
                ],
            }
        }
        (_, Remedy::ClaudeMd) => Block {
            remedy,
            title: "the rules in the project-root CLAUDE.md".to_string(),
            intro: "Claude Code re-reads the project-root CLAUDE.md from disk after every compaction and puts it back into the context; a rule stated only in the conversation is at the summary's mercy. Add this section to ./CLAUDE.md (or to an unscoped file in .claude/rules/):".to_string(),
            pastes: vec![Paste {
                file: "CLAUDE.md".to_string(),
                language: "markdown",
                text: format!("{SECTION}{}", bullets(rules)),
            }],
            sources: vec![
                "code.claude.com/docs/en/memory (instructions lost after /compact: project-root CLAUDE.md is re-read from disk)",
                "code.claude.com/docs/en/context-window (what survives compaction)",
            ],
            caveats: vec![
                "A nested CLAUDE.md, or a .claude/rules file with paths: in its front matter, is not re-read until a matching file is read again.".to_string(),
                "The file is in every request: keep the section to the rules that must hold.".to_string(),
            ],
        },
        (_, Remedy::CompactPrompt) => {
            let file = format!("{}/.codex/compact-prompt.md", machine.home.trim_end_matches('/'));
            Block {
                remedy,
                title: "a compaction prompt that carries the rules word for word".to_string(),
                intro: "Codex's local compaction asks the model for a handoff summary with a prompt that compact_prompt (inline) or experimental_compact_prompt_file (a file) in ~/.codex/config.toml replaces. This prompt asks for the summary and for the rules copied word for word. It replaces the whole default prompt. Codex reads these keys only when it compacts locally: with the OpenAI provider, its default, it compacts remotely on OpenAI's servers and ignores both (openai/codex issue 34428); there, use AGENTS.md below.".to_string(),
                pastes: vec![
                    Paste {
                        file: file.clone(),
                        language: "markdown",
                        text: format!(
                            "Write a handoff summary of this conversation for the model that continues the work: the task and its goal, what is done, what is in progress and what comes next, the files, commands and identifiers that matter, and the open questions.\n\nThen copy each operator rule below into the summary word for word, under the heading \"Operator rules\", even where the conversation seems to have moved past it. Keep every one; do not shorten, merge, soften or reword them.\n\nOperator rules:\n{}",
                            bullets(rules)
                        ),
                    },
                    Paste {
                        file: "~/.codex/config.toml".to_string(),
                        language: "toml",
                        text: format!(
                            "experimental_compact_prompt_file = {}\n",
                            serde_json::Value::from(file.as_str())
                        ),
                    },
                ],
                sources: vec![
                    "openai/codex codex-rs/config/src/config_toml.rs (compact_prompt, experimental_compact_prompt_file)",
                    "openai/codex codex-rs/core/src/compact.rs (local compaction: the prompt, and the newest user messages, up to 20,000 tokens, kept verbatim)",
                    "github.com/openai/codex/issues/34428 (remote compaction ignores compact_prompt)",
                ],
                caveats: vec![
                    "A summary is still written by a model: the prompt asks for the rules, it cannot make sure of them.".to_string(),
                ],
            }
        }
        (RemedyHarness::CodexCli, Remedy::Instructions) => Block {
            remedy,
            title: "the rules in AGENTS.md".to_string(),
            intro: "Codex loads AGENTS.md (from ~/.codex and from the project root down to the working directory) into the session's initial context and puts that context back after compaction. Add this section to the project's AGENTS.md (or the same text as developer_instructions in ~/.codex/config.toml):".to_string(),
            pastes: vec![Paste {
                file: "AGENTS.md".to_string(),
                language: "markdown",
                text: format!("{SECTION}{}", bullets(rules)),
            }],
            sources: vec![
                "openai/codex codex-rs/core/src/agents_md.rs (where AGENTS.md is found)",
                "openai/codex codex-rs/core/src/compact.rs (the initial context is injected again after compaction)",
                "openai/codex codex-rs/config/src/config_toml.rs (developer_instructions)",
            ],
            caveats: vec![
                "Codex reads AGENTS.md when a session starts: the section holds from the next session on.".to_string(),
            ],
        },
        (RemedyHarness::OpenaiCompact, _) => Block {
            remedy,
            title: "the rules in instructions, sent with every request".to_string(),
            intro: "A Responses compaction keeps the user messages and folds everything else into one encrypted item; the instructions of a request are not part of what it compacts. They are not carried over by previous_response_id either, so send them with every request:".to_string(),
            pastes: vec![Paste {
                file: "your client code".to_string(),
                language: "python",
                text: format!(
                    "RULES = \"\\n\".join([\n{}])\n\nresponse = client.responses.create(\n    model=MODEL,\n    instructions=RULES,  # on every request\n    input=items,\n    context_management=[{{\"type\": \"compaction\", \"compact_threshold\": THRESHOLD}}],\n)\n",
                    literals(rules, "    ")
                ),
            }],
            sources: vec![
                "openai/openai-python src/openai/types/responses/response_create_params.py (instructions; context_management)",
                "developers.openai.com/api/docs/guides/compaction",
            ],
            caveats: vec![],
        },
        (_, Remedy::KeepFirst) => {
            let max_size = (2 * head + 2).max(120);
            Block {
                remedy,
                title: format!("keep_first = {head}: the condenser keeps the events that state the rules"),
                intro: format!(
                    "OpenHands' LLMSummarizingCondenser never condenses the first keep_first events of the conversation. Raise it to cover the last event that states one of these rules ({}: count your session's events, which start with the system message, the first user message and the workspace context), and keep max_size above twice keep_first, as the condenser requires:",
                    if rules.iter().any(|r| r.id.is_some()) {
                        format!("here turn {head}, a turn counted as one event")
                    } else {
                        format!("here message {head} of the log")
                    }
                ),
                pastes: vec![
                    Paste {
                        file: "config.toml".to_string(),
                        language: "toml",
                        text: format!(
                            "[condenser]\ntype = \"llm\"\nllm_config = \"condenser\"\nkeep_first = {head}\nmax_size = {max_size}\n"
                        ),
                    },
                    Paste {
                        file: "with the OpenHands SDK".to_string(),
                        language: "python",
                        text: format!(
                            "from openhands.sdk.context.condenser import LLMSummarizingCondenser\n\ncondenser = LLMSummarizingCondenser(llm=condenser_llm, max_size={max_size}, keep_first={head})\nagent = Agent(llm=llm, tools=tools, condenser=condenser)\n"
                        ),
                    },
                ],
                sources: vec![
                    "All-Hands-AI/OpenHands openhands/core/config/condenser_config.py (LLMSummarizingCondenserConfig: keep_first, max_size)",
                    "All-Hands-AI/OpenHands openhands/memory/condenser/impl/llm_summarizing_condenser.py (the head it keeps; keep_first below max_size / 2)",
                    "OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/context/condenser/llm_summarizing_condenser.py",
                ],
                caveats: vec![
                    "Everything in the first keep_first events stays in context after every condensation: a large head leaves less room for the rest.".to_string(),
                ],
            }
        }
        (RemedyHarness::OpenhandsSummarizing | RemedyHarness::OpenhandsMasking, _) => Block {
            remedy,
            title: "the rules in the system prompt (OpenHands SDK)".to_string(),
            intro: format!(
                "The OpenHands SDK renders the agent context's system_message_suffix, and the repository's AGENTS.md, into the system prompt, which no condenser touches.{} Add the rules to the suffix (or to AGENTS.md at the repository root):",
                if h == RemedyHarness::OpenhandsMasking {
                    " The ObservationMaskingCondenser replaces old tool outputs with a placeholder: a rule a tool returned goes with them."
                } else {
                    ""
                }
            ),
            pastes: vec![Paste {
                file: "with the OpenHands SDK".to_string(),
                language: "python",
                text: format!(
                    "from openhands.sdk import AgentContext\n\nRULES = \"\\n\".join([\n{}])\n\nagent = Agent(llm=llm, tools=tools, agent_context=AgentContext(system_message_suffix=RULES))\n",
                    literals(rules, "    ")
                ),
            }],
            sources: {
                let mut sources = vec![
                    "OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/context/agent_context.py (system_message_suffix)",
                    "OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/context/prompts/sections/dynamic.py (AGENTS.md in the system prompt)",
                ];
                if h == RemedyHarness::OpenhandsMasking {
                    sources.push("All-Hands-AI/OpenHands openhands/memory/condenser/impl/observation_masking_condenser.py");
                }
                sources
            },
            caveats: vec![],
        },
        (_, Remedy::MemoryBlock) => Block {
            remedy,
            title: "the rules in a read-only core memory block".to_string(),
            intro: "Letta renders every core memory block attached to an agent into its system message, which compaction keeps; a block the agent may not edit stays as written. Create one and attach it:".to_string(),
            pastes: vec![Paste {
                file: "with the Letta client".to_string(),
                language: "python",
                text: format!(
                    "RULES = \"\\n\".join([\n{}])\n\nblock = client.blocks.create(label=\"operator_rules\", value=RULES, read_only=True)\nclient.agents.blocks.attach(agent_id=AGENT_ID, block_id=block.id)\n",
                    literals(rules, "    ")
                ),
            }],
            sources: vec![
                "letta-ai/letta letta/schemas/block.py (value, limit, read_only)",
                "letta-ai/letta letta/schemas/memory.py (blocks rendered into the system message)",
                "letta-ai/letta letta/server/rest_api/routers/v1/agents.py (attach a core memory block)",
            ],
            caveats: vec![
                "A block holds at most its limit in characters.".to_string(),
            ],
        },
        (RemedyHarness::Deepagents, _) => Block {
            remedy,
            title: "the rules in the system prompt, or in AGENTS.md as memory".to_string(),
            intro: "deepagents summarises the message history (by default at 85% of the model's input limit, keeping the newest 10%); the system_prompt, and the AGENTS.md files passed as memory, are added to every call outside that history. Put the rules there:".to_string(),
            pastes: vec![Paste {
                file: "where you create the agent".to_string(),
                language: "python",
                text: format!(
                    "from deepagents import create_deep_agent\n\nRULES = \"\\n\".join([\n{}])\n\nagent = create_deep_agent(\n    model=MODEL,\n    tools=TOOLS,\n    system_prompt=YOUR_PROMPT + \"\\n\\n\" + RULES,\n    memory=[\"./AGENTS.md\"],  # or keep the rules in AGENTS.md\n)\n",
                    literals(rules, "    ")
                ),
            }],
            sources: vec![
                "langchain-ai/deepagents libs/deepagents/deepagents/graph.py (create_deep_agent: system_prompt, memory, middleware)",
                "langchain-ai/deepagents libs/deepagents/deepagents/middleware/memory.py (AGENTS.md into the system prompt)",
                "langchain-ai/deepagents libs/deepagents/deepagents/middleware/summarization.py (trigger and keep)",
            ],
            caveats: vec![
                "A SummarizationMiddleware of your own with a larger keep (passed in middleware=[…], trigger and keep as (\"fraction\", f), (\"tokens\", n) or (\"messages\", n)) keeps more recent messages verbatim and compacts more often; it keeps a rule only while the rule is among the newest messages.".to_string(),
            ],
        },
        (_, Remedy::CompactingPlugin) => Block {
            remedy,
            title: "a plugin that adds the rules to the compaction prompt".to_string(),
            intro: "opencode calls the experimental.session.compacting hook of its plugins before it compacts a session; what a plugin pushes into output.context is added to the compaction prompt. Save this as .opencode/plugins/keep-rules.ts (or under ~/.config/opencode/plugins/ for every project):".to_string(),
            pastes: vec![Paste {
                file: ".opencode/plugins/keep-rules.ts".to_string(),
                language: "typescript",
                text: format!(
                    "import type {{ Plugin }} from \"@opencode-ai/plugin\"\n\nconst RULES = [\n{}]\n\nexport const KeepRules: Plugin = async () => ({{\n  \"experimental.session.compacting\": async (_input, output) => {{\n    output.context.push(\n      \"Operator rules: copy each into the summary word for word.\\n\" + RULES.map((r) => \"- \" + r).join(\"\\n\"),\n    )\n  }},\n}})\n",
                    literals(rules, "  ")
                ),
            }],
            sources: vec![
                "sst/opencode packages/plugin/src/index.ts (experimental.session.compacting: output.context, output.prompt)",
                "sst/opencode packages/opencode/src/session/compaction.ts",
                "opencode.ai/docs/plugins",
            ],
            caveats: vec![
                "The hook is marked experimental: its name may change.".to_string(),
                "It puts the rules into the summary's prompt; the summary is still written by a model. AGENTS.md below keeps them by construction.".to_string(),
            ],
        },
        (RemedyHarness::Opencode, _) => Block {
            remedy,
            title: "the rules in AGENTS.md".to_string(),
            intro: "opencode sends the AGENTS.md files (global, then from the workspace up to the project root) as instructions with every request, apart from the history it compacts. Add this section to the project's AGENTS.md:".to_string(),
            pastes: vec![Paste {
                file: "AGENTS.md".to_string(),
                language: "markdown",
                text: format!("{SECTION}{}", bullets(rules)),
            }],
            sources: vec!["opencode.ai/docs/instructions (AGENTS.md)"],
            caveats: vec![],
        },
        // Every harness's remedies are matched above; this is the same
        // section for any other pairing.
        (_, Remedy::Instructions) => Block {
            remedy,
            title: "the rules in the instructions file".to_string(),
            intro: "Add this section to the instructions the harness sends with every request:"
                .to_string(),
            pastes: vec![Paste {
                file: "AGENTS.md".to_string(),
                language: "markdown",
                text: format!("{SECTION}{}", bullets(rules)),
            }],
            sources: vec![],
            caveats: vec![],
        },
    }
}

/// What the harness has no mechanism for, when that matters.
fn no_mechanism(h: RemedyHarness) -> Option<&'static str> {
    match h {
        RemedyHarness::ClaudeCode => Some(
            "No setting replaces Claude Code's compaction prompt: /compact with focus instructions, or a \"Compact Instructions\" section in CLAUDE.md, steers a summary that can still lose a rule (code.claude.com/docs/en/how-claude-code-works).",
        ),
        RemedyHarness::CodexCli => Some(
            "With the OpenAI provider nothing steers what Codex's remote compaction keeps: rely on AGENTS.md or developer_instructions, which are part of the initial context.",
        ),
        RemedyHarness::OpenaiCompact => Some(
            "Nothing steers the compaction item: it is encrypted and takes no prompt. Only what stays outside it (instructions, and the user messages it keeps) is sure to survive.",
        ),
        RemedyHarness::OpenhandsSummarizing | RemedyHarness::OpenhandsMasking => {
            Some("No setting replaces the condenser's summarisation prompt.")
        }
        RemedyHarness::LettaSliding | RemedyHarness::Deepagents | RemedyHarness::Opencode => None,
    }
}

/// Per action, what the remedy changed in the simulation.
fn model_lines(m: &Modelled) -> (Vec<String>, Vec<String>) {
    let s = &m.remedied.with;
    let mut changed = Vec::new();
    let mut still = Vec::new();
    for (i, ((a, before), after)) in s
        .actions
        .iter()
        .zip(m.without.actions())
        .zip(m.with.actions())
        .enumerate()
    {
        if before.outcome != after.outcome {
            changed.push(format!(
                "{} (turn {}): {} → {}",
                a.id,
                a.turn,
                before.outcome.label(),
                after.outcome.label()
            ));
        }
        if failing(after.outcome) {
            let why = explain(s, &m.with, i)
                .map(|e| e.to_string())
                .unwrap_or_default();
            still.push(format!(
                "{} (turn {}, {}): {why}",
                a.id,
                a.turn,
                after.outcome.label()
            ));
        }
    }
    let unreached: Vec<&str> = s
        .actions
        .iter()
        .zip(m.with.actions())
        .filter(|(_, g)| g.outcome == Outcome::NotReached)
        .map(|(a, _)| a.id.as_str())
        .collect();
    if let (Some(turn), false) = (m.with.overflow_turn(), unreached.is_empty()) {
        still.push(format!(
            "{} not reached: the window overflows at turn {turn} ({})",
            plural(unreached.len(), "action", "actions"),
            unreached.join(", ")
        ));
    }
    (changed, still)
}

fn failing_count(run: &Run) -> usize {
    run.actions()
        .iter()
        .filter(|a| failing(a.outcome) || a.outcome == Outcome::NotReached)
        .count()
}

/// Runs `drift remedy`: the text or JSON to print, or a message for exit 2.
pub fn command(request: &Request) -> Result<String, String> {
    let source = read(&request.input)?;
    let h = harness(request, &source)?;
    let machine = machine();
    let input = request.input.as_str();
    let (rules, modelled, what) = match &source {
        Source::Scenario(s) => {
            let modelled = model(s, h, input)?;
            let rules = modelled.first().map(scenario_rules).unwrap_or_default();
            let what = format!("scenario \"{}\"", s.id);
            (rules, modelled, what)
        }
        Source::Log { transcript, audit } => {
            let what = format!(
                "{} ({}, {})",
                input,
                transcript.format.label(),
                plural(audit.compactions.len(), "compaction", "compactions")
            );
            (log_rules(transcript, audit), Vec::new(), what)
        }
    };
    let blocks: Vec<Block> = if rules.is_empty() {
        Vec::new()
    } else {
        h.remedies()
            .iter()
            .map(|&r| block(h, r, &rules, &machine))
            .collect()
    };
    if request.json {
        return Ok(json(request, &source, h, &rules, &blocks, &modelled));
    }
    let mut out = String::new();
    let _ = writeln!(out, "drift remedy: {what} under {} ({})", h.name(), h.id());
    let is_log = matches!(source, Source::Log { .. });
    if rules.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            if is_log {
                match &source {
                    Source::Log { audit, .. } if audit.compactions.is_empty() => {
                        "The log records no compaction: nothing to carry.".to_string()
                    }
                    _ => "Its compactions lost no rule the harness does not put back itself: nothing to carry."
                        .to_string(),
                }
            } else {
                format!(
                    "No action fails under {} for want of a standing rule, carve-out, correction, scope or binding: nothing to carry.",
                    h.id()
                )
            }
        );
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "\n{} to carry, {}:",
        plural(rules.len(), "rule", "rules"),
        if is_log {
            "each lost by a compaction (or behind an encrypted one) and not put back by the harness"
                .to_string()
        } else {
            format!(
                "each governing an action that fails under {} and no longer verbatim there",
                h.id()
            )
        }
    );
    for r in &rules {
        let name =
            r.id.as_deref()
                .map_or(String::new(), |id| format!("{id}  "));
        let _ = writeln!(out, "  {name}{} ({})", r.kind, r.origin);
        let _ = writeln!(out, "      {}", quote(&r.text, 110));
        let _ = writeln!(out, "      {}", r.why);
    }
    for (n, b) in blocks.iter().enumerate() {
        let _ = writeln!(out, "\n{}. {}: {}\n", n + 1, h.name(), b.title);
        let _ = writeln!(out, "{}", indent(&b.intro, "   "));
        for p in &b.pastes {
            let _ = writeln!(out, "\n   {}:", p.file);
            for line in p.text.lines() {
                if line.is_empty() {
                    out.push('\n');
                } else {
                    let _ = writeln!(out, "       {line}");
                }
            }
        }
        for c in &b.caveats {
            let _ = writeln!(out, "\n{}", indent(c, "   "));
        }
        if !b.sources.is_empty() {
            let _ = writeln!(out, "\n   Sources:");
            for s in &b.sources {
                let _ = writeln!(out, "     {s}");
            }
        }
        if let Some(m) = modelled.iter().find(|m| m.remedied.remedy == b.remedy) {
            let (changed, still) = model_lines(m);
            let _ = writeln!(
                out,
                "\n   In the simulation, actions failing: {} of {} without it, {} with it.",
                failing_count(&m.without),
                plural(m.without.actions().len(), "action", "actions"),
                failing_count(&m.with)
            );
            for c in &changed {
                let _ = writeln!(out, "     {c}");
            }
            for s in &still {
                let _ = writeln!(out, "     still failing: {s}");
            }
            for line in &m.remedied.modelled {
                let _ = writeln!(out, "{}", indent(&format!("Modelled: {line}"), "   "));
            }
            for line in &m.remedied.not_modelled {
                let _ = writeln!(out, "{}", indent(&format!("Not modelled: {line}"), "   "));
            }
        }
    }
    if let Some(none) = no_mechanism(h) {
        let _ = writeln!(out, "\n{}", indent(none, ""));
    }
    if is_log {
        let _ = writeln!(
            out,
            "\nTo see a remedy modelled on this session: drift import {input} -o session.json, then drift remedy session.json --harness {}.",
            h.id()
        );
    }
    Ok(out)
}

/// `text` with every line after the first break indented by `prefix`; long
/// lines wrapped at 78 columns.
fn indent(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    for (i, para) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if para.starts_with("    ") {
            let _ = write!(out, "{prefix}{para}");
            continue;
        }
        let mut line = String::new();
        for word in para.split(' ') {
            if !line.is_empty() && line.chars().count() + word.chars().count() + 1 > 78 {
                let _ = writeln!(out, "{prefix}{line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            let _ = write!(out, "{prefix}{line}");
        }
    }
    out
}

fn json(
    request: &Request,
    source: &Source,
    h: RemedyHarness,
    rules: &[Carried],
    blocks: &[Block],
    modelled: &[Modelled],
) -> String {
    let rules: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id, "kind": r.kind, "text": r.text, "from": r.origin, "why": r.why,
            })
        })
        .collect();
    let remedies: Vec<serde_json::Value> = blocks
        .iter()
        .map(|b| {
            let model = modelled
                .iter()
                .find(|m| m.remedied.remedy == b.remedy)
                .map(|m| {
                    let actions: Vec<serde_json::Value> = m
                        .remedied
                        .with
                        .actions
                        .iter()
                        .zip(m.without.actions())
                        .zip(m.with.actions())
                        .map(|((a, x), y)| {
                            serde_json::json!({
                                "id": a.id, "turn": a.turn,
                                "without": x.outcome.id(), "with": y.outcome.id(),
                            })
                        })
                        .collect();
                    serde_json::json!({
                        "policy_without": m.remedied.without.policy.id(),
                        "policy_with": m.remedied.with.policy.id(),
                        "failing_without": failing_count(&m.without),
                        "failing_with": failing_count(&m.with),
                        "actions": actions,
                        "modelled": m.remedied.modelled,
                        "not_modelled": m.remedied.not_modelled,
                    })
                });
            let pastes: Vec<serde_json::Value> = b
                .pastes
                .iter()
                .map(
                    |p| serde_json::json!({"file": p.file, "language": p.language, "text": p.text}),
                )
                .collect();
            serde_json::json!({
                "id": b.remedy.id(),
                "title": b.title,
                "intro": b.intro,
                "paste": pastes,
                "caveats": b.caveats,
                "sources": b.sources,
                "model": model,
            })
        })
        .collect();
    let kind = match source {
        Source::Scenario(_) => "scenario",
        Source::Log { .. } => "log",
    };
    let doc = serde_json::json!({
        "format": REMEDY_FORMAT,
        "source": {"input": request.input, "kind": kind},
        "harness": {"id": h.id(), "name": h.name()},
        "rules": rules,
        "remedies": remedies,
        "no_mechanism": no_mechanism(h),
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}
