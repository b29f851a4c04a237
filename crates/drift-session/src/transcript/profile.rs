//! What each harness's log is known to hold around its compactions, one
//! profile per [`TranscriptFormat`]: the sentences it writes around a
//! summary, what it puts back into the new context by itself, and what it
//! keeps word for word.
//!
//! The log readers, the harness-boilerplate filter, the import and the
//! audits all read these profiles, so each fact about a harness is written
//! here once. A profile names the row of drift-core's harness table
//! ([`RemedyHarness`]) that models the same harness, where there is one.

use drift_core::RemedyHarness;

use super::TranscriptFormat;
use crate::rules::Authority;

/// One harness's log, as the audit and the import read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LogProfile {
    /// The format its harness writes.
    pub(crate) format: TranscriptFormat,
    /// The row of drift-core's harness table that models it.
    pub(crate) harness: Option<RemedyHarness>,
    /// What a position in its log is called ("line", "item").
    pub(crate) record: &'static str,
    /// The sentences a compaction summary opens with, by their opening
    /// words (the continuation preamble, the handoff prefix): the rest of
    /// the text is the summary.
    pub(crate) preamble: &'static [&'static str],
    /// The other sentences it writes around a summary, by their opening
    /// words: the pointer to the full transcript, the closing request to
    /// carry on.
    pub(crate) around: &'static [&'static str],
    /// What it puts back after every compaction by itself.
    pub(crate) re_injects: ReInjects,
    /// The file it re-reads after every compaction, where a standing rule
    /// survives them (the fix a report suggests).
    pub(crate) standing_file: &'static str,
    /// The instruction file its log's project instructions come from when
    /// the log names none (Codex writes AGENTS.md's text without a path).
    pub(crate) unnamed_instructions: Option<&'static str>,
    /// The tokens of the newest user messages it keeps verbatim when the
    /// log does not record what it kept (characters / 4).
    pub(crate) kept_user_tokens: Option<usize>,
}

/// What a harness puts back after every compaction by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReInjects {
    /// Nothing.
    Nothing,
    /// Every rule of these authorities (Codex: AGENTS.md and the developer
    /// instructions go back into the initial context).
    Authorities(&'static [Authority]),
    /// The instruction files with these names, or under these folders,
    /// re-read from disk (Claude Code: CLAUDE.md and unscoped
    /// `.claude/rules/`); not a skill, which only the versions that log it
    /// put back.
    Files {
        /// File names (ASCII case ignored).
        names: &'static [&'static str],
        /// Folders, lowercase, `/` on both sides.
        folders: &'static [&'static str],
    },
    /// The log's first record when it is the system's (a Responses
    /// request's `instructions`, sent again with every request).
    FirstSystem,
}

/// Claude Code's instruction file.
const CLAUDE_MD: &str = "CLAUDE.md";

/// The Claude Code profile.
const CLAUDE_CODE: LogProfile = LogProfile {
    format: TranscriptFormat::ClaudeCodeSession,
    harness: Some(RemedyHarness::ClaudeCode),
    record: "line",
    preamble: &["This session is being continued from a previous conversation"],
    around: &[
        "The conversation is summarized below",
        "The summary below covers the earlier portion",
        "If you need specific details from before compaction",
        "Please continue the conversation from where we left",
        "Continue with the last task that you were asked",
        // Newer versions' pointer and closing.
        "Recent messages are preserved verbatim",
        "Continue the conversation from where it left off",
        "Resume directly",
        "Pick up the last task as if the break never happened",
    ],
    re_injects: ReInjects::Files {
        names: &[CLAUDE_MD],
        folders: &["/.claude/rules/"],
    },
    standing_file: CLAUDE_MD,
    unnamed_instructions: None,
    kept_user_tokens: None,
};

/// Codex's instruction file.
const AGENTS_MD: &str = "AGENTS.md";

/// The Codex CLI profile.
const CODEX_CLI: LogProfile = LogProfile {
    format: TranscriptFormat::CodexSession,
    harness: Some(RemedyHarness::CodexCli),
    record: "line",
    preamble: &[
        // The summary prefix, and the 2025 history bridge that carried it.
        "Another language model started to solve this problem",
        "You were originally given instructions from a user",
    ],
    around: &[
        "You also have access to the state of the tools",
        "Use this to build on the work that has already been done",
        "Here is the summary produced by the other language model",
        "Here were the user messages",
        "(no summary available)",
    ],
    re_injects: ReInjects::Authorities(&[Authority::Instructions, Authority::System]),
    standing_file: AGENTS_MD,
    unnamed_instructions: Some(AGENTS_MD),
    // `COMPACT_USER_MESSAGE_MAX_TOKENS` in openai/codex `compact.rs`.
    kept_user_tokens: Some(20_000),
};

/// The OpenAI Responses profile.
const RESPONSES: LogProfile = LogProfile {
    format: TranscriptFormat::ResponsesItems,
    harness: Some(RemedyHarness::OpenaiCompact),
    record: "item",
    preamble: &[],
    around: &[],
    re_injects: ReInjects::FirstSystem,
    standing_file: "the request's instructions",
    unnamed_instructions: None,
    kept_user_tokens: None,
};

/// Plain text: no harness known.
const PLAIN_TEXT: LogProfile = LogProfile {
    format: TranscriptFormat::PlainText,
    harness: None,
    record: "line",
    preamble: &[],
    around: &[],
    re_injects: ReInjects::Nothing,
    standing_file: CLAUDE_MD,
    unnamed_instructions: None,
    kept_user_tokens: None,
};

/// Every profile.
pub(crate) const PROFILES: [LogProfile; 4] = [CLAUDE_CODE, CODEX_CLI, RESPONSES, PLAIN_TEXT];

impl TranscriptFormat {
    /// The profile of the harness that writes it.
    pub(crate) const fn profile(self) -> &'static LogProfile {
        match self {
            TranscriptFormat::ClaudeCodeSession => &CLAUDE_CODE,
            TranscriptFormat::CodexSession => &CODEX_CLI,
            TranscriptFormat::ResponsesItems => &RESPONSES,
            TranscriptFormat::PlainText => &PLAIN_TEXT,
        }
    }

    /// The row of drift-core's harness table for the harness that writes
    /// it (`None` for plain text).
    pub const fn remedy_harness(self) -> Option<RemedyHarness> {
        self.profile().harness
    }

    /// What a position in its log is called: "item" for Responses items,
    /// "line" for the rest.
    pub const fn record_name(self) -> &'static str {
        self.profile().record
    }
}

impl LogProfile {
    /// Whether `text` opens with one of its summary preambles.
    pub(crate) fn opens_summary(&self, text: &str) -> bool {
        self.preamble.iter().any(|p| text.starts_with(p))
    }

    /// Whether `path` is a file it re-reads after every compaction.
    pub(crate) fn re_reads(&self, path: &str) -> bool {
        let ReInjects::Files { names, folders } = self.re_injects else {
            return false;
        };
        let lower = path.to_lowercase().replace('\\', "/");
        let path = lower.as_bytes();
        names.iter().any(|n| {
            let cut = path.len().wrapping_sub(n.len());
            path.get(cut..)
                .is_some_and(|end| end.eq_ignore_ascii_case(n.as_bytes()))
                && (cut == 0 || path.get(cut - 1) == Some(&b'/'))
        }) || folders.iter().any(|f| lower.contains(f))
    }
}

/// Whether `text` (a sentence, leading space trimmed) is one a harness
/// writes around a summary: a preamble or a sentence around it, of any
/// harness.
pub(crate) fn is_summary_frame(text: &str) -> bool {
    PROFILES
        .iter()
        .flat_map(|p| p.preamble.iter().chain(p.around))
        .any(|h| text.starts_with(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_re_reads_its_instruction_files_only() {
        let claude = TranscriptFormat::ClaudeCodeSession.profile();
        for path in [
            "CLAUDE.md",
            "/repo/CLAUDE.md",
            "/repo/claude.md",
            "C:\\repo\\Claude.md",
            "/repo/.claude/rules/testing.md",
        ] {
            assert!(claude.re_reads(path), "{path}");
        }
        for path in [
            "/repo/NOTCLAUDE.md",
            "/repo/CLAUDE.md.bak",
            "/repo/AGENTS.md",
        ] {
            assert!(!claude.re_reads(path), "{path}");
        }
        assert!(
            !TranscriptFormat::CodexSession
                .profile()
                .re_reads("/repo/CLAUDE.md")
        );
    }

    #[test]
    fn each_format_has_its_own_profile() {
        for profile in &PROFILES {
            assert_eq!(profile.format.profile(), profile);
        }
        assert_eq!(
            TranscriptFormat::CodexSession.remedy_harness(),
            Some(RemedyHarness::CodexCli)
        );
        assert_eq!(TranscriptFormat::ResponsesItems.record_name(), "item");
        let codex = TranscriptFormat::CodexSession.profile();
        assert!(codex.opens_summary(
            "Another language model started to solve this problem and produced a summary"
        ));
        assert!(
            !codex.opens_summary("This session is being continued from a previous conversation")
        );
        assert!(is_summary_frame("Resume directly, without a recap."));
        assert!(!is_summary_frame("Never push to main."));
    }
}
