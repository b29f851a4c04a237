//! Remedies written out: for each harness's [`Remedy`], the text an
//! operator pastes (a hook's registration, a CLAUDE.md or AGENTS.md section,
//! a compaction prompt and its config key, a condenser's `keep_first`, a
//! memory block, a plugin), where it goes, and the public source of every
//! setting it uses. `drift remedy` prints them; the page's "Fix it" offers
//! them to copy and download.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::grade::Outcome;
use crate::remedy::{CompactHook, Remedied, Remedy, RemedyHarness};
use crate::run::Run;

/// A rule to carry, as the remedies write it.
#[derive(Clone, Debug, PartialEq)]
pub struct RemedyRule {
    /// Verbatim.
    pub text: String,
    /// "standing rule", "binding", "id"…
    pub kind: &'static str,
    /// Who stated it and where: "tool, turn 4" or "the user, line 15, …".
    pub origin: String,
    /// Why it matters: the actions it governs, or what a compaction did.
    pub why: String,
    /// The scenario fact's id.
    pub id: Option<String>,
    /// Its turn (scenario) or its message's position (log), for
    /// `keep_first`.
    pub position: u64,
}

/// A remedy, written out.
#[derive(Clone, Debug, PartialEq)]
pub struct RemedyText {
    /// The remedy.
    pub remedy: Remedy,
    /// What it is, after the harness's name.
    pub title: String,
    /// What the mechanism does, in a few sentences.
    pub intro: String,
    /// Text to paste, each where it goes.
    pub pastes: Vec<RemedyPaste>,
    /// Where the setting is documented.
    pub sources: Vec<&'static str>,
    /// What to know before relying on it.
    pub caveats: Vec<String>,
}

/// Text to paste, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct RemedyPaste {
    /// Where it goes.
    pub file: String,
    /// Its language, for the JSON reader.
    pub language: &'static str,
    /// The text.
    pub text: String,
}

/// What a remedy's text names that depends on the machine it is for.
#[derive(Clone, Debug, PartialEq)]
pub struct RemedyPaths {
    /// The command that runs `drift` (its absolute path, quoted for a
    /// shell when it needs to be), as a hook's registration names it.
    pub drift: String,
    /// The home directory, for Codex's prompt file (its key takes an
    /// absolute path).
    pub home: String,
}

fn failing(o: Outcome) -> bool {
    matches!(o, Outcome::Ungoverned | Outcome::Misbound)
}

/// The facts `remedied` carries ([`Remedied::rules`]), each with the
/// actions it governs that fail in `without` (the run of
/// [`Remedied::without`]).
pub fn remedy_rules(remedied: &Remedied, without: &Run) -> Vec<RemedyRule> {
    let s = &remedied.without;
    remedied
        .rules
        .iter()
        .filter_map(|&i| {
            let f = s.facts.get(i)?;
            let governs: Vec<String> = s
                .actions
                .iter()
                .zip(without.actions())
                .filter(|(a, g)| {
                    failing(g.outcome)
                        && (a.governed_by.contains(&f.id) || a.target.as_ref() == Some(&f.id))
                })
                .map(|(a, g)| format!("{} (turn {}, {})", a.id, a.turn, g.outcome.label()))
                .collect();
            Some(RemedyRule {
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

/// The rules as a Markdown list.
fn bullets(rules: &[RemedyRule]) -> String {
    let mut out = String::new();
    for r in rules {
        let text = r.text.trim().replace('\n', "\n  ");
        let _ = writeln!(out, "- {text}");
    }
    out
}

/// The rules as a list of JSON string literals, one a line, indented: valid
/// in Python and TypeScript.
fn literals(rules: &[RemedyRule], indent: &str) -> String {
    let mut out = String::new();
    for r in rules {
        let _ = writeln!(out, "{indent}{},", serde_json::Value::from(r.text.trim()));
    }
    out
}

impl CompactHook {
    /// The file that registers the hook in a project, from its root
    /// (`.codex/hooks.json`).
    pub fn project_file(&self) -> String {
        format!("{}/{}", self.dir, self.file)
    }

    /// The user's file, as a person reads it: `~/.codex/hooks.json, or
    /// $CODEX_HOME/hooks.json`.
    pub fn user_file(&self) -> String {
        match self.home_variable {
            Some(var) => format!("~/{}, or ${var}/{}", self.project_file(), self.file),
            None => format!("~/{}", self.project_file()),
        }
    }

    /// The command a harness runs: `DRIFT hook NAME`.
    pub fn command_line(&self, drift: &str) -> String {
        format!("{drift} hook {}", self.command)
    }

    /// A settings file that holds this hook's registration and nothing
    /// else, pretty-printed, keys in this order, as `drift hook NAME
    /// --install` writes a new one:
    /// `{"hooks": {EVENT: [{"matcher": MATCHER, "hooks": [{"type":
    /// "command", "command": …, "timeout": …}]}]}}`, the shape Claude Code's
    /// settings.json and Codex's hooks.json share.
    pub fn registration(&self, drift: &str) -> String {
        let quoted = |s: &str| serde_json::Value::from(s).to_string();
        format!(
            "{{\n  \"hooks\": {{\n    {}: [\n      {{\n        \"matcher\": {},\n        \"hooks\": [\n          {{\n            \"type\": \"command\",\n            \"command\": {},\n            \"timeout\": {}\n          }}\n        ]\n      }}\n    ]\n  }}\n}}\n",
            quoted(self.event),
            quoted(self.matcher),
            quoted(&self.command_line(drift)),
            self.timeout_seconds
        )
    }
}

const SECTION: &str = "## Rules that hold for the whole session\n\nThese stand until the operator changes them, whatever a summary of earlier work says.\n\n";

/// The section of `rules` to paste into the instruction file `file`.
fn section(file: &str, rules: &[RemedyRule]) -> RemedyPaste {
    RemedyPaste {
        file: file.to_string(),
        language: "markdown",
        text: format!("{SECTION}{}", bullets(rules)),
    }
}

/// The section for the instructions the harness sends with every request,
/// for a pairing no harness's own words cover.
fn any_instructions(remedy: Remedy, rules: &[RemedyRule]) -> RemedyText {
    RemedyText {
        remedy,
        title: "the rules in the instructions file".to_string(),
        intro: "Add this section to the instructions the harness sends with every request:"
            .to_string(),
        pastes: vec![section("AGENTS.md", rules)],
        sources: vec![],
        caveats: vec![],
    }
}

/// [`Remedy::RestateHook`] for a harness with a [`CompactHook`].
fn restate_hook(
    h: RemedyHarness,
    hook: CompactHook,
    remedy: Remedy,
    paths: &RemedyPaths,
) -> RemedyText {
    let install = format!(
        "    drift hook {c} --install --project          (shows the change)\n    drift hook {c} --install --project --write  (makes it)",
        c = hook.command
    );
    let user_file = hook.user_file();
    let budget = "Its budget is 1,500 tokens (--max-tokens N in the command): the riskiest losses come first, and a last line counts what was left out.".to_string();
    let reads = "It restates what the audit reads as a rule in the log's words, never a tool's output as a rule; `drift audit` on a session shows what it finds.".to_string();
    let (intro, sources, mut caveats) = if h == RemedyHarness::CodexCli {
        (
            format!(
                "Codex runs the SessionStart hooks whose matcher is \"compact\" after every compaction and adds what a hook returns as hookSpecificOutput.additionalContext to the context, as a developer message before the next request. `drift hook codex` reads the session's rollout file, audits that compaction and returns every rule of yours, a brief's or an instruction file's that its summary lost, word for word, with who stated it, where and when. Codex's remote compaction encrypts its summary: then it returns every such rule the compaction may have lost, those Codex neither kept verbatim nor puts back (as it does AGENTS.md). Register it with\n\n{install}\n\n(--user for {user_file}), then trust it in Codex with /hooks, which skips a hook nobody has reviewed; or add the entry yourself:"
            ),
            vec![
                "openai/codex codex-rs/hooks/src/events/session_start.rs (the input's source \"compact\"; hookSpecificOutput.additionalContext, added as a developer message)",
                "openai/codex codex-rs/hooks/src/engine/discovery.rs (hooks.json beside config.toml, in ~/.codex and the project's .codex; hooks run once trusted)",
                "openai/codex codex-rs/hooks/src/output_spill.rs (HOOK_OUTPUT_TOKEN_LIMIT: output past about 2,500 tokens reaches the model as a preview)",
                "github.com/openai/codex/pull/21272 (SessionStart source \"compact\", May 2026)",
            ],
            vec![
                "Codex releases before pull 21272 (May 2026) never run it after a compaction; on a release that gates hooks behind a feature, set [features] hooks = true (codex_hooks before) in config.toml.".to_string(),
            ],
        )
    } else {
        (
            format!(
                "Claude Code runs the SessionStart hooks whose matcher is \"compact\" right after every compaction and adds what a hook returns as hookSpecificOutput.additionalContext to the context. `drift hook {c}` reads the session log, audits that compaction and returns every rule, carve-out, correction, scope and re-attributed id the summary lost, word for word, with who stated it, where and when; nothing when nothing was lost. Register it with\n\n{install}\n\n(--user for {user_file}), or add the entry yourself:",
                c = hook.command
            ),
            vec![
                "code.claude.com/docs/en/hooks (SessionStart: the \"compact\" matcher, the input's source, hookSpecificOutput.additionalContext, at most 10,000 characters)",
                "code.claude.com/docs/en/hooks-guide (re-inject context after compaction)",
            ],
            Vec::new(),
        )
    };
    caveats.insert(0, budget);
    caveats.push(reads);
    RemedyText {
        remedy,
        title: "a SessionStart hook that restates what each compaction lost".to_string(),
        intro,
        pastes: vec![RemedyPaste {
            file: hook.project_file(),
            language: "json",
            text: hook.registration(&paths.drift),
        }],
        sources,
        caveats,
    }
}

/// The hooks of `h` that run at a compaction but whose output never
/// reaches the model: no one should rely on them to keep a rule.
pub const fn unheard_hooks(h: RemedyHarness) -> Option<&'static str> {
    match h {
        RemedyHarness::ClaudeCode => Some(
            "PreCompact and PostCompact hooks cannot carry a rule: their output never reaches the model (only SessionStart's and UserPromptSubmit's does), and an interactive /compact does not run PostCompact (anthropics/claude-code issues 41224, 78760).",
        ),
        RemedyHarness::CodexCli => Some(
            "PreCompact and PostCompact hooks cannot carry a rule: Codex reads only continue, stopReason, suppressOutput and systemMessage from them, and none reaches the model (openai/codex codex-rs/hooks/src/events/compact.rs).",
        ),
        RemedyHarness::GeminiCli => Some(
            "The PreCompress hook cannot carry a rule: it is advisory, its systemMessage goes to the user, and SessionStart has no compaction source (google-gemini/gemini-cli docs/hooks/reference.md).",
        ),
        RemedyHarness::Cline => Some(
            "Cline's PreCompact hook is declared but not wired into its compaction (cline/cline apps/vscode/src/sdk/hooks-adapter.ts): nothing it returns reaches the model.",
        ),
        RemedyHarness::Opencode => Some(
            "The experimental.session.compacting plugin hook reaches the summariser's prompt, not the model that carries on: what it adds survives only if the summary keeps it.",
        ),
        _ => None,
    }
}

/// `remedy` of `h` written out for `rules`: what it does, the text to paste
/// and where, the public sources of the settings it uses, and what to know
/// before relying on it.
pub fn remedy_text(
    h: RemedyHarness,
    remedy: Remedy,
    rules: &[RemedyRule],
    paths: &RemedyPaths,
) -> RemedyText {
    let head = rules.iter().map(|r| r.position).max().unwrap_or(1).max(1);
    match (h, remedy) {
        (_, Remedy::RestateHook) => {
            let Some(hook) = h.hook() else {
                return any_instructions(remedy, rules);
            };
            restate_hook(h, hook, remedy, paths)
        }
        (_, Remedy::ClaudeMd) => RemedyText {
            remedy,
            title: "the rules in the project-root CLAUDE.md".to_string(),
            intro: "Claude Code re-reads the project-root CLAUDE.md from disk after every compaction and puts it back into the context; a rule stated only in the conversation is at the summary's mercy. Add this section to ./CLAUDE.md (or to an unscoped file in .claude/rules/):".to_string(),
            pastes: vec![section("CLAUDE.md", rules)],
            sources: vec![
                "code.claude.com/docs/en/memory (instructions lost after /compact: project-root CLAUDE.md is re-read from disk)",
                "code.claude.com/docs/en/context-window (what survives compaction)",
            ],
            caveats: vec![
                "A nested CLAUDE.md, or a .claude/rules file with paths: in its front matter, is not re-read until a matching file is read again.".to_string(),
                "The file is in every request: keep the section to the rules that must hold.".to_string(),
            ],
        },
        (RemedyHarness::CodexCli, Remedy::CompactPrompt) => {
            let file = format!("{}/.codex/compact-prompt.md", paths.home.trim_end_matches('/'));
            RemedyText {
                remedy,
                title: "a compaction prompt that carries the rules word for word".to_string(),
                intro: "Codex's local compaction asks the model for a handoff summary with a prompt that compact_prompt (inline) or experimental_compact_prompt_file (a file) in ~/.codex/config.toml replaces. This prompt asks for the summary and for the rules copied word for word. It replaces the whole default prompt. Codex reads these keys only when it compacts locally: with the OpenAI provider, its default, it compacts remotely on OpenAI's servers and ignores both (openai/codex issue 34428); there, use the hook or AGENTS.md, which put the rules back word for word.".to_string(),
                pastes: vec![
                    RemedyPaste {
                        file: file.clone(),
                        language: "markdown",
                        text: format!(
                            "Write a handoff summary of this conversation for the model that continues the work: the task and its goal, what is done, what is in progress and what comes next, the files, commands and identifiers that matter, and the open questions.\n\nThen copy each operator rule below into the summary word for word, under the heading \"Operator rules\", even where the conversation seems to have moved past it. Keep every one; do not shorten, merge, soften or reword them.\n\nOperator rules:\n{}",
                            bullets(rules)
                        ),
                    },
                    RemedyPaste {
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
        (_, Remedy::CompactPrompt) => RemedyText {
            remedy,
            title: "a condensing prompt that carries the rules word for word".to_string(),
            intro: "Roo Code writes its summary with the condensing prompt, which Settings → Prompts → Context Condensing replaces (customSupportPrompts.CONDENSE in the settings file). Append this to it; the rest of the prompt stays as it is. A rules file below keeps them by construction: prefer it.".to_string(),
            pastes: vec![RemedyPaste {
                file: "Roo Code: Settings → Prompts → Context Condensing".to_string(),
                language: "markdown",
                text: format!(
                    "Then copy each operator rule below into the summary word for word, under the heading \"Operator rules\", even where the conversation seems to have moved past it. Keep every one; do not shorten, merge, soften or reword them.\n\nOperator rules:\n{}",
                    bullets(rules)
                ),
            }],
            sources: vec![
                "RooCodeInc/Roo-Code packages/types/src/global-settings.ts (customSupportPrompts, autoCondenseContext, autoCondenseContextPercent)",
                "RooCodeInc/Roo-Code src/core/condense/index.ts (the condensing prompt)",
            ],
            caveats: vec![
                "A summary is still written by a model: measured elsewhere, a prompt aimed at side constraints kept under 40% of them (arXiv 2608.11242).".to_string(),
            ],
        },
        (RemedyHarness::GeminiCli, Remedy::Instructions) => RemedyText {
            remedy,
            title: "the rules in GEMINI.md".to_string(),
            intro: "Gemini CLI loads GEMINI.md (~/.gemini/GEMINI.md into the system instruction; the project's, from the working directory up, into the session context) and puts it back after every compression, outside the history it summarises. Add this section to the project's GEMINI.md (run /memory refresh in a session that is already open):".to_string(),
            pastes: vec![section("GEMINI.md", rules)],
            sources: vec![
                "google-gemini/gemini-cli packages/core/src/utils/environmentContext.ts (memory in the session context)",
                "google-gemini/gemini-cli packages/core/src/core/client.ts (the context rebuilt after compression)",
                "google-gemini/gemini-cli docs/cli/gemini-md.md (where GEMINI.md files are found; /memory refresh)",
            ],
            caveats: vec![],
        },
        (RemedyHarness::RooCode, Remedy::Instructions) => RemedyText {
            remedy,
            title: "the rules in .roo/rules".to_string(),
            intro: "Roo Code reads the files in .roo/rules/ (and AGENTS.md) into the system prompt of every request; condensing summarises the conversation, never the system prompt. Save this as .roo/rules/compaction-drift.md:".to_string(),
            pastes: vec![section(".roo/rules/compaction-drift.md", rules)],
            sources: vec![
                "RooCodeInc/Roo-Code src/core/prompts/sections/custom-instructions.ts (.roo/rules and AGENTS.md in the system prompt)",
            ],
            caveats: vec![],
        },
        (RemedyHarness::Cline, Remedy::Instructions) => RemedyText {
            remedy,
            title: "the rules in .clinerules".to_string(),
            intro: "Cline composes the files in .clinerules/ into the system prompt, which its compaction leaves alone. Save this as .clinerules/compaction-drift.md:".to_string(),
            pastes: vec![section(".clinerules/compaction-drift.md", rules)],
            sources: vec![
                "cline/cline docs (Cline Rules: .clinerules/ in the system prompt)",
                "cline/cline sdk/packages/core/src/extensions/context/compaction-shared.ts (what compaction summarises)",
            ],
            caveats: vec![],
        },
        (RemedyHarness::CodexCli, Remedy::Instructions) => RemedyText {
            remedy,
            title: "the rules in AGENTS.md".to_string(),
            intro: "Codex loads AGENTS.md (from ~/.codex and from the project root down to the working directory) into the session's initial context and puts that context back after compaction. Add this section to the project's AGENTS.md (or the same text as developer_instructions in ~/.codex/config.toml):".to_string(),
            pastes: vec![section("AGENTS.md", rules)],
            sources: vec![
                "openai/codex codex-rs/core/src/agents_md.rs (where AGENTS.md is found)",
                "openai/codex codex-rs/core/src/compact.rs (the initial context is injected again after compaction)",
                "openai/codex codex-rs/config/src/config_toml.rs (developer_instructions)",
            ],
            caveats: vec![
                "Codex reads AGENTS.md when a session starts: the section holds from the next session on.".to_string(),
            ],
        },
        (RemedyHarness::OpenaiCompact, _) => RemedyText {
            remedy,
            title: "the rules in instructions, sent with every request".to_string(),
            intro: "A Responses compaction keeps the user messages and folds everything else into one encrypted item; the instructions of a request are not part of what it compacts. They are not carried over by previous_response_id either, so send them with every request:".to_string(),
            pastes: vec![RemedyPaste {
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
            RemedyText {
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
                    RemedyPaste {
                        file: "config.toml".to_string(),
                        language: "toml",
                        text: format!(
                            "[condenser]\ntype = \"llm\"\nllm_config = \"condenser\"\nkeep_first = {head}\nmax_size = {max_size}\n"
                        ),
                    },
                    RemedyPaste {
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
        (RemedyHarness::OpenhandsSummarizing | RemedyHarness::OpenhandsMasking, _) => RemedyText {
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
            pastes: vec![RemedyPaste {
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
        (_, Remedy::MemoryBlock) => RemedyText {
            remedy,
            title: "the rules in a read-only core memory block".to_string(),
            intro: "Letta renders every core memory block attached to an agent into its system message, which compaction keeps; a block the agent may not edit stays as written. Create one and attach it:".to_string(),
            pastes: vec![RemedyPaste {
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
        (RemedyHarness::Deepagents, _) => RemedyText {
            remedy,
            title: "the rules in the system prompt, or in AGENTS.md as memory".to_string(),
            intro: "deepagents summarises the message history (by default at 85% of the model's input limit, keeping the newest 10%); the system_prompt, and the AGENTS.md files passed as memory, are added to every call outside that history. Put the rules there:".to_string(),
            pastes: vec![RemedyPaste {
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
        (_, Remedy::CompactingPlugin) => RemedyText {
            remedy,
            title: "a plugin that adds the rules to the compaction prompt".to_string(),
            intro: "opencode calls the experimental.session.compacting hook of its plugins before it compacts a session; what a plugin pushes into output.context is added to the compaction prompt. Save this as .opencode/plugins/keep-rules.ts (or under ~/.config/opencode/plugins/ for every project):".to_string(),
            pastes: vec![RemedyPaste {
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
                "It puts the rules into the summary's prompt; the summary is still written by a model. AGENTS.md keeps them by construction.".to_string(),
            ],
        },
        (RemedyHarness::Opencode, _) => RemedyText {
            remedy,
            title: "the rules in AGENTS.md".to_string(),
            intro: "opencode sends the AGENTS.md files (global, then from the workspace up to the project root) as instructions with every request, apart from the history it compacts. Add this section to the project's AGENTS.md:".to_string(),
            pastes: vec![section("AGENTS.md", rules)],
            sources: vec!["opencode.ai/docs/instructions (AGENTS.md)"],
            caveats: vec![],
        },
        // Every harness's remedies are matched above; this is the same
        // section for any other pairing.
        (_, Remedy::Instructions) => any_instructions(remedy, rules),
    }
}

impl RemedyHarness {
    /// What the harness has no mechanism for, when that matters.
    pub const fn no_mechanism(self) -> Option<&'static str> {
        match self {
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
            RemedyHarness::GeminiCli => Some(
                "No setting replaces Gemini CLI's compression prompt, and no hook runs after a compression: GEMINI.md is the way to keep a rule.",
            ),
            RemedyHarness::Cline => Some(
                "No setting replaces Cline's summary prompt, whose template has no place for constraints: a rules file is the way to keep one.",
            ),
            RemedyHarness::LettaSliding
            | RemedyHarness::Deepagents
            | RemedyHarness::Opencode
            | RemedyHarness::RooCode => None,
        }
    }
}

impl RemedyText {
    /// The remedy as a Markdown document for `h`: its title, what it does,
    /// each text to paste in a fenced block under where it goes, what to
    /// know, and the sources.
    pub fn markdown(&self, h: RemedyHarness) -> String {
        let mut out = String::new();
        let _ = write!(out, "# {}: {}\n\n{}\n", h.name(), self.title, self.intro);
        for p in &self.pastes {
            let fence = if p.text.contains("```") {
                "````"
            } else {
                "```"
            };
            let _ = write!(
                out,
                "\n{}:\n\n{fence}{}\n{}\n{fence}\n",
                p.file,
                p.language,
                p.text.trim_end()
            );
        }
        for c in &self.caveats {
            let _ = write!(out, "\n{c}\n");
        }
        if let Some(unheard) = unheard_hooks(h) {
            let _ = write!(out, "\n{unheard}\n");
        }
        if !self.sources.is_empty() {
            out.push_str("\nSources:\n\n");
            for s in &self.sources {
                let _ = writeln!(out, "- {s}");
            }
        }
        out
    }
}
