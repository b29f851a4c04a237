//! Label files (`eval/real/<log hash>.labels`): what careful reading found
//! in one real log, pointing into it by [`Anchor`]s. The format is
//! `docs/LABELLING.md`'s.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use core::fmt;

use crate::anchor::{Anchor, AnchorError};

/// Which part of the labelled set a log is in: who may learn from it
/// (`docs/LABELLING.md`). Every log of a repository is in the same split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// The first repositories labelled: the hand-written finder and judge
    /// were tuned on them.
    Dev,
    /// Kept apart from tuning once, measured blind, and tuned on since.
    HeldOut,
    /// Labelled for the rule finder first, measured blind once, and tuned
    /// on since.
    Finder,
    /// Repositories no part of the tool was tuned on.
    Unseen,
    /// A fifth of the people, fixed before any part was trained: measured
    /// once, at the end of each change to the finder or the judge.
    Frozen,
}

impl Split {
    /// `dev`, `held_out`, `finder`, `unseen` or `frozen`.
    pub const fn id(self) -> &'static str {
        match self {
            Split::Dev => "dev",
            Split::HeldOut => "held_out",
            Split::Finder => "finder",
            Split::Unseen => "unseen",
            Split::Frozen => "frozen",
        }
    }

    fn parse(s: &str) -> Option<Split> {
        Some(match s {
            "dev" => Split::Dev,
            "held_out" => Split::HeldOut,
            "finder" => Split::Finder,
            "unseen" => Split::Unseen,
            "frozen" => Split::Frozen,
            _ => return None,
        })
    }

    /// Whose figures a log gives for what was tuned by hand.
    pub const fn people(self) -> People {
        match self {
            Split::Dev | Split::HeldOut | Split::Finder => People::Tuned,
            Split::Unseen => People::Unseen,
            Split::Frozen => People::Frozen,
        }
    }
}

/// The people a figure is measured on, for the parts written and tuned by
/// hand (the rule finder's cues, the judge's tables): those they were tuned
/// on (an in-sample figure), those they never saw (the figure across
/// people), and the frozen group, measured once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum People {
    /// Repositories no part was tuned on.
    Unseen,
    /// The frozen group.
    Frozen,
    /// The repositories the hand-written parts were tuned on.
    Tuned,
}

impl People {
    /// Every group, in report order: across people first.
    pub const ALL: [People; 3] = [People::Unseen, People::Frozen, People::Tuned];

    /// `unseen`, `frozen` or `tuned`.
    pub const fn id(self) -> &'static str {
        match self {
            People::Unseen => "unseen",
            People::Frozen => "frozen",
            People::Tuned => "tuned",
        }
    }

    /// For headings: who the figures are measured on.
    pub const fn label(self) -> &'static str {
        match self {
            People::Unseen => "across people, on repositories never tuned on",
            People::Frozen => "the frozen group, measured once",
            People::Tuned => "in-sample, on the repositories tuned on",
        }
    }
}

/// Who gave a labelled rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum By {
    /// Typed by the user: a message, a queued message, a command's arguments.
    User,
    /// A subagent's brief from its parent.
    Brief,
    /// A system or developer prompt.
    System,
    /// An instruction file, a skill, a hook's context.
    Instructions,
    /// Tool output announcing a policy.
    ToolPolicy,
}

impl By {
    /// Every class, in report order.
    pub const ALL: [By; 5] = [
        By::User,
        By::Brief,
        By::System,
        By::Instructions,
        By::ToolPolicy,
    ];

    fn parse(s: &str) -> Option<By> {
        Some(match s {
            "user" | "queued" | "command" | "rejection" | "answer" => By::User,
            "brief" => By::Brief,
            "system" | "developer" => By::System,
            "instruction_file" | "skill" | "hook" => By::Instructions,
            "tool_policy" => By::ToolPolicy,
            _ => return None,
        })
    }

    /// For reports.
    pub const fn label(self) -> &'static str {
        match self {
            By::User => "the user's own words",
            By::Brief => "a subagent's brief",
            By::System => "system and developer prompts",
            By::Instructions => "instruction files, skills, hooks",
            By::ToolPolicy => "policies in tool output",
        }
    }
}

/// What a compaction did to a rule, as labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LabelFate {
    Kept,
    Weakened,
    Dropped,
    Contradicted,
    Reinjected,
    Verbatim,
    Unknown,
    Withdrawn,
}

impl LabelFate {
    fn parse(s: &str) -> Option<LabelFate> {
        Some(match s {
            "kept" => LabelFate::Kept,
            "weakened" => LabelFate::Weakened,
            "dropped" => LabelFate::Dropped,
            "contradicted" => LabelFate::Contradicted,
            "reinjected" => LabelFate::Reinjected,
            "verbatim" => LabelFate::Verbatim,
            "unknown" => LabelFate::Unknown,
            "withdrawn" => LabelFate::Withdrawn,
            _ => return None,
        })
    }

    /// The id, as labels write it.
    pub const fn id(self) -> &'static str {
        match self {
            LabelFate::Kept => "kept",
            LabelFate::Weakened => "weakened",
            LabelFate::Dropped => "dropped",
            LabelFate::Contradicted => "contradicted",
            LabelFate::Reinjected => "reinjected",
            LabelFate::Verbatim => "verbatim",
            LabelFate::Unknown => "unknown",
            LabelFate::Withdrawn => "withdrawn",
        }
    }

    /// Weakened, dropped or contradicted.
    pub const fn is_loss(self) -> bool {
        matches!(
            self,
            LabelFate::Weakened | LabelFate::Dropped | LabelFate::Contradicted
        )
    }

    /// The new context holds it: kept, put back, kept verbatim.
    pub const fn is_carried(self) -> bool {
        matches!(
            self,
            LabelFate::Kept | LabelFate::Reinjected | LabelFate::Verbatim
        )
    }
}

/// A labelled standing rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelRule {
    pub id: String,
    pub anchor: Anchor,
    pub by: By,
    /// As written in the label (`user`, `skill`, …).
    pub by_id: String,
    pub kind: String,
    pub form: String,
    /// Its fate at each compaction (by the compaction's number).
    pub fates: Vec<(usize, LabelFate)>,
    /// Lines where the user stated it again.
    pub restated: Vec<usize>,
}

/// A labelled rule-like sentence that is no standing rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonRule {
    pub anchor: Anchor,
    pub why: String,
}

/// A labelled invented rule: a compaction's summary states it, nobody gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invented {
    pub compaction: usize,
    pub anchor: Anchor,
}

/// One log's labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLabels {
    /// The label file, for messages.
    pub file: String,
    /// FNV-1a 64 of the log's bytes.
    pub hash: u64,
    /// The person: FNV-1a 32 of the repository the log comes from
    /// (`owner/name`).
    pub repo: Option<u32>,
    pub split: Split,
    /// Compactions by number (1-based) and the line of their marker.
    pub compactions: Vec<(usize, usize)>,
    pub rules: Vec<LabelRule>,
    pub nonrules: Vec<NonRule>,
    pub invented: Vec<Invented>,
}

/// A line of a label file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelError {
    pub file: String,
    pub line: usize,
    pub why: String,
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.why)
    }
}

impl core::error::Error for LabelError {}

fn field<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words
        .iter()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

fn line_number(s: &str) -> Option<usize> {
    s.strip_prefix('L')?.parse().ok()
}

impl LogLabels {
    /// Reads a label file's text.
    ///
    /// # Errors
    ///
    /// A [`LabelError`] naming the first line that is not of the format.
    pub fn parse(file: &str, text: &str) -> Result<LogLabels, LabelError> {
        let mut labels = LogLabels {
            file: file.to_string(),
            hash: 0,
            repo: None,
            split: Split::Dev,
            compactions: Vec::new(),
            rules: Vec::new(),
            nonrules: Vec::new(),
            invented: Vec::new(),
        };
        let mut saw_log = false;
        for (i, line) in text.lines().enumerate() {
            let err = |why: String| LabelError {
                file: file.to_string(),
                line: i + 1,
                why,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let anchor = |at: usize| -> Result<Anchor, LabelError> {
                let s = words.get(at).copied().unwrap_or("");
                Anchor::parse(s).map_err(|e: AnchorError| err(e.to_string()))
            };
            match words.first().copied() {
                None => {}
                Some(w) if w.starts_with('#') => {}
                Some("log") => {
                    let hex = words.get(1).copied().unwrap_or("");
                    labels.hash = u64::from_str_radix(hex, 16)
                        .map_err(|_| err(format!("{hex:?} is not a log hash")))?;
                    saw_log = true;
                }
                Some("split") => {
                    let id = words.get(1).copied().unwrap_or("");
                    labels.split = Split::parse(id).ok_or_else(|| {
                        err(format!(
                            "split {id:?}: dev, held_out, finder, unseen or frozen"
                        ))
                    })?;
                }
                Some("repo") => {
                    let hex = words.get(1).copied().unwrap_or("");
                    labels.repo = Some(
                        u32::from_str_radix(hex, 16)
                            .map_err(|_| err(format!("{hex:?} is not a repository's hash")))?,
                    );
                }
                // The harness and its version, for people reading the file.
                Some("harness") => {}
                Some("compaction") => {
                    let n = words.get(1).and_then(|n| n.parse().ok());
                    let at = words.get(2).and_then(|l| line_number(l));
                    match (n, at) {
                        (Some(n), Some(at)) => labels.compactions.push((n, at)),
                        _ => return Err(err("compaction <n> L<line>".into())),
                    }
                }
                Some("rule") => {
                    let id = words.get(1).copied().unwrap_or("").to_string();
                    let anchor = anchor(2)?;
                    let by_id = field(&words, "by").unwrap_or("");
                    let by = By::parse(by_id).ok_or_else(|| err(format!("by={by_id:?}")))?;
                    let mut fates = Vec::new();
                    for part in field(&words, "fates")
                        .unwrap_or("")
                        .split(',')
                        .filter(|p| !p.is_empty())
                    {
                        let (n, fate) = part
                            .split_once(':')
                            .and_then(|(n, f)| Some((n.parse().ok()?, LabelFate::parse(f)?)))
                            .ok_or_else(|| err(format!("fate {part:?}")))?;
                        fates.push((n, fate));
                    }
                    let restated = field(&words, "restated")
                        .unwrap_or("")
                        .split(',')
                        .filter_map(line_number)
                        .collect();
                    labels.rules.push(LabelRule {
                        id,
                        anchor,
                        by,
                        by_id: by_id.to_string(),
                        kind: field(&words, "kind").unwrap_or("").to_string(),
                        form: field(&words, "form").unwrap_or("").to_string(),
                        fates,
                        restated,
                    });
                }
                Some("nonrule") => labels.nonrules.push(NonRule {
                    anchor: anchor(1)?,
                    why: field(&words, "why").unwrap_or("other").to_string(),
                }),
                Some("invented") => {
                    let n = words
                        .get(1)
                        .map(|n| n.trim_start_matches('c'))
                        .and_then(|n| n.parse().ok())
                        .ok_or_else(|| err("invented <compaction> <anchor>".into()))?;
                    labels.invented.push(Invented {
                        compaction: n,
                        anchor: anchor(2)?,
                    });
                }
                Some(other) => return Err(err(format!("{other:?} is not a label"))),
            }
        }
        if !saw_log {
            return Err(LabelError {
                file: file.to_string(),
                line: 1,
                why: "no `log <hash>` line".into(),
            });
        }
        Ok(labels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_file_reads() {
        let text = "log 050a57c87cd47f41\nharness claude_code 2.1.72\nrepo 3c5d07e2\nsplit held_out\ncompaction 1 L107\n\
            rule r1 L2:298-378#4288c85a by=queued kind=standing_rule form=obligation fates=1:kept,2:dropped restated=L9,L12\n\
            nonrule L196:395-414#1aa6f521 why=task\ninvented c1 L108:10-20#00000001\n";
        let l = LogLabels::parse("x.labels", text).unwrap();
        assert_eq!(l.hash, 0x050a_57c8_7cd4_7f41);
        assert_eq!(l.split, Split::HeldOut);
        assert_eq!(l.repo, Some(0x3c5d_07e2));
        assert_eq!(l.split.people(), People::Tuned);
        assert_eq!(l.compactions, [(1, 107)]);
        assert_eq!(l.rules[0].by, By::User);
        assert_eq!(
            l.rules[0].fates,
            [(1, LabelFate::Kept), (2, LabelFate::Dropped)]
        );
        assert_eq!(l.rules[0].restated, [9, 12]);
        assert_eq!(l.nonrules[0].why, "task");
        assert_eq!(l.invented[0].compaction, 1);
        let e = LogLabels::parse("x.labels", "log 1\nrule r1 L2:1-2#0 by=martian\n").unwrap_err();
        assert_eq!((e.line, e.why.as_str()), (2, "by=\"martian\""));
        assert!(LogLabels::parse("x.labels", "split dev\n").is_err());
        let e = LogLabels::parse("x.labels", "log 1\nsplit later\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = LogLabels::parse("x.labels", "log 1\nrepo someone\n").unwrap_err();
        assert_eq!(e.why, "\"someone\" is not a repository's hash");
        let l = LogLabels::parse("x.labels", "log 1\nsplit frozen\n").unwrap();
        assert_eq!(l.split.people(), People::Frozen);
    }
}
