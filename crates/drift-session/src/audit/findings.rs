//! What the audit of one compaction finds, as data: the places it points
//! at, the rules the summary dropped or kept, inventions, unsupported
//! details, changed ids, vanished reasons, and the whole [`Audit`] with its
//! counts and JSON.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use drift_core::Kind;

use crate::entail::ReasoningKind;
use crate::entail::scan::{EntityKind, Span};
use crate::rules::RuleForm;
use crate::transcript::{MessageRole, Provenance, Transcript, TranscriptFormat};

use super::AUDIT_FORMAT;
use super::fates::{Evidence, Fate};

/// Which text of a message a place is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageField {
    /// [`crate::transcript::Message::text`].
    Text,
    /// [`crate::transcript::Message::tool_arguments`].
    Arguments,
}

/// A place in BEFORE: a span of one field of one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Place {
    /// 0-based index into the transcript's messages.
    pub message: usize,
    /// Which text.
    pub field: MessageField,
    /// Where in it.
    pub span: Span,
}

impl Place {
    /// The text at this place, or "" when it does not fit `before`.
    pub fn of(self, before: &Transcript) -> &str {
        before
            .messages
            .get(self.message)
            .map_or("", |m| match self.field {
                MessageField::Text => self.span.of(&m.text),
                MessageField::Arguments => self.span.of(m.tool_arguments.as_deref().unwrap_or("")),
            })
    }
}

/// (a) A rule of BEFORE that AFTER no longer carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DroppedConstraint {
    /// Its first statement.
    pub before: Place,
    /// The sentence.
    pub text: String,
    /// Who stated it.
    pub role: MessageRole,
    /// What the rule does.
    #[serde(serialize_with = "form_id")]
    pub form: RuleForm,
    /// The words that made it a rule.
    pub cue: &'static str,
    /// How many times BEFORE states it.
    pub occurrences: usize,
    /// The AFTER sentence that breaks it, if one does.
    pub contradicted_by: Option<Span>,
    /// The AFTER sentence (or pair) that comes closest to restating it, when
    /// it has at least a quarter of the rule's terms.
    pub closest: Option<Span>,
}

/// A rule of BEFORE and what AFTER did to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleFate {
    /// Its first statement.
    pub before: Place,
    /// The sentence.
    pub text: String,
    /// Who stated it.
    pub role: MessageRole,
    /// Where its text came from.
    pub provenance: Provenance,
    /// What the rule does.
    #[serde(serialize_with = "form_id")]
    pub form: RuleForm,
    /// The words that made it a rule.
    pub cue: &'static str,
    /// The kind of fact it is (the import makes it a fact of this kind).
    #[serde(serialize_with = "kind_id")]
    pub kind: Kind,
    /// How many times BEFORE states it.
    pub occurrences: usize,
    /// Its last statement.
    pub last: Place,
    /// What AFTER did to it.
    pub fate: Fate,
    /// Where AFTER keeps, weakens or breaks it.
    pub evidence: Option<Evidence>,
    /// How sure the judge is of the fate, in thousandths; none when the
    /// fate was decided before the judge read the summary (kept word for
    /// word, put back by the harness).
    pub sure: Option<u16>,
}

fn form_id<S: serde::Serializer>(form: &RuleForm, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(form.id())
}

fn kind_id<S: serde::Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.id())
}

/// A rule AFTER states that BEFORE never gave: an instruction, or what "the
/// user asked" that nobody asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InventedRule {
    /// Where AFTER states it.
    pub after: Span,
    /// As AFTER writes it.
    pub text: String,
    /// What makes it an invention.
    pub why: Invention,
}

/// What makes a sentence of a summary an invented rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Invention {
    /// A rule whose terms nothing before the summary states.
    Unsourced,
    /// A gate on the work nobody set: "once the user confirms", "pending
    /// approval", "blocked until the user lifts it".
    Gate,
    /// The harness's own compaction request ("respond with text only, do
    /// not call any tools") put in the user's mouth.
    HarnessRequest,
    /// A rule attributed to the user that nothing the user said supports.
    PutInMouth,
}

impl Invention {
    /// Why, in words.
    pub const fn words(self) -> &'static str {
        match self {
            Invention::Unsourced => "nothing before the summary states it",
            Invention::Gate => "a gate on the work that nobody set",
            Invention::HarnessRequest => {
                "the harness's own compaction request, put in the user's mouth"
            }
            Invention::PutInMouth => "attributed to the user; nothing the user said supports it",
        }
    }

    /// Whether it stops the work: a gate the agent will wait on.
    pub const fn halts(self) -> bool {
        matches!(self, Invention::Gate)
    }
}

/// (b) A detail of AFTER that BEFORE never mentions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unsupported {
    /// What it is.
    pub kind: EntityKind,
    /// As first written in AFTER.
    pub text: String,
    /// Every place AFTER writes it.
    pub after: Vec<Span>,
    /// A BEFORE id it resembles (see (c)).
    pub lookalike: Option<BeforeMention>,
}

/// An entity as BEFORE writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BeforeMention {
    /// As written.
    pub text: String,
    /// Its first place.
    pub before: Place,
}

/// How an id changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IdChange {
    /// AFTER writes an id BEFORE lacks, which looks like a BEFORE id.
    Changed,
    /// AFTER drops a BEFORE id and gives what BEFORE said about it to
    /// another id.
    Merged,
    /// AFTER gives what BEFORE said about one id to another, and the other
    /// way round.
    Swapped,
}

/// (c) An id that changed or merged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChangedId {
    /// Which.
    pub change: IdChange,
    /// The id in AFTER.
    pub after_text: String,
    /// Where AFTER writes it.
    pub after: Span,
    /// The id of BEFORE that it replaced or absorbed.
    pub before_text: String,
    /// Where BEFORE writes that id (for a merge: the sentence whose content
    /// moved).
    pub before: Place,
}

/// (d) A reason or rejected option whose content AFTER no longer has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VanishedReasoning {
    /// Which.
    pub kind: ReasoningKind,
    /// Its first statement.
    pub before: Place,
    /// The sentence.
    pub text: String,
    /// Who said it.
    pub role: MessageRole,
    /// How many times BEFORE says it.
    pub occurrences: usize,
}

/// What was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AuditCounts {
    /// Messages of BEFORE.
    pub before_messages: usize,
    /// Bytes of BEFORE's texts and arguments.
    pub before_bytes: usize,
    /// Bytes of AFTER.
    pub after_bytes: usize,
    /// Distinct rules found in BEFORE.
    pub constraints: usize,
    /// Of those, carried by AFTER.
    pub constraints_carried: usize,
    /// Distinct checkable details of AFTER.
    pub details: usize,
    /// Of those, supported by BEFORE.
    pub details_supported: usize,
    /// Distinct reasons and rejections found in BEFORE.
    pub reasoning: usize,
    /// Of those, still in AFTER.
    pub reasoning_kept: usize,
}

/// The audit of one compaction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Audit {
    /// The format BEFORE was read as.
    pub before_format: TranscriptFormat,
    /// What was read.
    pub counts: AuditCounts,
    /// Every distinct rule of BEFORE with its fate.
    pub rules: Vec<RuleFate>,
    /// (a) The rules AFTER dropped or contradicts.
    pub dropped_constraints: Vec<DroppedConstraint>,
    /// Rules AFTER states that BEFORE never gave.
    pub invented: Vec<InventedRule>,
    /// (b)
    pub unsupported: Vec<Unsupported>,
    /// (c)
    pub changed_ids: Vec<ChangedId>,
    /// (d)
    pub vanished_reasoning: Vec<VanishedReasoning>,
}

impl Audit {
    /// Whether the summary lost a rule or asserted a detail BEFORE does not
    /// support ((a) or (b) non-empty).
    pub fn drifted(&self) -> bool {
        !self.dropped_constraints.is_empty() || !self.unsupported.is_empty()
    }

    /// Whether the summary weakened, dropped or contradicts a rule, invented
    /// one, or re-bound an id: what `drift audit` exits 1 for.
    pub fn broke_rules(&self) -> bool {
        self.rules.iter().any(|r| r.fate.is_loss())
            || !self.invented.is_empty()
            || self
                .changed_ids
                .iter()
                .any(|c| matches!(c.change, IdChange::Swapped | IdChange::Merged))
    }

    /// The audit as pretty-printed JSON (`compaction-drift/audit@1`): the
    /// fields of [`Audit`] in snake case, spans as `{"start", "end"}` byte
    /// offsets, after a `format` and a `drifted` field.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Wire<'a> {
            format: &'static str,
            drifted: bool,
            before_format: TranscriptFormat,
            counts: &'a AuditCounts,
            rules: &'a [RuleFate],
            dropped_constraints: &'a [DroppedConstraint],
            invented: &'a [InventedRule],
            unsupported: &'a [Unsupported],
            changed_ids: &'a [ChangedId],
            vanished_reasoning: &'a [VanishedReasoning],
        }
        let wire = Wire {
            format: AUDIT_FORMAT,
            drifted: self.drifted(),
            before_format: self.before_format,
            counts: &self.counts,
            rules: &self.rules,
            dropped_constraints: &self.dropped_constraints,
            invented: &self.invented,
            unsupported: &self.unsupported,
            changed_ids: &self.changed_ids,
            vanished_reasoning: &self.vanished_reasoning,
        };
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(&wire).unwrap_or_default()
    }
}
