//! The page's state: which scenario, with which changes, in which view.
//!
//! [`PageState`] is what the simulator shows and what a link carries; the
//! codec that writes it into a link and reads it back is [`crate::link`].

use drift_core::{Preset, Remedy, RemedyHarness, Scenario, builtin};

/// Which view the page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tab {
    /// One fidelity row per fact.
    #[default]
    Timelines,
    /// The rounds table.
    Rounds,
    /// Scenario × preset outcome counts.
    Matrix,
    /// The current policy against another preset.
    Compare,
    /// The harness's remedy: to paste, and applied in the simulation.
    Fix,
}

impl Tab {
    /// Every tab, in display order.
    pub const ALL: [Tab; 5] = [
        Tab::Timelines,
        Tab::Rounds,
        Tab::Matrix,
        Tab::Compare,
        Tab::Fix,
    ];

    /// The identifier in links.
    pub const fn id(self) -> &'static str {
        match self {
            Tab::Timelines => "timelines",
            Tab::Rounds => "rounds",
            Tab::Matrix => "matrix",
            Tab::Compare => "compare",
            Tab::Fix => "fix",
        }
    }

    /// The label on the tab.
    pub const fn label(self) -> &'static str {
        match self {
            Tab::Timelines => "Timelines",
            Tab::Rounds => "Rounds",
            Tab::Matrix => "Matrix",
            Tab::Compare => "Compare",
            Tab::Fix => "Fix it",
        }
    }

    /// Reads a tab's identifier.
    pub fn from_id(id: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// Where the scenario comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ScenarioSource {
    /// A built-in scenario, by id.
    Builtin(String),
    /// A file the user imported, carried whole.
    Imported(Box<Scenario>),
}

impl ScenarioSource {
    /// The scenario as it was loaded, before any change in the page.
    pub fn scenario(&self) -> Option<Scenario> {
        match self {
            ScenarioSource::Builtin(id) => builtin(id),
            ScenarioSource::Imported(s) => Some(s.as_ref().clone()),
        }
    }
}

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct PageState {
    /// The scenario as loaded.
    pub source: ScenarioSource,
    /// The scenario with every change made in the page.
    pub scenario: Scenario,
    /// The visible tab.
    pub tab: Tab,
    /// The preset the compare view sets against the current policy.
    pub compare: Preset,
    /// The remedy applied in the simulation, if any.
    pub fix: Option<Fix>,
}

/// A harness's remedy, applied in the simulation: the run on screen is that
/// of [`drift_core::apply_remedy`]'s scenario with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    /// The harness.
    pub harness: RemedyHarness,
    /// Its remedy.
    pub remedy: Remedy,
}

impl Fix {
    /// The identifier in links: `claude_code.restate_hook`.
    pub fn id(self) -> String {
        format!("{}.{}", self.harness.id(), self.remedy.id())
    }

    /// The harness's first remedy, the one that carries most.
    pub fn first(harness: RemedyHarness) -> Fix {
        Fix {
            harness,
            remedy: harness
                .remedies()
                .first()
                .copied()
                .unwrap_or(Remedy::Instructions),
        }
    }

    /// Reads an identifier; `None` unless the harness offers the remedy.
    pub fn from_id(id: &str) -> Option<Fix> {
        let (h, r) = id.split_once('.')?;
        let harness = RemedyHarness::from_id(h)?;
        let remedy = Remedy::from_id(r)?;
        harness
            .remedies()
            .contains(&remedy)
            .then_some(Fix { harness, remedy })
    }

    /// The scenario with the fix applied, when it applies (a scenario that
    /// does not validate under the harness's preset is left as it is).
    pub fn apply(self, scenario: &Scenario) -> Option<Scenario> {
        drift_core::remedied_scenario(scenario, self.harness, self.remedy).ok()
    }
}

impl PageState {
    /// The default view: the first built-in scenario, unchanged.
    pub fn default_state() -> PageState {
        let id = drift_core::builtin_ids()
            .next()
            .unwrap_or("payments-incident");
        let scenario =
            builtin(id).unwrap_or_else(|| drift_core::ValidScenario::empty(id).into_inner());
        PageState {
            source: ScenarioSource::Builtin(id.to_string()),
            scenario,
            tab: Tab::Timelines,
            compare: DEFAULT_COMPARE,
            fix: None,
        }
    }
}

/// What the compare view sets against the current policy until asked otherwise.
pub const DEFAULT_COMPARE: Preset = Preset::OpenaiCompact;

/// The title of an exported chart: the scenario, its policy, and what the
/// user changed from `base` (the scenario as loaded): each setting moved,
/// each fact externalised or forwarded, and a remedy applied, so a picture
/// sent on says what it shows.
pub fn export_title(
    base: Option<&Scenario>,
    s: &Scenario,
    policy: &str,
    fix: Option<Fix>,
) -> String {
    let mut edits: Vec<String> = Vec::new();
    if let Some(base) = base {
        for info in &drift_core::SETTINGS {
            let now = info.setting.get(s);
            if info.setting.get(base) != now {
                let retention = if info.section == "retention" {
                    " retention"
                } else {
                    ""
                };
                edits.push(format!("{}{retention} {}", info.label, info.format(now)));
            }
        }
        for (f, b) in s.facts.iter().zip(&base.facts) {
            if f.externalised != b.externalised {
                let verb = if f.externalised {
                    "externalised"
                } else {
                    "not externalised"
                };
                edits.push(format!("{} {verb}", f.id));
            }
            if f.forwarded != b.forwarded {
                let verb = if f.forwarded {
                    "forwarded"
                } else {
                    "not forwarded"
                };
                edits.push(format!("{} {verb}", f.id));
            }
        }
    }
    let mut title = format!("{} under {policy}", s.id);
    if !edits.is_empty() {
        title.push_str("; edited: ");
        title.push_str(&edits.join(", "));
    }
    if let Some(fix) = fix {
        title.push_str("; fix applied: ");
        title.push_str(&fix.id());
    }
    title
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_title_says_what_the_user_changed() {
        let base = builtin("payments-incident").unwrap();
        let mut s = base.clone();
        assert_eq!(
            export_title(Some(&base), &s, "pinned_prefix", None),
            "payments-incident under pinned_prefix"
        );
        s.retention.set(drift_core::Kind::CarveOut, 0.5);
        s.harness.window_tokens = 64_000;
        let i = s.fact_index("payments-freeze").unwrap();
        s.facts[i].externalised = true;
        let fix = Fix::from_id("claude_code.claude_md");
        assert_eq!(
            export_title(Some(&base), &s, "claude_code", fix),
            "payments-incident under claude_code; edited: window (tokens) 64,000, carve-out retention 0.50, payments-freeze externalised; fix applied: claude_code.claude_md"
        );
    }
}
