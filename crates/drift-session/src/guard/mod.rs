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
