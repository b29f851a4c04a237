//! Runtime guards a harness can call, one per way compaction fails.
//!
//! The simulation models what these guards buy ([`drift_core::Guards`]); this
//! module is the guards themselves, for a harness to run around a real
//! model. Each is plain data with methods, no I/O: the harness owns the
//! clock, the storage and the model, and asks the guard before it acts.
//!
//! | guard | failure it stops | call it |
//! | --- | --- | --- |
//! | [`BindingLedger`] | a phrase ("the staging database") silently re-bound to another resource | before every consequential action on a resource |
//! | [`ConstraintStore`] | a rule evaporating from the summary | after every compaction, to re-inject the exact block |
//! | [`BoundaryGate`] | a summary asserting history the transcript does not support, and claims laundered through summaries of summaries | at every compaction boundary, and before irreversible actions |
//! | [`CommitmentLedger`] | a rewrite dropping a decision's reason or a rejected option | on every rewrite of the window |
//!
//! Every refusal is a typed error that says what to do next: which
//! candidates a phrase now matches, which claim is fabricated, which
//! commitments must be spilled.

/// An error of a guard that keeps entries by id: the id refused, an entry
/// without text, the id taken. Each guard gives its own messages (format
/// strings naming `{id}`) and its own word for what makes an id valid.
macro_rules! id_error {
    (
        $(#[$doc:meta])*
        pub enum $name:ident {
            $(#[$invalid_doc:meta])*
            InvalidId => $invalid:literal,
            $(#[$empty_doc:meta])*
            EmptyText => $empty:literal,
            $(#[$duplicate_doc:meta])*
            DuplicateId => $duplicate:literal $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum $name {
            $(#[$invalid_doc])*
            InvalidId {
                /// As given.
                id: String,
            },
            $(#[$empty_doc])*
            EmptyText {
                /// The entry's id.
                id: String,
            },
            $(#[$duplicate_doc])*
            DuplicateId {
                /// The id.
                id: String,
            },
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $name::InvalidId { id } => write!(f, $invalid, id = id),
                    $name::EmptyText { id } => write!(f, $empty, id = id),
                    $name::DuplicateId { id } => write!(f, $duplicate, id = id),
                }
            }
        }

        impl core::error::Error for $name {}
    };
}

mod binding;
mod boundary;
mod commitment;
mod constraint;

pub use binding::{
    Belief, BeliefClass, BindingError, BindingLedger, Inventory, InventoryResource, Resolution,
};
pub use boundary::{
    BoundaryError, BoundaryGate, BoundaryReport, Claim, ClaimReason, ClaimReport, ClaimStatus,
    GateSettings, UnverifiedTag,
};
pub use commitment::{
    Commitment, CommitmentError, CommitmentLedger, LedgerEntry, LedgerEntryKind, Rewrite,
    RewriteChange, RewriteRefused, Spill,
};
pub use constraint::{
    BLOCK_CLOSE, BLOCK_OPEN, BLOCK_PREAMBLE, Constraint, ConstraintError, ConstraintStore,
};

/// Appends the `[id] text` line a guard holds an entry as in the context
/// (read back by [`Rewrite::parse`]).
fn push_entry_line(out: &mut alloc::string::String, id: &str, text: &str) {
    out.push('[');
    out.push_str(id);
    out.push_str("] ");
    out.push_str(text);
    out.push('\n');
}
