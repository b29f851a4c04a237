//! The constraint store: rules kept out of band, never summarised, and
//! re-injected verbatim after every compaction.
//!
//! Negative constraints are the highest-value, lowest-frequency content of a
//! session, and summarisers drop them first. The store keeps each one with a
//! stable id exactly as it was given; [`ConstraintStore::block`] is the
//! exact text to put back into the context after a compaction (the same
//! store always gives the same bytes), and [`ConstraintStore::missing_from`]
//! says which rules a context no longer carries word for word.
//!
//! ```
//! use drift_session::ConstraintStore;
//!
//! let mut store = ConstraintStore::new();
//! store.add("freeze", "payments-api is in a change freeze until 2026-01-05.").unwrap();
//! store.add("dry-run", "Never call the payment endpoint without a dry-run flag first.").unwrap();
//!
//! let summary = "Investigating payments-api latency; p99 is 840ms.";
//! assert_eq!(store.missing_from(summary).len(), 2);
//!
//! let context = store.reinject(summary);
//! assert!(store.missing_from(&context).is_empty());
//! assert_eq!(
//!     store.block(),
//!     "<standing-constraints>\n\
//!      These rules are kept outside the summary and restored word for word after every compaction. They hold until the operator lifts them.\n\
//!      [freeze] payments-api is in a change freeze until 2026-01-05.\n\
//!      [dry-run] Never call the payment endpoint without a dry-run flag first.\n\
//!      </standing-constraints>\n"
//! );
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::push_entry_line;

/// The first line of the re-injected block.
pub const BLOCK_OPEN: &str = "<standing-constraints>";
/// The line under it, for the model.
pub const BLOCK_PREAMBLE: &str = "These rules are kept outside the summary and restored word for word after every compaction. They hold until the operator lifts them.";
/// The last line of the re-injected block.
pub const BLOCK_CLOSE: &str = "</standing-constraints>";

/// One rule, exactly as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// Its stable id.
    pub id: String,
    /// Its text, verbatim.
    pub text: String,
}

id_error! {
    /// Why a constraint was not added.
    pub enum ConstraintError {
        /// The id is empty, or has whitespace or brackets (it is printed as
        /// `[id]`).
        InvalidId => "constraint id \"{id}\" must be non-empty, without whitespace or brackets",
        /// The text is empty or only whitespace.
        EmptyText => "constraint \"{id}\" has no text",
        /// Another constraint has the id.
        DuplicateId => "a constraint with id \"{id}\" is already stored",
    }
}

/// Rules kept out of band, in the order added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstraintStore {
    constraints: Vec<Constraint>,
}

impl ConstraintStore {
    /// An empty store.
    pub fn new() -> ConstraintStore {
        ConstraintStore::default()
    }

    /// Stores a rule verbatim.
    ///
    /// # Errors
    ///
    /// [`ConstraintError::InvalidId`], [`ConstraintError::EmptyText`] or
    /// [`ConstraintError::DuplicateId`]; the store is unchanged.
    pub fn add(&mut self, id: &str, text: &str) -> Result<(), ConstraintError> {
        if id.is_empty()
            || id
                .chars()
                .any(|c| c.is_whitespace() || c == '[' || c == ']')
        {
            return Err(ConstraintError::InvalidId { id: id.to_string() });
        }
        if text.trim().is_empty() {
            return Err(ConstraintError::EmptyText { id: id.to_string() });
        }
        if self.get(id).is_some() {
            return Err(ConstraintError::DuplicateId { id: id.to_string() });
        }
        self.constraints.push(Constraint {
            id: id.to_string(),
            text: text.to_string(),
        });
        Ok(())
    }

    /// Lifts a rule (the operator withdrew it); returns it.
    pub fn remove(&mut self, id: &str) -> Option<Constraint> {
        let i = self.constraints.iter().position(|c| c.id == id)?;
        Some(self.constraints.remove(i))
    }

    /// The rule with this id.
    pub fn get(&self, id: &str) -> Option<&Constraint> {
        self.constraints.iter().find(|c| c.id == id)
    }

    /// Every rule, in the order added.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// How many rules.
    pub fn len(&self) -> usize {
        self.constraints.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty()
    }

    /// The exact block to re-inject after a compaction: [`BLOCK_OPEN`],
    /// [`BLOCK_PREAMBLE`], one `[id] text` line per rule in the order added
    /// (a rule's own line breaks kept), [`BLOCK_CLOSE`], each ending in a
    /// newline. Empty when the store is.
    pub fn block(&self) -> String {
        if self.constraints.is_empty() {
            return String::new();
        }
        let size: usize = self
            .constraints
            .iter()
            .map(|c| c.id.len() + c.text.len() + 4)
            .sum();
        let mut out = String::with_capacity(
            size + BLOCK_OPEN.len() + BLOCK_PREAMBLE.len() + BLOCK_CLOSE.len() + 3,
        );
        out.push_str(BLOCK_OPEN);
        out.push('\n');
        out.push_str(BLOCK_PREAMBLE);
        out.push('\n');
        for c in &self.constraints {
            push_entry_line(&mut out, &c.id, &c.text);
        }
        out.push_str(BLOCK_CLOSE);
        out.push('\n');
        out
    }

    /// A compacted context: the block first (so nothing in the summary can
    /// come before the rules), then the summary unchanged.
    pub fn reinject(&self, summary: &str) -> String {
        let mut out = self.block();
        if !out.is_empty() && !summary.is_empty() {
            out.push('\n');
        }
        out.push_str(summary);
        out
    }

    /// The rules that `context` does not contain word for word.
    pub fn missing_from(&self, context: &str) -> Vec<&Constraint> {
        self.constraints
            .iter()
            .filter(|c| !context.contains(c.text.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_refused() {
        let mut s = ConstraintStore::new();
        assert_eq!(
            s.add("", "x"),
            Err(ConstraintError::InvalidId { id: String::new() })
        );
        assert_eq!(
            s.add("a b", "x"),
            Err(ConstraintError::InvalidId { id: "a b".into() })
        );
        assert_eq!(
            s.add("a", "  "),
            Err(ConstraintError::EmptyText { id: "a".into() })
        );
        s.add("a", "Never x.").unwrap();
        assert_eq!(
            s.add("a", "Never y."),
            Err(ConstraintError::DuplicateId { id: "a".into() })
        );
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn an_empty_store_injects_nothing() {
        let s = ConstraintStore::new();
        assert_eq!(s.block(), "");
        assert_eq!(s.reinject("summary"), "summary");
    }

    #[test]
    fn lifted_rules_leave_the_block() {
        let mut s = ConstraintStore::new();
        s.add("a", "Never x.").unwrap();
        s.add("b", "Always y.").unwrap();
        assert_eq!(s.remove("a").map(|c| c.text), Some("Never x.".into()));
        assert!(!s.block().contains("Never x."));
        assert!(s.block().contains("[b] Always y.\n"));
        assert_eq!(s.remove("a"), None);
    }
}
