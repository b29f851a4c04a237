//! The commitment ledger: prune prose, never prune commitments.
//!
//! A decision survives a rewrite only as an identifiable object. The ledger
//! keeps each [`Commitment`] with a stable id, and its rationale and rejected
//! options as first-class [`LedgerEntry`]s with ids of their own
//! (`db`, `db/because/1`, `db/rejected/1`). The window holds them as
//! `[id] text` lines ([`CommitmentLedger::window_text`]); a rewrite of the
//! window is read back by id ([`Rewrite::parse`]) and validated against the
//! window it replaces:
//!
//! - an entry the rewrite **drops or alters** must have a durable record
//!   (it was spilled); otherwise the rewrite is refused and the entry is
//!   named in [`RewriteRefused::must_spill`];
//! - an altered entry with a durable record must still be a **weakening**:
//!   its record must entail the new text (else [`RewriteRefused::strengthened`]);
//! - an entry the previous window did not hold is an **assertion** the
//!   rewriter made up (else [`RewriteRefused::asserted`]), unless it restores
//!   a spilled entry word for word.
//!
//! ```
//! use drift_session::LexicalEntailment;
//! use drift_session::{CommitmentLedger, guard::{RewriteChange, Commitment, Rewrite}};
//!
//! let mut ledger = CommitmentLedger::new();
//! ledger
//!     .commit(
//!         Commitment::new("db", "Postgres 14 for the main store.")
//!             .because("The migration tooling requires advisory locks.")
//!             .rejecting("MySQL."),
//!     )
//!     .unwrap();
//!
//! // The pruner keeps the decision and drops its reason and the rejection.
//! let rewrite = Rewrite::parse("Database notes.\n[db] Postgres 14 for the main store.\n");
//! let refused = ledger.validate(&rewrite, &LexicalEntailment).unwrap_err();
//! let ids: Vec<&str> = refused.must_spill.iter().map(|s| s.id.as_str()).collect();
//! assert_eq!(ids, ["db/because/1", "db/rejected/1"]);
//! assert!(refused.must_spill.iter().all(|s| s.change == RewriteChange::Dropped));
//!
//! // Spilled to the durable store, they may leave the window.
//! for id in ids {
//!     ledger.spill(id);
//! }
//! ledger.apply(&rewrite, &LexicalEntailment).unwrap();
//! assert_eq!(ledger.window_text(), "[db] Postgres 14 for the main store.\n");
//! ```

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::push_entry_line;
use crate::entail::Entailment;

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LedgerEntryKind {
    /// A decision that was taken.
    Commitment,
    /// Why it was taken.
    Rationale,
    /// An option that was ruled out.
    RejectedOption,
}

/// A commitment, its rationale and its rejected options, before they enter
/// the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// Its stable id.
    pub id: String,
    /// The decision.
    pub statement: String,
    /// Why.
    pub rationale: Vec<String>,
    /// What was ruled out.
    pub rejected: Vec<String>,
}

impl Commitment {
    /// A decision with its id.
    pub fn new(id: impl Into<String>, statement: impl Into<String>) -> Commitment {
        Commitment {
            id: id.into(),
            statement: statement.into(),
            rationale: Vec::new(),
            rejected: Vec::new(),
        }
    }

    /// Adds a reason.
    pub fn because(mut self, reason: impl Into<String>) -> Commitment {
        self.rationale.push(reason.into());
        self
    }

    /// Adds a rejected option.
    pub fn rejecting(mut self, option: impl Into<String>) -> Commitment {
        self.rejected.push(option.into());
        self
    }
}

/// One first-class entry of the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerEntry {
    /// `db`, `db/because/1`, `db/rejected/2`.
    pub id: String,
    /// What it is.
    pub kind: LedgerEntryKind,
    /// The id of the commitment it belongs to (its own for a commitment).
    pub commitment: String,
    /// Its canonical text.
    pub text: String,
}

id_error! {
    /// Why a commitment was not recorded.
    pub enum CommitmentError {
        /// The id is empty or has characters other than letters, digits, `-`,
        /// `_` and `.`.
        InvalidId => "commitment id \"{id}\" must be non-empty letters, digits, '-', '_' or '.'",
        /// The statement, a reason or a rejected option is empty.
        EmptyText => "entry \"{id}\" has no text",
        /// The id is taken.
        DuplicateId => "a commitment with id \"{id}\" is already recorded",
    }
}

/// A window as rewritten: its entries by id, in order (prose lines are not
/// entries and are ignored).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rewrite {
    /// `(id, text)`, first occurrence of each id.
    pub entries: Vec<(String, String)>,
}

impl Rewrite {
    /// Reads `[id] text` lines (after optional indentation or a list marker);
    /// a later line with an id already read is ignored.
    pub fn parse(text: &str) -> Rewrite {
        let mut out = Rewrite::default();
        for line in text.lines() {
            let line = line.trim_start();
            let line = line
                .strip_prefix("- ")
                .or_else(|| line.strip_prefix("* "))
                .unwrap_or(line);
            let Some(rest) = line.strip_prefix('[') else {
                continue;
            };
            let Some((id, body)) = rest.split_once("] ") else {
                continue;
            };
            if !valid_entry_id(id) || out.entries.iter().any(|(i, _)| i == id) {
                continue;
            }
            out.entries
                .push((id.to_string(), body.trim_end().to_string()));
        }
        out
    }

    /// A rewrite of these entries.
    pub fn of<I: Into<String>, T: Into<String>>(
        entries: impl IntoIterator<Item = (I, T)>,
    ) -> Rewrite {
        Rewrite {
            entries: entries
                .into_iter()
                .map(|(i, t)| (i.into(), t.into()))
                .collect(),
        }
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn valid_entry_id(id: &str) -> bool {
    !id.is_empty() && id.split('/').all(valid_id)
}

/// How a rewrite changed an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RewriteChange {
    /// The rewrite does not hold it.
    Dropped,
    /// The rewrite holds it with another text.
    Altered {
        /// The rewrite's text.
        to: String,
    },
}

/// An entry that must be spilled before the rewrite may drop or alter it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spill {
    /// The entry.
    pub id: String,
    /// What it is.
    pub kind: LedgerEntryKind,
    /// What the rewrite did to it.
    pub change: RewriteChange,
}

/// Why a rewrite was refused; every list names entries by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RewriteRefused {
    /// Entries dropped or altered without a durable record: spill them (or
    /// keep them), then rewrite again.
    pub must_spill: Vec<Spill>,
    /// Ids the previous window did not hold: the rewrite asserts them.
    pub asserted: Vec<String>,
    /// Entries altered into something their record does not entail.
    pub strengthened: Vec<String>,
}

impl fmt::Display for RewriteRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if !self.must_spill.is_empty() {
            let ids: Vec<&str> = self.must_spill.iter().map(|s| s.id.as_str()).collect();
            parts.push(format!(
                "drops or alters {} without a durable record; spill them first",
                ids.join(", ")
            ));
        }
        if !self.asserted.is_empty() {
            parts.push(format!(
                "asserts {}, which the previous window did not hold",
                self.asserted.join(", ")
            ));
        }
        if !self.strengthened.is_empty() {
            parts.push(format!(
                "strengthens {} beyond its record",
                self.strengthened.join(", ")
            ));
        }
        write!(f, "rewrite refused: {}", parts.join("; "))
    }
}

impl core::error::Error for RewriteRefused {}

/// Commitments, their rationale and rejected options; what the window holds
/// of them; and which have a durable record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitmentLedger {
    entries: Vec<LedgerEntry>,
    window: BTreeMap<String, String>,
    durable: BTreeSet<String>,
}

impl CommitmentLedger {
    /// An empty ledger.
    pub fn new() -> CommitmentLedger {
        CommitmentLedger::default()
    }

    /// Records a commitment and puts its entries in the window.
    ///
    /// # Errors
    ///
    /// [`CommitmentError::InvalidId`], [`CommitmentError::EmptyText`] or
    /// [`CommitmentError::DuplicateId`]; the ledger is unchanged.
    pub fn commit(&mut self, c: Commitment) -> Result<(), CommitmentError> {
        if !valid_id(&c.id) {
            return Err(CommitmentError::InvalidId { id: c.id });
        }
        if self.entries.iter().any(|e| e.commitment == c.id) {
            return Err(CommitmentError::DuplicateId { id: c.id });
        }
        let mut new = Vec::with_capacity(1 + c.rationale.len() + c.rejected.len());
        new.push((c.id.clone(), LedgerEntryKind::Commitment, c.statement));
        for (n, r) in c.rationale.into_iter().enumerate() {
            new.push((
                format!("{}/because/{}", c.id, n + 1),
                LedgerEntryKind::Rationale,
                r,
            ));
        }
        for (n, r) in c.rejected.into_iter().enumerate() {
            new.push((
                format!("{}/rejected/{}", c.id, n + 1),
                LedgerEntryKind::RejectedOption,
                r,
            ));
        }
        if let Some((id, _, _)) = new.iter().find(|(_, _, t)| t.trim().is_empty()) {
            return Err(CommitmentError::EmptyText { id: id.clone() });
        }
        for (id, kind, text) in new {
            self.window.insert(id.clone(), text.clone());
            self.entries.push(LedgerEntry {
                id,
                kind,
                commitment: c.id.clone(),
                text,
            });
        }
        Ok(())
    }

    /// Every entry, in the order recorded.
    pub fn entries(&self) -> &[LedgerEntry] {
        &self.entries
    }

    /// The entry with this id.
    pub fn entry(&self, id: &str) -> Option<&LedgerEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// What the window holds: `(id, text)` in the order recorded.
    pub fn window(&self) -> Vec<(&str, &str)> {
        self.entries
            .iter()
            .filter_map(|e| self.window.get(&e.id).map(|t| (e.id.as_str(), t.as_str())))
            .collect()
    }

    /// The window as `[id] text` lines, for the context.
    pub fn window_text(&self) -> String {
        let mut out = String::new();
        for (id, text) in self.window() {
            push_entry_line(&mut out, id, text);
        }
        out
    }

    /// Records that the entry has a durable record (the harness wrote it to
    /// its store); returns it, or `None` for an unknown id.
    pub fn spill(&mut self, id: &str) -> Option<&LedgerEntry> {
        let entry = self.entries.iter().find(|e| e.id == id)?;
        self.durable.insert(entry.id.clone());
        Some(entry)
    }

    /// Whether the entry has a durable record.
    pub fn is_durable(&self, id: &str) -> bool {
        self.durable.contains(id)
    }

    /// Every entry with a durable record, in the order recorded.
    pub fn durable(&self) -> impl Iterator<Item = &LedgerEntry> {
        self.entries.iter().filter(|e| self.durable.contains(&e.id))
    }

    /// Checks a rewrite of the window without changing anything.
    ///
    /// # Errors
    ///
    /// [`RewriteRefused`] naming every entry that must be spilled, every id
    /// the rewrite asserts, every entry it strengthens.
    pub fn validate(
        &self,
        rewrite: &Rewrite,
        entailment: &impl Entailment,
    ) -> Result<(), RewriteRefused> {
        let mut refused = RewriteRefused::default();
        let new: BTreeMap<&str, &str> = rewrite
            .entries
            .iter()
            .map(|(i, t)| (i.as_str(), t.as_str()))
            .collect();
        for e in &self.entries {
            let Some(held) = self.window.get(&e.id) else {
                continue;
            };
            let durable = self.durable.contains(&e.id);
            match new.get(e.id.as_str()) {
                None if durable => {}
                None => refused.must_spill.push(Spill {
                    id: e.id.clone(),
                    kind: e.kind,
                    change: RewriteChange::Dropped,
                }),
                Some(text) if *text == held.as_str() => {}
                Some(text) if !durable => refused.must_spill.push(Spill {
                    id: e.id.clone(),
                    kind: e.kind,
                    change: RewriteChange::Altered {
                        to: (*text).to_string(),
                    },
                }),
                Some(text) => {
                    let j = entailment.judge(text, &e.text);
                    if !(j.entailment >= 0.5 && j.contradiction < 0.5) {
                        refused.strengthened.push(e.id.clone());
                    }
                }
            }
        }
        for (id, text) in &rewrite.entries {
            if self.window.contains_key(id) {
                continue;
            }
            let restored = self
                .entry(id)
                .is_some_and(|e| self.durable.contains(id) && e.text == *text);
            if !restored {
                refused.asserted.push(id.clone());
            }
        }
        if refused == RewriteRefused::default() {
            Ok(())
        } else {
            Err(refused)
        }
    }

    /// Validates a rewrite and, when it passes, makes it the window.
    ///
    /// # Errors
    ///
    /// As [`CommitmentLedger::validate`]; the ledger is unchanged on error.
    pub fn apply(
        &mut self,
        rewrite: &Rewrite,
        entailment: &impl Entailment,
    ) -> Result<(), RewriteRefused> {
        self.validate(rewrite, entailment)?;
        self.window = rewrite.entries.iter().cloned().collect();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::LexicalEntailment;

    fn ledger() -> CommitmentLedger {
        let mut l = CommitmentLedger::new();
        l.commit(
            Commitment::new("db", "Postgres 14 for the main store.")
                .because("The migration tooling requires advisory locks.")
                .rejecting("MySQL."),
        )
        .unwrap();
        l
    }

    #[test]
    fn bad_commitments_are_refused() {
        let mut l = ledger();
        assert_eq!(
            l.commit(Commitment::new("db", "again")),
            Err(CommitmentError::DuplicateId { id: "db".into() })
        );
        assert_eq!(
            l.commit(Commitment::new("a/b", "x")),
            Err(CommitmentError::InvalidId { id: "a/b".into() })
        );
        assert_eq!(
            l.commit(Commitment::new("q", "Queue in Postgres.").because(" ")),
            Err(CommitmentError::EmptyText {
                id: "q/because/1".into()
            })
        );
        assert_eq!(l.entries().len(), 3);
    }

    #[test]
    fn altering_without_a_record_must_spill() {
        let l = ledger();
        let mut rewrite = Rewrite::parse(&l.window_text());
        rewrite.entries[0].1 = "Postgres for the main store.".into();
        let refused = l.validate(&rewrite, &LexicalEntailment).unwrap_err();
        assert_eq!(
            refused.must_spill,
            [Spill {
                id: "db".into(),
                kind: LedgerEntryKind::Commitment,
                change: RewriteChange::Altered {
                    to: "Postgres for the main store.".into()
                }
            }]
        );
        assert_eq!(
            refused.to_string(),
            "rewrite refused: drops or alters db without a durable record; spill them first"
        );
    }

    #[test]
    fn with_a_record_a_rewrite_may_weaken_but_not_strengthen() {
        let mut l = ledger();
        l.spill("db");
        let weaker = Rewrite::parse(
            "[db] Postgres for the main store.\n[db/because/1] The migration tooling requires advisory locks.\n[db/rejected/1] MySQL.",
        );
        assert_eq!(l.validate(&weaker, &LexicalEntailment), Ok(()));
        let stronger = Rewrite::parse(
            "[db] Postgres 15 with JSONB for the main store.\n[db/because/1] The migration tooling requires advisory locks.\n[db/rejected/1] MySQL.",
        );
        let refused = l.validate(&stronger, &LexicalEntailment).unwrap_err();
        assert_eq!(refused.strengthened, ["db"]);
    }

    #[test]
    fn new_ids_are_assertions_unless_they_restore_a_record() {
        let mut l = ledger();
        let mut text = l.window_text();
        text.push_str("[cache] Redis for sessions.\n");
        let refused = l
            .validate(&Rewrite::parse(&text), &LexicalEntailment)
            .unwrap_err();
        assert_eq!(refused.asserted, ["cache"]);
        // Spill and drop the rejection, then restore it word for word.
        l.spill("db/rejected/1");
        let without = Rewrite::parse(
            "[db] Postgres 14 for the main store.\n[db/because/1] The migration tooling requires advisory locks.",
        );
        l.apply(&without, &LexicalEntailment).unwrap();
        assert_eq!(l.window().len(), 2);
        let restored = Rewrite::parse(&alloc::format!(
            "{}[db/rejected/1] MySQL.\n",
            l.window_text()
        ));
        assert_eq!(l.validate(&restored, &LexicalEntailment), Ok(()));
        let altered = Rewrite::parse(&alloc::format!(
            "{}[db/rejected/1] MySQL 5.\n",
            l.window_text()
        ));
        assert_eq!(
            l.validate(&altered, &LexicalEntailment)
                .unwrap_err()
                .asserted,
            ["db/rejected/1"]
        );
    }

    #[test]
    fn parse_reads_tagged_lines_only() {
        let r = Rewrite::parse(
            "Notes\n- [a] one\n  [b/because/1] two \n[bad id] x\n[a] again\n[c]no space",
        );
        assert_eq!(
            r.entries,
            [
                ("a".to_string(), "one".to_string()),
                ("b/because/1".to_string(), "two".to_string())
            ]
        );
    }
}
