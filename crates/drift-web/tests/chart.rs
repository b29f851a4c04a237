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

#[test]
fn the_context_fill_replays_the_harness() {
    use drift_web::chart::Fill;
    for id in drift_core::builtin_ids() {
        for preset in drift_core::Preset::ALL {
            let mut s = builtin(id).unwrap();
            s.policy = drift_core::PolicyChoice::Preset(preset);
            let run = simulate(&s).unwrap();
            let fill = Fill::new(&run);
            // At every round the replayed size is the engine's size before it,
            // and the next point is its size after.
            for (turn, before, after) in &fill.rounds {
                let i = fill
                    .points
                    .iter()
                    .position(|p| p.0 == *turn)
                    .unwrap_or_else(|| panic!("{id}/{preset:?}: no point at round turn {turn}"));
                assert_eq!(fill.points[i].1, *before, "{id}/{preset:?} turn {turn}");
                assert_eq!(fill.points[i + 1], (*turn, *after), "{id}/{preset:?}");
            }
            assert_eq!(fill.points.last().map(|p| p.0), Some(fill.end));
            assert_eq!(fill.overflowed, run.overflow_turn().is_some());
        }
    }
    let s = builtin("payments-incident").unwrap();
    let fill = Fill::new(&simulate(&s).unwrap());
    assert_eq!(
        fill.round_near(45.0, 3.0).map(|(i, r)| (i, r.0)),
        Some((2, 44))
    );
    assert_eq!(fill.round_near(38.0, 3.0), None);
    let svg = {
        let mut svg = String::new();
        {
            use plotters::prelude::*;
            let area =
                drift_web::chart::Surface::Svg(SVGBackend::with_string(&mut svg, (800, 140)))
                    .into_drawing_area();
            drift_web::chart::draw_fill(
                &area,
                &fill,
                s.harness.turns,
                &drift_web::chart::Palette::LIGHT,
                1.0,
            )
            .unwrap();
            area.present().unwrap();
        }
        svg
    };
    for r in 1..=5 {
        assert!(svg.contains(&format!("\nR{r}\n</text>")), "R{r}");
    }
    assert!(svg.contains("\nwindow\n</text>"));
}

#[test]
fn rows_made_one_at_a_time_are_the_charts_rows() {
    use drift_web::chart::{Axis, Row};
    let (s, chart) = payments();
    let run = simulate(&s).unwrap();
    assert_eq!(Axis::of(&s, &run), chart.axis);
    for (i, row) in chart.rows.iter().enumerate() {
        assert_eq!(Row::of(&s, &run, i).as_ref(), Some(row));
    }
    assert_eq!(Row::of(&s, &run, s.facts.len()), None);
}

#[test]
fn decimating_keeps_each_columns_extremes_and_at_most_four_points() {
    use drift_web::chart::decimate;
    // A sawtooth of 20,000 points over 500 columns.
    let points: Vec<(i32, i32)> = (0..20_000).map(|i| (i / 40, (i * 37) % 101)).collect();
    let out = decimate(points.iter().copied());
    assert!(out.len() <= 4 * 500, "{} points", out.len());
    for x in 0..500 {
        let column =
            |p: &[(i32, i32)]| -> Vec<i32> { p.iter().filter(|q| q.0 == x).map(|q| q.1).collect() };
        let (was, now) = (column(&points), column(&out));
        assert_eq!(now.first(), was.first(), "column {x} enters elsewhere");
        assert_eq!(now.last(), was.last(), "column {x} leaves elsewhere");
        assert_eq!(now.iter().min(), was.iter().min(), "column {x}");
        assert_eq!(now.iter().max(), was.iter().max(), "column {x}");
    }
    // A line with fewer points than columns is left as it is.
    let few = [(0, 5), (10, 5), (10, 9), (20, 9)];
    assert_eq!(decimate(few), few);
}

#[test]
fn a_day_long_row_draws_no_more_than_the_canvas_is_wide() {
    use plotters::prelude::*;
    // Payments for 20,000 turns: some 1,600 rounds on a plot 400 pixels wide.
    let mut s = builtin("payments-incident").unwrap();
    s.harness.turns = 20_000;
    let run = simulate(&s).unwrap();
    assert!(run.rounds().len() > 1_000, "{} rounds", run.rounds().len());
    let chart = Chart::new(&s, &run);
    let freeze = chart
        .rows
        .iter()
        .find(|r| r.id == "payments-freeze")
        .unwrap();
    let mut svg = String::new();
    {
        let area = drift_web::chart::Surface::Svg(SVGBackend::with_string(&mut svg, (420, 64)))
            .into_drawing_area();
        drift_web::chart::draw_row(
            &area,
            &chart.axis,
            freeze,
            &drift_web::chart::Palette::LIGHT,
            1.0,
        )
        .unwrap();
        area.present().unwrap();
    }
    // At most a round rule per pixel column, a dash every 8 pixels of the
    // threshold and of an unverified stretch, and a few more.
    let shapes = svg.matches("<polyline").count() + svg.matches("<rect").count();
    assert!(shapes <= 420 + 2 * 420 / 8 + 20, "{shapes} shapes");
    let points: usize = svg
        .split("points=\"")
        .skip(1)
        .map(|p| p.split('"').next().unwrap_or("").split(' ').count())
        .sum();
    assert!(points <= 2 * 420 + 4 * 420 * 2 + 40, "{points} points");
}

#[test]
fn a_fill_knows_whether_it_is_still_the_runs() {
    use drift_web::chart::Fill;
    let s = builtin("coding-day").unwrap();
    let fill = Fill::new(&simulate(&s).unwrap());
    assert!(fill.matches(&simulate(&s).unwrap()));
    // A retention moves no token: the same fill.
    let mut r = s.clone();
    r.retention.set(drift_core::Kind::StandingRule, 0.31);
    assert!(fill.matches(&simulate(&r).unwrap()));
    // Each of these moves the line.
    let changes: [fn(&mut drift_core::Scenario); 5] = [
        |s| s.harness.system_tokens += 1,
        |s| s.harness.tokens_per_turn += 1,
        |s| s.harness.window_tokens /= 2,
        |s| s.harness.turns -= 1,
        |s| {
            s.turn_tokens.push(drift_core::TurnTokens {
                turn: 229,
                tokens: 9_000,
            })
        },
    ];
    for change in changes {
        let mut c = s.clone();
        change(&mut c);
        let run = simulate(&c).unwrap();
        assert!(!fill.matches(&run), "{:?}", c.harness);
        assert!(Fill::new(&run).matches(&run));
    }
}
