//! Compaction policies as data (docs/MODEL.md §4 and §9).
//!
//! A [`Policy`] is a handful of switches. The presets are values of it in one
//! table, [`Preset::ALL`]; no part of the engine branches on a preset's name.

use crate::harness::HarnessOverrides;
use crate::vocab::{Role, RoleSet};

/// The switches that decide what a compaction round keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Whether the harness compacts at all; without it the session overflows.
    pub compacts: bool,
    /// Roles whose facts a round never touches.
    pub protected_roles: RoleSet,
    /// Whether what leaves the tail is summarised (`true`) or dropped.
    pub summarises: bool,
    /// Whether externalised facts are re-read verbatim after every round.
    pub rereads_external: bool,
    /// Turns `1..=keep_first_turns` stay verbatim (the *head*).
    pub keep_first_turns: u32,
    /// When set, the tail is the newest turns fitting in this percent of the
    /// window (1..=99) instead of the harness's `tail_turns`.
    pub tail_percent: Option<u32>,
    /// When set and `user` is protected, only the newest
    /// `user_budget_tokens / user_message_tokens` turns keep their user
    /// messages verbatim.
    pub user_budget_tokens: Option<u64>,
    /// Harness fields this policy overrides.
    pub harness: HarnessOverrides,
}

impl Policy {
    /// The v1 `pinned_prefix` policy, the base every preset starts from.
    pub const PINNED_PREFIX: Policy = Policy {
        compacts: true,
        protected_roles: RoleSet::SYSTEM,
        summarises: true,
        rereads_external: false,
        keep_first_turns: 0,
        tail_percent: None,
        user_budget_tokens: None,
        harness: HarnessOverrides::NONE,
    };

    /// Whether a `user` fact is protected only while it is among the newest
    /// user messages that fit the user budget.
    pub const fn has_user_budget(&self) -> bool {
        self.user_budget_tokens.is_some() && self.protected_roles.contains(Role::User)
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy::PINNED_PREFIX
    }
}

/// Which policy a scenario runs under: a named preset or a custom object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PolicyChoice {
    /// One of [`Preset::ALL`].
    Preset(Preset),
    /// A policy built from the switches (`custom` in results).
    Custom(Policy),
}

impl PolicyChoice {
    /// The switches this choice stands for.
    pub fn policy(&self) -> Policy {
        match self {
            PolicyChoice::Preset(p) => p.policy(),
            PolicyChoice::Custom(p) => *p,
        }
    }

    /// The id written in results: the preset id, or `custom`.
    pub fn id(&self) -> &'static str {
        match self {
            PolicyChoice::Preset(p) => p.id(),
            PolicyChoice::Custom(_) => "custom",
        }
    }
}

impl Default for PolicyChoice {
    fn default() -> Self {
        PolicyChoice::Preset(Preset::PinnedPrefix)
    }
}

/// A named policy. Its switches, wording and provenance live in one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Preset {
    None,
    SlidingWindow,
    RecursiveSummary,
    PinnedPrefix,
    UserVerbatim,
    ExternalisedState,
    CodexCli,
    ClaudeCode,
    OpenaiCompact,
    OpenhandsSummarizing,
    OpenhandsMasking,
    LettaSliding,
    Deepagents,
    ClaudeCode1m,
    GeminiCli,
    Opencode,
    RooCode,
    Cline,
    OpenhandsSdk,
}

/// Everything known about a preset: its switches and how to explain it.
#[derive(Clone, Copy, Debug)]
pub struct PresetInfo {
    /// The preset.
    pub preset: Preset,
    /// Identifier in scenario files, URLs and results.
    pub id: &'static str,
    /// A short display name.
    pub name: &'static str,
    /// One line: what the policy does.
    pub summary: &'static str,
    /// The switches.
    pub policy: Policy,
}

/// What a harness preset approximates, what it leaves out and where that
/// is published: apart from [`PresetInfo`], so that a page which only names
/// presets does not carry their prose ([`Preset::notes`]).
#[derive(Clone, Copy, Debug)]
pub struct PresetNotes {
    /// The behaviour approximated. Empty for the v1 reference policies.
    pub approximates: &'static str,
    /// What the model cannot see of that behaviour (reads after "not
    /// modelled:").
    pub limits: &'static str,
    /// The public sources of every number and switch the preset uses.
    /// Empty for v1 policies.
    pub source: &'static str,
}

/// The row of a v1 reference policy.
const fn reference(
    preset: Preset,
    id: &'static str,
    name: &'static str,
    summary: &'static str,
    policy: Policy,
) -> PresetInfo {
    PresetInfo {
        preset,
        id,
        name,
        summary,
        policy,
    }
}

const fn with_roles(roles: RoleSet) -> Policy {
    Policy {
        protected_roles: roles,
        ..Policy::PINNED_PREFIX
    }
}

const PRESETS: [PresetInfo; 19] = [
    reference(
        Preset::None,
        "none",
        "no compaction",
        "Never compacts: the session stops when the window is full.",
        Policy {
            compacts: false,
            protected_roles: RoleSet::EMPTY,
            summarises: false,
            ..Policy::PINNED_PREFIX
        },
    ),
    reference(
        Preset::SlidingWindow,
        "sliding_window",
        "sliding window",
        "Keeps the system prompt and the newest turns; everything older is dropped.",
        Policy {
            summarises: false,
            ..Policy::PINNED_PREFIX
        },
    ),
    reference(
        Preset::RecursiveSummary,
        "recursive_summary",
        "recursive summary",
        "Summarises everything outside the tail, the system prompt included, again each round.",
        with_roles(RoleSet::EMPTY),
    ),
    reference(
        Preset::PinnedPrefix,
        "pinned_prefix",
        "pinned prefix",
        "Keeps the system prompt verbatim and summarises the rest outside the tail.",
        Policy::PINNED_PREFIX,
    ),
    reference(
        Preset::UserVerbatim,
        "user_verbatim",
        "user verbatim",
        "Keeps the system prompt and every user message verbatim; summarises assistant and tool turns.",
        with_roles(RoleSet::SYSTEM_USER),
    ),
    reference(
        Preset::ExternalisedState,
        "externalised_state",
        "externalised state",
        "Pinned prefix, and facts kept in an external store are re-read verbatim after every round.",
        Policy {
            rereads_external: true,
            ..Policy::PINNED_PREFIX
        },
    ),
    PresetInfo {
        preset: Preset::CodexCli,
        id: "codex_cli",
        name: "Codex CLI",
        summary: "Keeps the newest user messages up to 20,000 tokens and folds everything else into a rolling summary at 90% of the window.",
        policy: Policy {
            protected_roles: RoleSet::SYSTEM_USER,
            user_budget_tokens: Some(20_000),
            harness: HarnessOverrides {
                trigger_percent: Some(90),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::ClaudeCode,
        id: "claude_code",
        name: "Claude Code",
        summary: "Summarises the conversation about 13k tokens before the window is full; CLAUDE.md and memory files are re-read afterwards.",
        policy: Policy {
            rereads_external: true,
            harness: HarnessOverrides {
                reserve_tokens: Some(13_000),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::OpenaiCompact,
        id: "openai_compact",
        name: "OpenAI compact",
        summary: "Keeps prior user messages verbatim and turns everything else into one opaque item.",
        policy: with_roles(RoleSet::SYSTEM_USER),
    },
    PresetInfo {
        preset: Preset::OpenhandsSummarizing,
        id: "openhands_summarizing",
        name: "OpenHands summarizing",
        summary: "Keeps the first turn, summarises the middle, keeps the newest turns.",
        policy: Policy {
            keep_first_turns: 1,
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::OpenhandsMasking,
        id: "openhands_masking",
        name: "OpenHands masking",
        summary: "Replaces old tool outputs with placeholders; system, user and assistant turns stay.",
        policy: Policy {
            protected_roles: RoleSet::SYSTEM_USER.with(Role::Assistant),
            summarises: false,
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::LettaSliding,
        id: "letta_sliding",
        name: "Letta sliding",
        summary: "Evicts about 30% of the oldest messages into a recursive summary at 90%; core memory blocks stay in context.",
        policy: Policy {
            rereads_external: true,
            tail_percent: Some(70),
            harness: HarnessOverrides {
                trigger_percent: Some(90),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::Deepagents,
        id: "deepagents",
        name: "deepagents",
        summary: "Summarises at 85% of the input limit and keeps the newest 10% of it verbatim.",
        policy: Policy {
            tail_percent: Some(10),
            harness: HarnessOverrides {
                trigger_percent: Some(85),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::ClaudeCode1m,
        id: "claude_code_1m",
        name: "Claude Code, 1M window",
        summary: "Claude Code on a 1M-token window: summarises about 13k tokens before it is full; CLAUDE.md and memory are re-read afterwards.",
        policy: Policy {
            rereads_external: true,
            harness: HarnessOverrides {
                window_tokens: Some(1_000_000),
                reserve_tokens: Some(13_000),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::GeminiCli,
        id: "gemini_cli",
        name: "Gemini CLI",
        summary: "Compresses at half the window and keeps the newest 30% verbatim; GEMINI.md memory is put back afterwards.",
        policy: Policy {
            rereads_external: true,
            tail_percent: Some(30),
            harness: HarnessOverrides {
                trigger_percent: Some(50),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::Opencode,
        id: "opencode",
        name: "opencode",
        summary: "Compacts 20k tokens before the window is full and keeps about 15k recent tokens verbatim; AGENTS.md is in every request's system prompt.",
        policy: Policy {
            tail_percent: Some(8),
            harness: HarnessOverrides {
                reserve_tokens: Some(20_000),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::RooCode,
        id: "roo_code",
        name: "Roo Code",
        summary: "Condenses at 90% of the window into one summary and keeps no older turn verbatim; rules files are in every request's system prompt.",
        policy: Policy {
            harness: HarnessOverrides {
                trigger_percent: Some(90),
                tail_turns: Some(1),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::Cline,
        id: "cline",
        name: "Cline",
        summary: "Compacts at about 81% of the window and keeps the newest 20k tokens verbatim; .clinerules are in every request's system prompt.",
        policy: Policy {
            tail_percent: Some(10),
            harness: HarnessOverrides {
                trigger_percent: Some(81),
                ..HarnessOverrides::NONE
            },
            ..Policy::PINNED_PREFIX
        },
    },
    PresetInfo {
        preset: Preset::OpenhandsSdk,
        id: "openhands_sdk",
        name: "OpenHands SDK",
        summary: "Keeps the first four events, the system prompt among them, summarises the middle and keeps the newest.",
        policy: Policy {
            keep_first_turns: 4,
            ..Policy::PINNED_PREFIX
        },
    },
];

/// A harness preset's notes.
const fn harness_notes(
    approximates: &'static str,
    limits: &'static str,
    source: &'static str,
) -> PresetNotes {
    PresetNotes {
        approximates,
        limits,
        source,
    }
}

const REFERENCE: PresetNotes = harness_notes("", "", "");

/// [`PresetNotes`] in the order of [`Preset::ALL`].
const NOTES: [PresetNotes; 19] = [
    REFERENCE,
    REFERENCE,
    REFERENCE,
    REFERENCE,
    REFERENCE,
    REFERENCE,
    harness_notes(
        "Codex's auto-compaction replaces the history with a summary plus the most recent user messages, newest first, until about 20,000 tokens of them are kept; it runs when the conversation reaches about 90% of the model's window.",
        "the size of each user message: every recent turn counts as one message of user_message_tokens, so long or sparse user messages keep more or fewer turns than Codex would.",
        "openai/codex, codex-rs/core/src/compact.rs (COMPACT_USER_MESSAGE_MAX_TOKENS, 20,000) and codex-rs/core/src/openai_model_info.rs (auto_compact_token_limit, about 90% of the window; model_auto_compact_token_limit in config.toml)",
    ),
    harness_notes(
        "Claude Code auto-compacts when the context nears the window, keeping a buffer for the summary itself, and replaces the conversation with a summary; CLAUDE.md and memory files are loaded again after compaction, which is what 'externalised' models.",
        "what the summary prompt chooses to emphasise: every kind keeps its retention.",
        "code.claude.com/docs/en/memory and code.claude.com/docs/en/context-window (CLAUDE.md and memory re-read after compaction); anthropics/claude-code issue 31806 (compaction about 13,000 tokens below the window)",
    ),
    harness_notes(
        "The Responses API compaction endpoint returns the user messages of the conversation unchanged and replaces assistant messages, tool calls and tool results with a single encrypted compaction item.",
        "what goes into the opaque compaction item: it is treated as a summary with the usual per-kind retention (the same switches as user_verbatim).",
        "OpenAI API reference, POST /v1/responses/compact, and the 'Conversation state: compaction' guide (platform.openai.com/docs)",
    ),
    harness_notes(
        "The LLMSummarizingCondenser keeps the first `keep_first` events and the newest events, and replaces the forgotten middle with one summary event.",
        "the trigger on a count of events (max_size): rounds are triggered by tokens instead.",
        "All-Hands-AI/OpenHands, openhands/memory/condenser/impl/llm_summarizing_condenser.py",
    ),
    harness_notes(
        "The ObservationMaskingCondenser keeps every event but replaces the content of observations older than its attention window with a placeholder.",
        "the attention window counted in events, and that masking leaves non-tool turns at full size, so a session dominated by user or assistant text overflows sooner here than in OpenHands.",
        "All-Hands-AI/OpenHands, openhands/memory/condenser/impl/observation_masking_condenser.py",
    ),
    harness_notes(
        "Letta's summarizer evicts the oldest part of the message buffer into a recursive summary when the context fills and keeps the newest messages; core memory blocks are rendered into every prompt, which is what 'externalised' models.",
        "archival memory search.",
        "letta-ai/letta, letta/services/summarizer/summarizer.py",
    ),
    harness_notes(
        "LangChain's deepagents summarization middleware triggers at a fraction of the model's input limit and keeps a fraction of it as recent messages, summarising the rest.",
        "the files-as-memory tools, unless a fact is marked externalised under a policy that re-reads.",
        "langchain-ai/deepagents, summarization middleware defaults (trigger fraction 0.85, keep fraction 0.10)",
    ),
    harness_notes(
        "With a 1M-token model (the [1m] model suffix, or CLAUDE_CODE_AUTO_COMPACT_WINDOW, capped at the model's window) Claude Code compacts about 13,000 tokens before the window is full; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can only lower that point. After a compaction the project-root CLAUDE.md, unscoped rules and auto memory are read again from disk, which is what 'externalised' models; a rule said only in the chat lives on through the summary alone.",
        "microcompaction, which clears old tool results between compactions and writes no summary (a rule a tool result revealed lasts longer here); compaction while the session idles before the prompt cache expires (the model counts turns, not time); nested CLAUDE.md files and path-scoped rules, which come back only when a matching file is read.",
        "code.claude.com/docs/en/context-window (what is re-read after compaction); anthropics/claude-code issue 31806 (compaction 13,000 tokens below the window; the percentage override only lowers it) and issue 71254 (CLAUDE_CODE_AUTO_COMPACT_WINDOW and 1M windows); anthropics/claude-code CHANGELOG.md (microcompaction)",
    ),
    harness_notes(
        "Gemini CLI compresses the chat when its last prompt reaches half the model's limit (model.compressionThreshold, default 0.5), keeps the newest 30% of the history verbatim and replaces the rest with a <state_snapshot> that folds in the previous one; a second pass then asks the model what it omitted, user constraints among it. GEMINI.md memory is in the system instruction and the session context rebuilt after compression, which is what 'externalised' models.",
        "the second pass that looks for omitted constraints (every kind keeps its retention); that the 30% is measured in characters and cut at a user message; tool outputs beyond a 50,000-token budget, cut to their last 30 lines.",
        "google-gemini/gemini-cli, packages/core/src/context/chatCompressionService.ts (DEFAULT_COMPRESSION_TOKEN_THRESHOLD 0.5, COMPRESSION_PRESERVE_THRESHOLD 0.3, the probe pass) and docs/reference/configuration.md (model.compressionThreshold)",
    ),
    harness_notes(
        "opencode compacts when the context reaches the usable input (the window less the output limit and a reserve, compaction.reserved, of at most 20,000 tokens), keeps the newest tokens verbatim (preserve_recent_tokens: a quarter of the usable input, between 2,000 and 15,000) and summarises the rest, a later compaction updating the earlier summary. The AGENTS.md files are part of the system prompt.",
        "the tail in tokens, modelled as 8% of the window (15,000 tokens of a 200,000-token window; 16,000 here); the model's output limit, which opencode holds back beside the reserve; the pruning of old tool outputs beyond the newest 40,000 tokens of them.",
        "sst/opencode, packages/opencode/src/session/overflow.ts (the usable input, compaction.reserved) and packages/opencode/src/session/compaction.ts (preserve_recent_tokens, PRUNE_PROTECT)",
    ),
    harness_notes(
        "Roo Code condenses when the context reaches autoCondenseContextPercent of the window (default 100) or the window less 10% and the output limit (TOKEN_BUFFER_PERCENTAGE 0.1), whichever comes first; the model then sees one summary and no older message (they stay stored, tagged condenseParent). Rules files (.roo/rules, AGENTS.md) are read into the system prompt of every request.",
        "the output limit held back beside the 10% buffer; the commands and file context Roo folds into the summary.",
        "RooCodeInc/Roo-Code, src/core/context-management/index.ts (TOKEN_BUFFER_PERCENTAGE, autoCondenseContextPercent), src/core/condense/index.ts (the summary alone) and src/core/prompts/sections/custom-instructions.ts (rules in the system prompt)",
    ),
    harness_notes(
        "Cline compacts when a request reaches 0.9 of its input budget (maxInputTokens, else 0.9 of the window: about 81% of it), summarising the older turns and keeping the newest preserveRecentTokens (20,000) verbatim. Rules files (.clinerules) are composed into the system prompt.",
        "the tail in tokens, modelled as 10% of the window (20,000 tokens of a 200,000-token window); the basic strategy, which keeps every typed user prompt without a model call.",
        "cline/cline, sdk/packages/core/src/extensions/context/compaction-shared.ts (the trigger) and apps/vscode/src/shared/storage/state-keys.ts (preserveRecentTokens, compactionStrategy)",
    ),
    harness_notes(
        "The OpenHands SDK's default agent condenses with an LLMSummarizingCondenser of max_size 80 and keep_first 4: past 80 events it keeps the first 4, the system prompt among them, and the newest, down to half, and replaces the middle with one summary (the class's own defaults are 240 and 2).",
        "the trigger on a count of events: rounds are due by tokens, and a turn stands for one event.",
        "OpenHands/software-agent-sdk, openhands-sdk/openhands/sdk/context/condenser/llm_summarizing_condenser.py (max_size, keep_first, default_condenser)",
    ),
];

impl Preset {
    /// Every preset, v1 reference policies first.
    pub const ALL: [Preset; 19] = [
        Preset::None,
        Preset::SlidingWindow,
        Preset::RecursiveSummary,
        Preset::PinnedPrefix,
        Preset::UserVerbatim,
        Preset::ExternalisedState,
        Preset::CodexCli,
        Preset::ClaudeCode,
        Preset::OpenaiCompact,
        Preset::OpenhandsSummarizing,
        Preset::OpenhandsMasking,
        Preset::LettaSliding,
        Preset::Deepagents,
        Preset::ClaudeCode1m,
        Preset::GeminiCli,
        Preset::Opencode,
        Preset::RooCode,
        Preset::Cline,
        Preset::OpenhandsSdk,
    ];

    /// The six reference policies of contract v1 (docs/MODEL.md §4): the
    /// first six of [`Preset::ALL`].
    pub const V1: [Preset; 6] = *Preset::ALL.first_chunk().unwrap();

    /// Everything the table knows about this preset.
    pub const fn info(self) -> &'static PresetInfo {
        &PRESETS[self as usize]
    }

    /// What it approximates, leaves out and follows: empty for the v1
    /// reference policies.
    pub const fn notes(self) -> &'static PresetNotes {
        &NOTES[self as usize]
    }

    /// The identifier (`pinned_prefix`, `codex_cli`, …).
    pub const fn id(self) -> &'static str {
        self.info().id
    }

    /// The switches.
    pub const fn policy(self) -> Policy {
        self.info().policy
    }

    /// Parses an identifier.
    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn the_table_is_indexed_by_the_enum() {
        for (i, preset) in Preset::ALL.into_iter().enumerate() {
            assert_eq!(PRESETS[i].preset, preset);
            assert_eq!(Preset::from_id(preset.id()), Some(preset));
            assert!(!preset.info().summary.is_empty());
        }
        assert_eq!(Preset::from_id("custom"), None);
    }

    /// docs/MODEL.md §4 and §9, one row per preset ("-" for none).
    const CONTRACT: &str = "
        preset                 compacts protected                summarises rereads keep_first tail% user_budget trigger% reserve window  tail_turns
        none                   no       -                        no         no      0          -     -           -        -       -       -
        sliding_window         yes      system                   no         no      0          -     -           -        -       -       -
        recursive_summary      yes      -                        yes        no      0          -     -           -        -       -       -
        pinned_prefix          yes      system                   yes        no      0          -     -           -        -       -       -
        user_verbatim          yes      system,user              yes        no      0          -     -           -        -       -       -
        externalised_state     yes      system                   yes        yes     0          -     -           -        -       -       -
        codex_cli              yes      system,user              yes        no      0          -     20000       90       -       -       -
        claude_code            yes      system                   yes        yes     0          -     -           -        13000       -       -
        openai_compact         yes      system,user              yes        no      0          -     -           -        -       -       -
        openhands_summarizing  yes      system                   yes        no      1          -     -           -        -       -       -
        openhands_masking      yes      system,user,assistant    no         no      0          -     -           -        -       -       -
        letta_sliding          yes      system                   yes        yes     0          70    -           90       -       -       -
        deepagents             yes      system                   yes        no      0          10    -           85       -       -       -
        claude_code_1m         yes      system                   yes        yes     0          -     -           -        13000   1000000 -
        gemini_cli             yes      system                   yes        yes     0          30    -           50       -       -       -
        opencode               yes      system                   yes        no      0          8     -           -        20000   -       -
        roo_code               yes      system                   yes        no      0          -     -           90       -       -       1
        cline                  yes      system                   yes        no      0          10    -           81       -       -       -
        openhands_sdk          yes      system                   yes        no      4          -     -           -        -       -       -
    ";

    #[test]
    fn preset_switches_match_the_contract() {
        let yes = |w: &str| w == "yes";
        let number = |w: &str| (w != "-").then(|| w.parse::<u64>().unwrap());
        let rows: Vec<Vec<&str>> = CONTRACT
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|w| !w.is_empty())
            .skip(1)
            .collect();
        assert_eq!(rows.len(), Preset::ALL.len());
        for w in rows {
            let id = w[0];
            let p = Preset::from_id(id).unwrap().policy();
            let roles: RoleSet = w[2]
                .split(',')
                .filter(|r| *r != "-")
                .map(|r| Role::from_id(r).unwrap())
                .collect();
            assert_eq!(p.compacts, yes(w[1]), "{id}");
            assert_eq!(p.protected_roles, roles, "{id}");
            assert_eq!(p.summarises, yes(w[3]), "{id}");
            assert_eq!(p.rereads_external, yes(w[4]), "{id}");
            assert_eq!(u64::from(p.keep_first_turns), number(w[5]).unwrap(), "{id}");
            assert_eq!(p.tail_percent.map(u64::from), number(w[6]), "{id}");
            assert_eq!(p.user_budget_tokens, number(w[7]), "{id}");
            assert_eq!(
                p.harness.trigger_percent.map(u64::from),
                number(w[8]),
                "{id}"
            );
            assert_eq!(p.harness.reserve_tokens, number(w[9]), "{id}");
            assert_eq!(p.harness.window_tokens, number(w[10]), "{id}");
            assert_eq!(p.harness.tail_turns.map(u64::from), number(w[11]), "{id}");
            let others = HarnessOverrides {
                trigger_percent: None,
                reserve_tokens: None,
                window_tokens: None,
                tail_turns: None,
                ..p.harness
            };
            assert_eq!(others, HarnessOverrides::NONE, "{id}");
        }
    }

    #[test]
    fn harness_presets_name_their_source() {
        for preset in &Preset::ALL[6..] {
            let (id, notes) = (preset.id(), preset.notes());
            assert!(!notes.approximates.is_empty(), "{id}");
            assert!(!notes.limits.is_empty(), "{id}");
            assert!(!notes.source.is_empty(), "{id}");
        }
        for preset in Preset::V1 {
            assert!(preset.notes().source.is_empty(), "{}", preset.id());
        }
    }
}
