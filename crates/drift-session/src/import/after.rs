//! The tool calls that ran after a compaction lost the rule governing them.
//!
//! For each action of an import (a consequential tool call that ran) and
//! each rule governing it, the latest compaction before the call that lost
//! the rule (weakened, dropped or contradicts it), when nobody stated the
//! rule again between that compaction and the call. A rule governs a call
//! here only when the call names what the rule names (a shared resource) or
//! is the kind of act the rule speaks of (the rule's words hold the
//! pattern's, "force-push" for `git push --force`): "every rule before it",
//! the import's fallback, is too wide to say a rule was missing.
//!
//! This shows coincidence in the log, not cause: the agent may have had the
//! rule from elsewhere, or broken it with it in view.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Governance, Imported};
use crate::audit::{Fate, SessionAudit};
use crate::transcript::Transcript;

/// A call that ran after a compaction lost its rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionAfterLoss {
    /// The action's id in the scenario.
    pub action: String,
    /// The call, as `tool: command`.
    pub call: String,
    /// Its record (line or item) in the log.
    pub line: usize,
    /// The rule's index in the session's rules.
    pub rule: usize,
    /// The rule's words.
    pub rule_text: String,
    /// What the compaction did to it.
    pub fate: Fate,
    /// The compaction (number, from 1) that lost it.
    pub compaction: usize,
    /// The record of that compaction's marker.
    pub compaction_line: usize,
    /// How the rule governs the call, in words.
    pub governs: String,
}

/// The calls of `imported` (an import of `transcript`, whose audit is
/// `audit`) that ran after a compaction lost a rule governing them.
pub fn actions_after_loss(
    transcript: &Transcript,
    audit: &SessionAudit,
    imported: &Imported,
) -> Vec<ActionAfterLoss> {
    let mut out = Vec::new();
    for (action, guess) in imported.scenario.actions.iter().zip(&imported.actions) {
        let at = guess.origin.place.message;
        for fact_id in &action.governed_by {
            let Some(fact) = imported.facts.iter().find(|f| &f.id == fact_id) else {
                continue;
            };
            let Some(rule) = audit.rules.get(fact.rule) else {
                continue;
            };
            let governs = match &guess.governance {
                Governance::SharedResources(names) => {
                    alloc::format!("it names {}", names.join(", "))
                }
                Governance::EveryConstraintBefore => {
                    let words = guess.pattern.id.replace('-', " ");
                    let lower = rule.text.to_lowercase();
                    if lower.contains(&words)
                        || lower.contains(guess.pattern.id)
                        || lower.contains(&guess.matched.to_lowercase())
                    {
                        alloc::format!("it is a {}, which the rule speaks of", guess.pattern.label)
                    } else {
                        continue;
                    }
                }
            };
            // The latest compaction before the call that judged the rule,
            // when it lost it.
            let latest = transcript
                .compactions
                .iter()
                .zip(&audit.compactions)
                .enumerate()
                .filter(|(_, (c, _))| c.at <= at)
                .filter_map(|(k, (c, a))| {
                    a.rules
                        .iter()
                        .find(|r| r.index == fact.rule)
                        .map(|r| (k, c.at, a.record, r.rule.fate))
                })
                .next_back();
            let Some((k, from, line, fate)) = latest.filter(|l| l.3.is_loss()) else {
                continue;
            };
            // Said again between the compaction and the call: not missing.
            let restated = core::iter::once(&rule.message)
                .chain(&rule.restated)
                .any(|&m| from <= m && m < at);
            if restated {
                continue;
            }
            out.push(ActionAfterLoss {
                action: action.id.clone(),
                call: alloc::format!("{}: {}", guess.tool, guess.command),
                line: guess.origin.record,
                rule: fact.rule,
                rule_text: rule.text.clone(),
                fate,
                compaction: k + 1,
                compaction_line: line,
                governs,
            });
        }
    }
    out
}
