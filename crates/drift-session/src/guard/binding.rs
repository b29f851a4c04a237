//! The binding ledger: a compacted summary is trustworthy as a story and
//! untrustworthy as a pointer.
//!
//! The agent's beliefs are *narrative* (what the session is about, what was
//! tried: safe to inherit from a summary) or *binding* (this phrase names
//! that resource: never inherited, re-derived from ground truth at the
//! moment of use). The ledger records each belief with the compaction depth
//! at which it was inherited; [`BindingLedger::resolve`] answers a phrase
//! only from the [`Inventory`] the harness supplies, and fails loudly when
//! the phrase matches nothing, or several resources of its class.
//!
//! A phrase matches a resource when every content word of the phrase
//! (function words dropped, light stemming, `db` = `database`, `prod` =
//! `production`) is a word of one of the resource's names, of its id, or of
//! its class: "the staging database" matches `db-staging-01` named "staging
//! database"; "the database" matches every database.
//!
//! ```
//! use drift_session::{BindingLedger, guard::{BindingError, Inventory}};
//!
//! let inventory = Inventory::new()
//!     .with("db-staging-01", "database", ["staging database"])
//!     .with("db-prod-01", "database", ["production database"]);
//! let mut ledger = BindingLedger::new();
//!
//! // A summary three generations deep rewrote "the staging database" as
//! // "the database".
//! ledger.inherit_binding("the database", "db-staging-01", "database", 3);
//! let err = ledger.resolve("the database", &inventory).unwrap_err();
//! assert_eq!(
//!     err,
//!     BindingError::Ambiguous {
//!         phrase: "the database".into(),
//!         class: "database".into(),
//!         candidates: vec!["db-staging-01".into(), "db-prod-01".into()],
//!         depth: 3,
//!     }
//! );
//!
//! // The precise phrase resolves, from the inventory, not from the summary.
//! ledger.inherit_binding("the staging database", "db-prod-01", "database", 3);
//! let r = ledger.resolve("the staging database", &inventory).unwrap();
//! assert_eq!(r.resource, "db-staging-01");
//! assert_eq!(r.drifted_from.as_deref(), Some("db-prod-01"));
//! ```

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::entail::lexicon;

/// Whether a belief may be used as a pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BeliefClass {
    /// What the session is about: safe to inherit, never a pointer.
    Narrative,
    /// Which concrete resource a phrase names: re-derived before use.
    Binding,
}

/// A belief as the ledger records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Belief {
    /// Safe to inherit; never resolves.
    Narrative {
        /// Compaction generations since it was read from a primary source.
        depth: u32,
    },
    /// A phrase bound to a resource of a class.
    Binding {
        /// The resource the agent believes the phrase names.
        resource: String,
        /// Its class (`database`, `ticket`, …).
        class: String,
        /// Compaction generations since it was read from a primary source.
        depth: u32,
    },
}

impl Belief {
    /// Narrative or binding.
    pub const fn class(&self) -> BeliefClass {
        match self {
            Belief::Narrative { .. } => BeliefClass::Narrative,
            Belief::Binding { .. } => BeliefClass::Binding,
        }
    }

    /// Compaction generations since it was read from a primary source.
    pub const fn depth(&self) -> u32 {
        match self {
            Belief::Narrative { depth } | Belief::Binding { depth, .. } => *depth,
        }
    }

    fn deepen(&mut self) {
        match self {
            Belief::Narrative { depth } | Belief::Binding { depth, .. } => {
                *depth = depth.saturating_add(1);
            }
        }
    }
}

/// One resource of the ground truth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InventoryResource {
    /// Its canonical id.
    pub id: String,
    /// Its class.
    pub class: String,
    /// What people call it ("staging database"); the id counts as a name too.
    pub names: Vec<String>,
}

/// The ground truth a harness can query: resources, never summarised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inventory {
    resources: Vec<InventoryResource>,
}

/// The content words of a phrase, stemmed.
fn words(phrase: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in phrase
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let lower = w.to_lowercase();
        if lexicon::is_stopword(&lower) {
            continue;
        }
        let s = lexicon::stem(&lower);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

impl Inventory {
    /// An empty inventory.
    pub fn new() -> Inventory {
        Inventory::default()
    }

    /// Adds a resource (builder style).
    pub fn with<N: Into<String>>(
        mut self,
        id: impl Into<String>,
        class: impl Into<String>,
        names: impl IntoIterator<Item = N>,
    ) -> Inventory {
        self.add(id, class, names);
        self
    }

    /// Adds a resource.
    pub fn add<N: Into<String>>(
        &mut self,
        id: impl Into<String>,
        class: impl Into<String>,
        names: impl IntoIterator<Item = N>,
    ) {
        self.resources.push(InventoryResource {
            id: id.into(),
            class: class.into(),
            names: names.into_iter().map(Into::into).collect(),
        });
    }

    /// Every resource, in the order added.
    pub fn resources(&self) -> &[InventoryResource] {
        &self.resources
    }

    /// The resources of `class` that `phrase` matches, in the order added.
    /// The class itself is a name of every resource of it ("the login
    /// timeout ticket"). A phrase without content words matches nothing.
    pub fn matches(&self, phrase: &str, class: &str) -> Vec<&InventoryResource> {
        let class_words = words(class);
        let mut wanted = words(phrase);
        if wanted.is_empty() {
            return Vec::new();
        }
        wanted.retain(|w| !class_words.contains(w));
        self.resources
            .iter()
            .filter(|r| r.class.eq_ignore_ascii_case(class))
            .filter(|r| {
                core::iter::once(&r.id).chain(&r.names).any(|name| {
                    let have = words(name);
                    wanted.iter().all(|w| have.contains(w))
                })
            })
            .collect()
    }
}

/// A phrase resolved against the ground truth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The phrase.
    pub phrase: String,
    /// The resource the inventory says it names.
    pub resource: String,
    /// Its class.
    pub class: String,
    /// The belief's depth when it was resolved.
    pub depth: u32,
    /// The resource the ledger believed instead, when it differs: the
    /// antecedent drifted, and the inventory won.
    pub drifted_from: Option<String>,
}

/// Why a phrase may not be used as a pointer. Each variant names the phrase
/// and the belief's depth.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BindingError {
    /// The ledger has no belief for the phrase.
    Unknown {
        /// The phrase.
        phrase: String,
    },
    /// The belief is narrative: a story, not a pointer.
    Narrative {
        /// The phrase.
        phrase: String,
        /// Its depth.
        depth: u32,
    },
    /// No resource of the class matches the phrase any more.
    Missing {
        /// The phrase.
        phrase: String,
        /// The class it was bound in.
        class: String,
        /// The resource the ledger believed.
        believed: String,
        /// Its depth.
        depth: u32,
    },
    /// Several resources of the class match: the antecedent may have been
    /// reassigned.
    Ambiguous {
        /// The phrase.
        phrase: String,
        /// The class.
        class: String,
        /// Every matching resource, in inventory order.
        candidates: Vec<String>,
        /// Its depth.
        depth: u32,
    },
}

impl fmt::Display for BindingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BindingError::Unknown { phrase } => write!(
                f,
                "\"{phrase}\" is not a recorded binding; refusing to use it as a pointer"
            ),
            BindingError::Narrative { phrase, depth } => write!(
                f,
                "\"{phrase}\" is a narrative belief (depth {depth}), not a binding; refusing to use it as a pointer"
            ),
            BindingError::Missing {
                phrase,
                class,
                believed,
                depth,
            } => write!(
                f,
                "\"{phrase}\" matches no {class} in the inventory (believed {believed} after {depth} compaction(s)); the antecedent may have been reassigned"
            ),
            BindingError::Ambiguous {
                phrase,
                class,
                candidates,
                depth,
            } => {
                write!(
                    f,
                    "\"{phrase}\" matches {} of class {class} after {depth} compaction(s): ",
                    candidates.len()
                )?;
                for (i, c) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(c)?;
                }
                f.write_str("; name the resource precisely")
            }
        }
    }
}

impl core::error::Error for BindingError {}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Recorded {
    phrase: String,
    belief: Belief,
}

/// The agent's beliefs, by phrase (compared without case or extra spaces).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BindingLedger {
    beliefs: BTreeMap<String, Recorded>,
}

fn key(phrase: &str) -> String {
    let mut out = String::with_capacity(phrase.len());
    for w in phrase.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&w.to_lowercase());
    }
    out
}

impl BindingLedger {
    /// An empty ledger.
    pub fn new() -> BindingLedger {
        BindingLedger::default()
    }

    /// Records a belief (replacing any belief for the same phrase).
    pub fn record(&mut self, phrase: &str, belief: Belief) {
        self.beliefs.insert(
            key(phrase),
            Recorded {
                phrase: phrase.to_string(),
                belief,
            },
        );
    }

    /// Records a binding read from a primary source (depth 0).
    pub fn bind(&mut self, phrase: &str, resource: &str, class: &str) {
        self.inherit_binding(phrase, resource, class, 0);
    }

    /// Records a binding inherited from a summary `depth` generations deep.
    pub fn inherit_binding(&mut self, phrase: &str, resource: &str, class: &str, depth: u32) {
        self.record(
            phrase,
            Belief::Binding {
                resource: resource.to_string(),
                class: class.to_string(),
                depth,
            },
        );
    }

    /// Records a narrative belief inherited `depth` generations deep.
    pub fn inherit_narrative(&mut self, phrase: &str, depth: u32) {
        self.record(phrase, Belief::Narrative { depth });
    }

    /// A compaction happened: every belief is one generation deeper.
    pub fn compacted(&mut self) {
        for r in self.beliefs.values_mut() {
            r.belief.deepen();
        }
    }

    /// The belief recorded for a phrase.
    pub fn belief(&self, phrase: &str) -> Option<&Belief> {
        self.beliefs.get(&key(phrase)).map(|r| &r.belief)
    }

    /// Every recorded phrase and belief, by phrase.
    pub fn beliefs(&self) -> impl Iterator<Item = (&str, &Belief)> {
        self.beliefs
            .values()
            .map(|r| (r.phrase.as_str(), &r.belief))
    }

    /// Resolves a phrase against the ground truth, never against the
    /// ledger's own memory of it.
    ///
    /// # Errors
    ///
    /// [`BindingError::Unknown`] for a phrase never recorded,
    /// [`BindingError::Narrative`] for a narrative belief,
    /// [`BindingError::Missing`] when no resource of the binding's class
    /// matches, [`BindingError::Ambiguous`] when several do.
    pub fn resolve(&self, phrase: &str, inventory: &Inventory) -> Result<Resolution, BindingError> {
        let Some(recorded) = self.beliefs.get(&key(phrase)) else {
            return Err(BindingError::Unknown {
                phrase: phrase.to_string(),
            });
        };
        let (believed, class, depth) = match &recorded.belief {
            Belief::Narrative { depth } => {
                return Err(BindingError::Narrative {
                    phrase: phrase.to_string(),
                    depth: *depth,
                });
            }
            Belief::Binding {
                resource,
                class,
                depth,
            } => (resource, class, *depth),
        };
        match inventory.matches(phrase, class).as_slice() {
            [] => Err(BindingError::Missing {
                phrase: phrase.to_string(),
                class: class.clone(),
                believed: believed.clone(),
                depth,
            }),
            [one] => Ok(Resolution {
                phrase: phrase.to_string(),
                resource: one.id.clone(),
                class: class.clone(),
                depth,
                drifted_from: (one.id != *believed).then(|| believed.clone()),
            }),
            many => Err(BindingError::Ambiguous {
                phrase: phrase.to_string(),
                class: class.clone(),
                candidates: many.iter().map(|r| r.id.clone()).collect(),
                depth,
            }),
        }
    }

    /// Resolves a phrase (see [`BindingLedger::resolve`]) and records the
    /// answer as a fresh binding at depth 0: the belief is now primary.
    ///
    /// # Errors
    ///
    /// As [`BindingLedger::resolve`]; the ledger is unchanged on error.
    pub fn confirm(
        &mut self,
        phrase: &str,
        inventory: &Inventory,
    ) -> Result<Resolution, BindingError> {
        let r = self.resolve(phrase, inventory)?;
        let phrase_as_recorded = self
            .beliefs
            .get(&key(phrase))
            .map_or_else(|| phrase.to_string(), |x| x.phrase.clone());
        self.inherit_binding(&phrase_as_recorded, &r.resource, &r.class, 0);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn inventory() -> Inventory {
        Inventory::new()
            .with(
                "db-staging-01",
                "database",
                ["staging database", "staging db"],
            )
            .with("db-prod-01", "database", ["production database"])
            .with("T-14", "ticket", ["login timeout"])
            .with("T-41", "ticket", ["CSV export"])
    }

    #[test]
    fn matching_uses_names_ids_and_synonyms() {
        let inv = inventory();
        let ids = |p: &str, c: &str| -> Vec<String> {
            inv.matches(p, c).iter().map(|r| r.id.clone()).collect()
        };
        assert_eq!(ids("the staging database", "database"), ["db-staging-01"]);
        assert_eq!(ids("the prod DB", "database"), ["db-prod-01"]);
        assert_eq!(ids("db-staging-01", "database"), ["db-staging-01"]);
        assert_eq!(
            ids("the database", "database"),
            ["db-staging-01", "db-prod-01"]
        );
        assert_eq!(ids("the database", "ticket"), Vec::<String>::new());
        assert_eq!(ids("it", "database"), Vec::<String>::new());
        assert_eq!(ids("the login timeout ticket", "ticket"), ["T-14"]);
        assert_eq!(ids("the ticket", "ticket"), ["T-14", "T-41"]);
        assert_eq!(ids("the login timeout", "ticket"), ["T-14"]);
    }

    #[test]
    fn narrative_is_never_a_pointer() {
        let mut l = BindingLedger::new();
        l.inherit_narrative("the staging database", 2);
        assert_eq!(
            l.resolve("the staging database", &inventory()),
            Err(BindingError::Narrative {
                phrase: "the staging database".into(),
                depth: 2
            })
        );
    }

    #[test]
    fn missing_and_unknown_are_errors() {
        let mut l = BindingLedger::new();
        l.inherit_binding("the analytics warehouse", "wh-01", "database", 4);
        let err = l
            .resolve("the analytics warehouse", &inventory())
            .unwrap_err();
        assert_eq!(
            err,
            BindingError::Missing {
                phrase: "the analytics warehouse".into(),
                class: "database".into(),
                believed: "wh-01".into(),
                depth: 4
            }
        );
        assert!(err.to_string().contains("after 4 compaction(s)"));
        assert!(matches!(
            l.resolve("something else", &inventory()),
            Err(BindingError::Unknown { .. })
        ));
    }

    #[test]
    fn depth_grows_with_compactions_and_confirm_resets_it() {
        let mut l = BindingLedger::new();
        l.bind("The Staging  Database", "db-prod-01", "database");
        l.compacted();
        l.compacted();
        assert_eq!(l.belief("the staging database").map(Belief::depth), Some(2));
        let r = l.confirm("the staging database", &inventory()).unwrap();
        assert_eq!(r.depth, 2);
        assert_eq!(r.drifted_from, Some("db-prod-01".into()));
        assert_eq!(
            l.belief("the staging database"),
            Some(&Belief::Binding {
                resource: "db-staging-01".into(),
                class: "database".into(),
                depth: 0
            })
        );
        let phrases: Vec<&str> = l.beliefs().map(|(p, _)| p).collect();
        assert_eq!(phrases, vec!["The Staging  Database"]);
    }

    #[test]
    fn ambiguity_names_every_candidate() {
        let mut l = BindingLedger::new();
        l.inherit_binding("the database", "db-staging-01", "database", 3);
        let err = l.resolve("the database", &inventory()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"the database\" matches 2 of class database after 3 compaction(s): db-staging-01, db-prod-01; name the resource precisely"
        );
    }
}
