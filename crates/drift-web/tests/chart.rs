//! The timelines drawing, rendered natively through plotters' SVG backend.

#![cfg(not(target_arch = "wasm32"))]

use drift_core::{Outcome, builtin, simulate};
use drift_web::chart::{Chart, Frame, Palette, export_size, step_at, to_svg};

fn payments() -> (drift_core::Scenario, Chart) {
    let s = builtin("payments-incident").unwrap();
    let run = simulate(&s).unwrap();
    let chart = Chart::new(&s, &run);
    (s, chart)
}

#[test]
fn the_chart_model_follows_the_run() {
    let (s, chart) = payments();
    assert_eq!(chart.rows.len(), s.facts.len());
    assert_eq!(chart.axis.rounds, [20, 32, 44, 56, 68]);
    let freeze = chart
        .rows
        .iter()
        .find(|r| r.id == "payments-freeze")
        .unwrap();
    assert_eq!(freeze.steps.len(), 5);
    assert!(freeze.steps[2].fidelity < chart.axis.threshold);
    let rollback = freeze
        .markers
        .iter()
        .find(|m| s.actions[m.action].id == "rollback-payments")
        .unwrap();
    assert_eq!(rollback.outcome, Outcome::Ungoverned);
    assert!((rollback.fidelity - 0.75f64.powi(4)).abs() < 1e-12);
    // A fact that is not forwarded shows a delegated action at fidelity 0.
    let residency = chart.rows.iter().find(|r| r.id == "eu-residency").unwrap();
    let notice = residency
        .markers
        .iter()
        .find(|m| s.actions[m.action].id == "subagent-notice")
        .unwrap();
    assert_eq!(notice.fidelity, 0.0);
}

#[test]
fn the_svg_export_draws_every_row_label_and_round() {
    let (s, chart) = payments();
    let svg = to_svg(
        &chart,
        "payments-incident under pinned prefix",
        &Palette::LIGHT,
    );
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    for fact in &s.facts {
        assert!(svg.contains(&fact.id), "{} missing", fact.id);
    }
    for round in 1..=5 {
        assert!(
            svg.contains(&format!("\nR{round}\n</text>")),
            "R{round} missing"
        );
    }
    // The dark theme draws the same shapes in other colours.
    let dark = to_svg(&chart, "t", &Palette::DARK);
    assert_ne!(svg, dark);
    assert_eq!(
        svg.matches("<circle").count(),
        dark.matches("<circle").count()
    );
}

#[test]
fn pixel_constants_scale_with_the_device() {
    let (_, chart) = payments();
    assert_eq!(export_size(&chart, 1200, 2.0), {
        let (w, h) = export_size(&chart, 1200, 1.0);
        (w * 2, h * 2)
    });
    let f1 = Frame::new(1000, 64, 1.0, 70);
    let f2 = Frame::new(2000, 128, 2.0, 70);
    assert_eq!(f1.px(4.0) * 2, f2.px(4.0));
    assert_eq!(f1.x(35.0) * 2, f2.x(35.0));
    assert_eq!(f1.y(0.5) * 2, f2.y(0.5));
    // x and turn_at are inverse.
    assert!((f2.turn_at(f64::from(f2.x(35.0))) - 35.0).abs() < 0.1);
}

#[test]
fn hovering_finds_the_step_in_force() {
    let (_, chart) = payments();
    let freeze = chart
        .rows
        .iter()
        .find(|r| r.id == "payments-freeze")
        .unwrap();
    let frame = Frame::new(1000, 64, 1.0, chart.axis.turns);
    // Between rounds 3 (turn 44) and 4 (turn 56).
    let x = f64::from(frame.x(50.0));
    let step = step_at(&chart.axis, freeze, 1000, 1.0, x).unwrap();
    assert_eq!(step.round, 3);
    // Before the first round there is no step.
    assert_eq!(
        step_at(&chart.axis, freeze, 1000, 1.0, f64::from(frame.x(10.0))),
        None
    );
}
