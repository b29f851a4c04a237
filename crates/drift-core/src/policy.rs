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
    /// For harness approximations: the behaviour approximated. Empty for the
    /// v1 reference policies.
    pub approximates: &'static str,
    /// What the model cannot see of that behaviour (reads after "not
    /// modelled:").
    pub limits: &'static str,
    /// The public source the approximation follows. Empty for v1 policies.
    pub source: &'static str,
}

/// The row of a v1 reference policy: it approximates no harness, so it has
/// no limits and no source.
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
        approximates: "",
        limits: "",
        source: "",
    }
}

const fn with_roles(roles: RoleSet) -> Policy {
    Policy {
        protected_roles: roles,
        ..Policy::PINNED_PREFIX
    }
}

const PRESETS: [PresetInfo; 13] = [
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
        approximates: "Codex's auto-compaction replaces the history with a summary plus the most recent user messages, newest first, until about 20,000 tokens of them are kept; it runs when the conversation reaches about 90% of the model's window.",
        limits: "the size of each user message: every recent turn counts as one message of user_message_tokens, so long or sparse user messages keep more or fewer turns than Codex would.",
        source: "openai/codex, codex-rs/core/src/codex/compact.rs (COMPACT_USER_MESSAGE_MAX_TOKENS)",
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
        approximates: "Claude Code auto-compacts when the context nears the window, keeping a buffer for the summary itself, and replaces the conversation with a summary; CLAUDE.md and memory files are loaded again after compaction, which is what 'externalised' models.",
        limits: "what the summary prompt chooses to emphasise: every kind keeps its retention.",
        source: "Claude Code documentation, 'Manage Claude's memory' and 'Context management' (docs.anthropic.com/en/docs/claude-code)",
    },
    PresetInfo {
        preset: Preset::OpenaiCompact,
        id: "openai_compact",
        name: "OpenAI compact",
        summary: "Keeps prior user messages verbatim and turns everything else into one opaque item.",
        policy: with_roles(RoleSet::SYSTEM_USER),
        approximates: "The Responses API compaction endpoint returns the user messages of the conversation unchanged and replaces assistant messages, tool calls and tool results with a single encrypted compaction item.",
        limits: "what goes into the opaque compaction item: it is treated as a summary with the usual per-kind retention (the same switches as user_verbatim).",
        source: "OpenAI API reference, POST /v1/responses/compact, and the 'Conversation state: compaction' guide (platform.openai.com/docs)",
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
        approximates: "The LLMSummarizingCondenser keeps the first `keep_first` events and the newest events, and replaces the forgotten middle with one summary event.",
        limits: "the trigger on a count of events (max_size): rounds are triggered by tokens instead.",
        source: "All-Hands-AI/OpenHands, openhands/memory/condenser/impl/llm_summarizing_condenser.py",
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
        approximates: "The ObservationMaskingCondenser keeps every event but replaces the content of observations older than its attention window with a placeholder.",
        limits: "the attention window counted in events, and that masking leaves non-tool turns at full size, so a session dominated by user or assistant text overflows sooner here than in OpenHands.",
        source: "All-Hands-AI/OpenHands, openhands/memory/condenser/impl/observation_masking_condenser.py",
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
        approximates: "Letta's summarizer evicts the oldest part of the message buffer into a recursive summary when the context fills and keeps the newest messages; core memory blocks are rendered into every prompt, which is what 'externalised' models.",
        limits: "archival memory search.",
        source: "letta-ai/letta, letta/services/summarizer/summarizer.py",
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
        approximates: "LangChain's deepagents summarization middleware triggers at a fraction of the model's input limit and keeps a fraction of it as recent messages, summarising the rest.",
        limits: "the files-as-memory tools, unless a fact is marked externalised under a policy that re-reads.",
        source: "langchain-ai/deepagents, summarization middleware defaults (trigger fraction 0.85, keep fraction 0.10)",
    },
];

impl Preset {
    /// Every preset, v1 reference policies first.
    pub const ALL: [Preset; 13] = [
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
    ];

    /// The six reference policies of contract v1 (docs/MODEL.md §4): the
    /// first six of [`Preset::ALL`].
    pub const V1: [Preset; 6] = *Preset::ALL.first_chunk().unwrap();

    /// Everything the table knows about this preset.
    pub const fn info(self) -> &'static PresetInfo {
        &PRESETS[self as usize]
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
        preset                 compacts protected                summarises rereads keep_first tail% user_budget trigger% reserve
        none                   no       -                        no         no      0          -     -           -        -
        sliding_window         yes      system                   no         no      0          -     -           -        -
        recursive_summary      yes      -                        yes        no      0          -     -           -        -
        pinned_prefix          yes      system                   yes        no      0          -     -           -        -
        user_verbatim          yes      system,user              yes        no      0          -     -           -        -
        externalised_state     yes      system                   yes        yes     0          -     -           -        -
        codex_cli              yes      system,user              yes        no      0          -     20000       90       -
        claude_code            yes      system                   yes        yes     0          -     -           -        13000
        openai_compact         yes      system,user              yes        no      0          -     -           -        -
        openhands_summarizing  yes      system                   yes        no      1          -     -           -        -
        openhands_masking      yes      system,user,assistant    no         no      0          -     -           -        -
        letta_sliding          yes      system                   yes        yes     0          70    -           90       -
        deepagents             yes      system                   yes        no      0          10    -           85       -
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
            let others = HarnessOverrides {
                trigger_percent: None,
                reserve_tokens: None,
                ..p.harness
            };
            assert_eq!(others, HarnessOverrides::NONE, "{id}");
        }
    }

    #[test]
    fn harness_presets_name_their_source() {
        for preset in &Preset::ALL[6..] {
            let info = preset.info();
            assert!(!info.approximates.is_empty(), "{}", info.id);
            assert!(!info.limits.is_empty(), "{}", info.id);
            assert!(!info.source.is_empty(), "{}", info.id);
        }
    }
}
