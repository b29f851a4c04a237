//! Snapshots of every built-in scenario under every policy preset: the rounds,
//! the overflow and each action's outcome and fidelity, one line per cell.
//!
//! A change to the engine, a scenario or a preset that moves any outcome shows
//! up here as a diff for a person to review (`INSTA_UPDATE=always cargo test`
//! rewrites the files; read the diff before committing it).

use std::fmt::Write as _;

use drift_core::{PolicyChoice, Preset, builtin, builtin_ids, simulate};

/// One line per (scenario, preset): `scenario preset: N rounds, overflow T |
/// action outcome fidelity; …`.
fn matrix(presets: &[Preset]) -> String {
    let mut out = String::new();
    for id in builtin_ids() {
        let base = builtin(id).unwrap_or_else(|| panic!("built-in {id} does not parse"));
        for &preset in presets {
            let mut scenario = base.clone();
            scenario.policy = PolicyChoice::Preset(preset);
            let run = simulate(&scenario).unwrap_or_else(|e| panic!("{id} × {preset:?}: {e}"));
            let overflow = run
                .overflow_turn()
                .map_or_else(|| "none".to_string(), |t| t.to_string());
            let _ = write!(
                out,
                "{id} {}: {} rounds, overflow {overflow} |",
                preset.id(),
                run.rounds().len()
            );
            for (i, (action, graded)) in scenario.actions.iter().zip(run.actions()).enumerate() {
                let _ = write!(
                    out,
                    "{} {} {} {:.4}",
                    if i == 0 { "" } else { ";" },
                    action.id,
                    graded.outcome.id(),
                    graded.fidelity
                );
            }
            out.push('\n');
        }
    }
    out
}

#[test]
fn builtin_scenarios_under_every_preset() {
    let text = matrix(&Preset::ALL);
    assert_eq!(
        text.lines().count(),
        builtin_ids().len() * Preset::ALL.len()
    );
    insta::assert_snapshot!("matrix", text);
}

/// The six reference policies of contract v1 (docs/MODEL.md §4). Every v1 file
/// must give the same result under every later contract version, and the
/// built-in scenarios are v1 files, so this snapshot must stay byte-identical
/// forever: never accept a change to it. A diff here is a bug in the change
/// that caused it.
#[test]
fn builtin_scenarios_under_the_v1_presets() {
    let text = matrix(&Preset::V1);
    assert_eq!(text.lines().count(), builtin_ids().len() * Preset::V1.len());
    insta::assert_snapshot!("v1_matrix", text);
}
