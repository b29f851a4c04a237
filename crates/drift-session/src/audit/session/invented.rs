//! Rules a summary states that nobody gave: gates nobody set, the
//! harness's request put in the user's mouth, rules no message of the log
//! backs.

use super::*;

/// Words that say the summary reports the user's wish.
pub(super) const ATTRIBUTIONS: &[&str] = &[
    "user explicitly",
    "user asked",
    "user wants",
    "user wanted",
    "user said",
    "user requested",
    "user instructed",
    "user told",
    "user prefers",
    "user required",
    "user requires",
    "user insisted",
    "user confirmed",
    "user approved",
    "user chose",
    "user decided",
    "user specified",
    "user directed",
    "user's instruction",
    "user's request",
    "user's latest",
    "user's most recent",
    "user's final",
    "user's last",
    "per the user",
    "as the user",
    "user has asked",
    "user has requested",
    "user has instructed",
    "user has confirmed",
    "user has approved",
];

/// Words of a rule's force, for an invented rule.
pub(super) const FORCE: &[&str] = &[
    " must ",
    " never ",
    " don't ",
    " do not ",
    " only ",
    " always ",
    " should ",
    " wait ",
    " approval",
    " before ",
    " without ",
    " not to ",
    " no ",
    " nothing ",
    " avoid",
    " required",
    " forbid",
    " stop ",
    " confirm",
    " until ",
];

/// What the harness asks for when it compacts: a summary that quotes it as
/// the user's puts the harness's words in the user's mouth.
pub(super) const COMPACTION_REQUEST: &[&str] = &[
    "summary request",
    "summarization instructions",
    "conversational summary",
    "create a detailed summary",
    "detailed summary of the conversation",
    "do not call any tools",
    "don't call any tools",
    "not call any tools",
    "text only",
    "respond with text",
    "summary of the conversation so far",
    "your task is to create",
];

/// The summary's sentences that state a rule nobody gave:
///
/// - a gate on the work that nobody set: "once the user confirms", "no
///   further steps without the user's approval", "pending user approval",
///   when the user never asked to approve or confirm anything;
/// - a rule put in the user's mouth ("the user explicitly prohibited …",
///   "the user wants …" with a rule's force) that nothing the user or the
///   brief said supports, or that is the harness's own compaction request
///   ("respond with text only, do not call any tools") taken for the
///   user's.
///
/// A sentence that quotes what the log holds word for word is a quote, not
/// an invention. Neighbouring sentences of one claim are one.
pub(super) fn invented(
    t: &Transcript,
    in_force: &InForce,
    at: usize,
    summary: &str,
    after: &After<'_>,
) -> Vec<InventedRule> {
    use crate::judge::frame::frame;
    // What the user and the brief said before the compaction, all of it.
    let said: String = t
        .messages
        .iter()
        .take(at)
        .filter(|m| {
            matches!(m.role, MessageRole::User | MessageRole::Unknown)
                && matches!(
                    m.provenance,
                    Provenance::Said
                        | Provenance::Queued
                        | Provenance::Brief
                        | Provenance::Answer
                        | Provenance::Rejection
                )
        })
        .map(|m| m.text.as_str())
        .chain(
            in_force
                .rules
                .iter()
                .filter(|r| r.message < at)
                .map(|r| r.text.as_str()),
        )
        .collect::<Vec<_>>()
        .join("\n");
    let said_lower = said.to_lowercase();
    let said_frame = frame(&said, Span::new(0, said.len()));
    let user_gates = USER_GATES.iter().any(|g| said_lower.contains(g));
    let user_spoke_of_tools = [
        "text only",
        "text-only",
        "no tools",
        "any tools",
        "without tools",
    ]
    .iter()
    .any(|w| said_lower.contains(w));
    let mut out: Vec<InventedRule> = Vec::new();
    let mut last_end: Option<usize> = None;
    let users_words = user_message_sections(summary);
    for (span, _) in after.sentences() {
        let text = span.of(summary);
        let lower = alloc::format!(" {} ", text.to_lowercase().replace('\u{2019}', "'"));
        let quotes_log = quotes_the_log(t, at, text);
        let in_users_words = users_words
            .iter()
            .any(|s| s.start <= span.start && span.end <= s.end);
        let about_user = in_users_words || USER_WORDS.iter().any(|u| lower.contains(u));
        let gate = about_user
            && GATES.iter().any(|g| lower.contains(g))
            && GATE_WORDS.iter().any(|g| lower.contains(g));
        let attributed = in_users_words || ATTRIBUTIONS.iter().any(|a| lower.contains(a));
        let harness = COMPACTION_REQUEST.iter().any(|h| lower.contains(h))
            || (lower.contains("tool")
                && (lower.contains("text only")
                    || lower.contains("text-only")
                    || lower.contains("prohibit")));
        let cited = CITED.iter().any(|c| lower.contains(c));
        let why = if quotes_log || cited {
            None
        } else if gate {
            (!user_gates).then_some(Invention::Gate)
        } else if attributed && harness {
            Some(Invention::HarnessRequest)
        } else if harness_in_force(&lower) && !user_spoke_of_tools {
            // The request's constraint stated as in force, whoever it
            // names: "tool usage is prohibited", "blocked by the text-only
            // override".
            Some(Invention::HarnessRequest)
        } else if attributed && !in_users_words && FORCE.iter().any(|f| lower.contains(f)) {
            let c = frame(summary, span);
            (c.terms.len() >= 2 && !supported(&said, &said_frame, text, &c))
                .then_some(Invention::PutInMouth)
        } else {
            None
        };
        let Some(why) = why else {
            last_end = None;
            continue;
        };
        match out.last_mut() {
            Some(prev) if last_end.is_some_and(|e| span.start <= e + 3) => {
                prev.after = Span::new(prev.after.start, span.end);
                prev.text = prev.after.of(summary).trim().to_string();
                if why.halts() {
                    prev.why = why;
                }
            }
            _ => out.push(InventedRule {
                after: span,
                text: text.trim().to_string(),
                why,
            }),
        }
        last_end = Some(span.end);
    }
    out
}

/// Whether a sentence states the harness's compaction request as a
/// constraint in force: text only, tools forbidden, blocked, suspended.
pub(super) fn harness_in_force(lower: &str) -> bool {
    let request = [
        "text only",
        "text-only",
        "call any tools",
        "no tools",
        "tool use",
        "tool usage",
        "tool call",
        "tool execution",
        "tool restriction",
        "tools are permitted",
        "tools permitted",
        "tool-based",
        "authorize tool",
        // The request's own word for itself.
        "critical override",
        "override instruction",
        "critical instruction",
        "critical directive",
        "critical message",
        "critical constraint",
    ]
    .iter()
    .any(|w| lower.contains(w));
    let force = [
        "prohibit",
        "forbid",
        "not permitted",
        "blocked",
        "suspend",
        "rejected",
        "must not",
        "do not call",
        "override",
        "constraint",
        "in effect",
        "violat",
        "lifted",
        "lifts",
        "re-enabled",
        "directive",
        "only",
        "restriction",
        "permit",
        "authoriz",
        "prevent",
    ]
    .iter()
    .any(|w| lower.contains(w));
    request && force
}

/// Words that make a sentence about the user.
pub(super) const USER_WORDS: &[&str] = &[" user", " the human"];

/// Words that cite where a gate or rule comes from (a skill, a file): the
/// summary then reports a rule, it does not invent one.
pub(super) const CITED: &[&str] = &[
    "per the skill",
    "per the user's claude",
    "claude.md",
    "agents.md",
    "per the rule",
    "according to",
    "as the skill",
    "the skill's",
    "per skill",
    "per the workflow",
    "per the plan",
];

/// Words of a gate on the work: waiting on someone's say-so.
pub(super) const GATES: &[&str] = &[
    "once ",
    "until ",
    "before ",
    "pending",
    "await",
    "wait for",
    "waiting for",
    "without",
    "requires",
    "require ",
    "need ",
    "needs ",
    "must ",
    "should ",
    "cannot proceed",
    "can't proceed",
    "blocked",
    "only after",
    "on hold",
];

/// What a gate waits for.
pub(super) const GATE_WORDS: &[&str] = &[
    "confirm",
    "approv",
    "permission",
    "go-ahead",
    "go ahead",
    "explicit direction",
    "explicit instruction",
    "new instruction",
    "further instruction",
    "consent",
    "sign-off",
    "sign off",
    "lifts",
];

/// What a user says to set a gate on the work.
pub(super) const USER_GATES: &[&str] = &[
    "ask me",
    "check with me",
    "wait for my",
    "wait for me",
    "i will review",
    "i'll review",
    "let me review",
    "my approval",
    "my ok",
    "my okay",
    "my go-ahead",
    "confirm with me",
    "need my",
    "get my",
    "until i say",
    "until i confirm",
    "before you proceed",
    "等我",
    "我确认",
    "我来review",
    "我review",
    "先问我",
];

/// Whether `text` (a sentence of the summary) quotes what the log holds
/// before `at`: a quotation of ten characters or more found there word for
/// word, in a message of its own (an earlier summary quoting it is no
/// support: that is a claim laundered through a summary).
pub(super) fn quotes_the_log(t: &Transcript, at: usize, text: &str) -> bool {
    let quoted: Vec<&str> = text
        .split(['"', '“', '”'])
        .skip(1)
        .step_by(2)
        .map(|q| q.trim().trim_end_matches("..."))
        .filter(|q| q.chars().count() >= 10)
        .collect();
    let summary = |i: usize| t.compactions.iter().any(|c| c.summary == Some(i));
    !quoted.is_empty()
        && quoted.iter().all(|q| {
            t.messages.iter().take(at).enumerate().any(|(i, m)| {
                m.provenance != Provenance::Harness && !summary(i) && m.text.contains(q)
            })
        })
}

/// The spans of `summary` that list what the user said ("6. All user
/// messages:" in Claude Code's summaries, up to the next numbered
/// heading): everything in them is put in the user's mouth.
pub(super) fn user_message_sections(summary: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    let mut at = 0;
    for line in summary.split_inclusive('\n') {
        let t = line.trim();
        let heading = t.split_once(['.', ')']).is_some_and(|(n, rest)| {
            !n.is_empty()
                && n.len() <= 2
                && n.bytes().all(|b| b.is_ascii_digit())
                && rest.starts_with(' ')
        }) || t.starts_with('#');
        if heading {
            if let Some(start) = open.take() {
                out.push(Span::new(start, at));
            }
            let lower = t.to_lowercase();
            if lower.contains("user message") || lower.contains("user's message") {
                open = Some(at + line.len());
            }
        }
        at += line.len();
    }
    if let Some(start) = open {
        out.push(Span::new(start, summary.len()));
    }
    out
}

/// Whether what the user said supports a claim of the summary: the words
/// it quotes are the user's, or the user's words hold half its content.
pub(super) fn supported(
    said: &str,
    said_frame: &crate::judge::frame::Frame,
    claim_text: &str,
    claim: &crate::judge::frame::Frame,
) -> bool {
    let quoted: Vec<&str> = claim_text
        .split(['"', '“', '”'])
        .skip(1)
        .step_by(2)
        .filter(|q| q.trim().chars().count() >= 2)
        .collect();
    if !quoted.is_empty() && quoted.iter().all(|q| said.contains(q.trim())) {
        return true;
    }
    supports_frame(said_frame, claim)
}

/// Whether the user's words (`said`) hold half of `claim`'s content.
pub(super) fn supports_frame(
    said: &crate::judge::frame::Frame,
    claim: &crate::judge::frame::Frame,
) -> bool {
    let keys: alloc::collections::BTreeSet<&str> =
        said.terms.iter().map(|t| t.key.as_str()).collect();
    let total: f64 = claim.terms.iter().map(|t| t.weight()).sum();
    if total == 0.0 {
        return true;
    }
    let got: f64 = claim
        .terms
        .iter()
        .filter(|t| keys.contains(t.key.as_str()))
        .map(|t| t.weight())
        .sum();
    got / total >= 0.5
}
