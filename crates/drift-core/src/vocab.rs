//! The model's vocabulary (docs/MODEL.md §1): kinds of fact, transcript roles, and
//! the per-kind retention table.

use core::fmt;

/// What a fact is to the agent. The kind decides how much of the fact one
/// summarisation keeps (its [`Retention`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// "Never restart prod without an approver."
    StandingRule,
    /// An exception to a rule ("except tenant X").
    CarveOut,
    /// The operator corrected an earlier statement.
    Correction,
    /// Which systems, tenants or regions the work may touch.
    Scope,
    /// Progress: what is done, what is next.
    TaskState,
    /// A decision that was taken.
    Commitment,
    /// Why a commitment was taken.
    Rationale,
    /// An option that was ruled out.
    RejectedOption,
    /// A phrase bound to one concrete resource.
    Binding,
}

impl Kind {
    /// Every kind, in the order of docs/MODEL.md's table.
    pub const ALL: [Kind; 9] = [
        Kind::StandingRule,
        Kind::CarveOut,
        Kind::Correction,
        Kind::Scope,
        Kind::TaskState,
        Kind::Commitment,
        Kind::Rationale,
        Kind::RejectedOption,
        Kind::Binding,
    ];

    /// The identifier used in scenario files (`standing_rule`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Kind::StandingRule => "standing_rule",
            Kind::CarveOut => "carve_out",
            Kind::Correction => "correction",
            Kind::Scope => "scope",
            Kind::TaskState => "task_state",
            Kind::Commitment => "commitment",
            Kind::Rationale => "rationale",
            Kind::RejectedOption => "rejected_option",
            Kind::Binding => "binding",
        }
    }

    /// A short human label ("standing rule").
    pub const fn label(self) -> &'static str {
        match self {
            Kind::StandingRule => "standing rule",
            Kind::CarveOut => "carve-out",
            Kind::Correction => "correction",
            Kind::Scope => "scope",
            Kind::TaskState => "task state",
            Kind::Commitment => "commitment",
            Kind::Rationale => "rationale",
            Kind::RejectedOption => "rejected option",
            Kind::Binding => "binding",
        }
    }

    /// Parses a scenario-file identifier.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The default retention of docs/MODEL.md §1.
    pub const fn default_retention(self) -> f64 {
        match self {
            Kind::StandingRule => 0.75,
            Kind::CarveOut => 0.60,
            Kind::Correction => 0.80,
            Kind::Scope => 0.85,
            Kind::TaskState => 0.95,
            Kind::Commitment => 0.85,
            Kind::Rationale => 0.50,
            Kind::RejectedOption => 0.45,
            Kind::Binding => 0.70,
        }
    }

    /// Kinds that the `reinject_constraints` guard restores verbatim.
    pub const fn is_constraint(self) -> bool {
        matches!(self, Kind::StandingRule | Kind::CarveOut | Kind::Correction)
    }

    /// Kinds that the `commitment_audit` guard spills instead of losing.
    pub const fn is_commitment_record(self) -> bool {
        matches!(
            self,
            Kind::Commitment | Kind::Rationale | Kind::RejectedOption
        )
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Who put a fact into the transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The system prompt (turn 0).
    System,
    /// Typed by the operator.
    User,
    /// Written by the agent.
    Assistant,
    /// Returned by a tool call.
    Tool,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 4] = [Role::System, Role::User, Role::Assistant, Role::Tool];

    /// The identifier used in scenario files.
    pub const fn id(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    /// Parses a scenario-file identifier.
    pub fn from_id(id: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.id() == id)
    }

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A set of roles (a policy's `protected_roles`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RoleSet(u8);

impl RoleSet {
    /// No role.
    pub const EMPTY: RoleSet = RoleSet(0);
    /// Only `system`.
    pub const SYSTEM: RoleSet = RoleSet::EMPTY.with(Role::System);
    /// `system` and `user`.
    pub const SYSTEM_USER: RoleSet = RoleSet::SYSTEM.with(Role::User);

    /// This set plus `role`.
    #[must_use]
    pub const fn with(self, role: Role) -> RoleSet {
        RoleSet(self.0 | role.bit())
    }

    /// This set without `role`.
    #[must_use]
    pub const fn without(self, role: Role) -> RoleSet {
        RoleSet(self.0 & !role.bit())
    }

    /// Whether `role` is in the set.
    pub const fn contains(self, role: Role) -> bool {
        self.0 & role.bit() != 0
    }

    /// The roles in the set, in [`Role::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| self.contains(*r))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl FromIterator<Role> for RoleSet {
    fn from_iter<I: IntoIterator<Item = Role>>(iter: I) -> Self {
        iter.into_iter().fold(RoleSet::EMPTY, RoleSet::with)
    }
}

/// Fraction of a fact's operative detail that one summarisation keeps, per
/// [`Kind`]. Every value is in `[0, 1]` once validated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Retention([f64; 9]);

impl Retention {
    /// The retention of `kind`.
    pub const fn get(&self, kind: Kind) -> f64 {
        self.0[kind.index()]
    }

    /// Sets the retention of `kind`.
    pub fn set(&mut self, kind: Kind, value: f64) {
        self.0[kind.index()] = value;
    }

    /// `(kind, retention)` for every kind.
    pub fn iter(&self) -> impl Iterator<Item = (Kind, f64)> + '_ {
        Kind::ALL.into_iter().map(|k| (k, self.get(k)))
    }
}

impl Default for Retention {
    fn default() -> Self {
        let mut values = [0.0; 9];
        for kind in Kind::ALL {
            values[kind.index()] = kind.default_retention();
        }
        Retention(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_id(kind.id()), Some(kind));
            assert_eq!(Kind::ALL[kind.index()], kind);
        }
        for role in Role::ALL {
            assert_eq!(Role::from_id(role.id()), Some(role));
        }
        assert_eq!(Kind::from_id("rule"), None);
        assert_eq!(Role::from_id("System"), None);
    }

    #[test]
    fn default_retention_matches_the_model_table() {
        let r = Retention::default();
        assert_eq!(r.get(Kind::StandingRule), 0.75);
        assert_eq!(r.get(Kind::RejectedOption), 0.45);
        assert_eq!(r.get(Kind::Binding), 0.70);
        assert_eq!(r.iter().count(), 9);
    }

    #[test]
    fn role_sets() {
        let set: RoleSet = [Role::User, Role::System].into_iter().collect();
        assert_eq!(set, RoleSet::SYSTEM_USER);
        assert!(set.contains(Role::User) && !set.contains(Role::Tool));
        assert_eq!(set.without(Role::User), RoleSet::SYSTEM);
        assert_eq!(
            set.iter().collect::<alloc::vec::Vec<_>>(),
            [Role::System, Role::User]
        );
    }
}
