//! The timelines, drawn with plotters on any backend: the page's canvases,
//! the SVG export and the native tests all run this code.
//!
//! A [`Chart`] is the drawing's model, computed once per run. A row is one
//! fact: its fidelity as a step line (it only changes at rounds), its
//! fabrication risk as a thin second line, the actionable threshold dashed,
//! rounds as faint rules, a strip along the bottom shaded by depth (darker =
//! summarised more often), its own turn as a tick, and the actions it governs
//! as dots coloured by outcome. Every pixel constant is multiplied by the
//! `scale` passed in (the device pixel ratio), so the drawing is sharp on
//! HiDPI screens.

use std::fmt;

use drift_core::{ContextFill, Kind, Outcome, Role, RoundState, Run, Scenario};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// One fact's state after one round, as drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The round's turn.
    pub turn: u32,
    /// 1-based round index.
    pub round: u32,
    /// Fidelity after the round.
    pub fidelity: f64,
    /// Fabrication risk after the round.
    pub risk: f64,
    /// Depth after the round.
    pub depth: u32,
    /// Unverified after the round.
    pub unverified: bool,
    /// What the round did.
    pub state: RoundState,
}

/// An action drawn on a governing fact's row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Marker {
    /// Index of the action.
    pub action: usize,
    /// Its turn.
    pub turn: u32,
    /// The fidelity of this fact as the action saw it.
    pub fidelity: f64,
    /// The action's outcome.
    pub outcome: Outcome,
}

/// One fact's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Index of the fact.
    pub fact: usize,
    /// The fact's id.
    pub id: String,
    /// Its role.
    pub role: Role,
    /// Its kind.
    pub kind: Kind,
    /// The turn it entered.
    pub turn: u32,
    /// Its state after each round it existed at.
    pub steps: Vec<Step>,
    /// The actions it governs.
    pub markers: Vec<Marker>,
}

/// What every row shares: the session's length, the rounds, the line.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Session length.
    pub turns: u32,
    /// The turn of each round.
    pub rounds: Vec<u32>,
    /// The actionable threshold.
    pub threshold: f64,
    /// The overflow turn, if any.
    pub overflow: Option<u32>,
}

impl Axis {
    /// The last turn the session reached.
    pub fn end(&self) -> u32 {
        self.overflow.unwrap_or(self.turns)
    }
}

/// Everything the timelines show.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The shared axis.
    pub axis: Axis,
    /// One row per fact, in file order.
    pub rows: Vec<Row>,
}

impl Chart {
    /// The chart of `run`, a run of `scenario`.
    pub fn new(scenario: &Scenario, run: &Run) -> Chart {
        let rows = scenario
            .facts
            .iter()
            .enumerate()
            .map(|(i, fact)| {
                let steps = run
                    .timeline(i)
                    .map(|e| Step {
                        turn: e.turn,
                        round: e.round,
                        fidelity: e.fact.fidelity,
                        risk: e.fact.fabrication_risk,
                        depth: e.fact.depth,
                        unverified: e.fact.unverified,
                        state: e.state,
                    })
                    .collect();
                let markers = scenario
                    .actions
                    .iter()
                    .zip(run.actions())
                    .enumerate()
                    .filter(|(_, (a, _))| a.governed_by.contains(&fact.id))
                    .map(|(k, (a, graded))| {
                        let seen = !a.delegated || fact.forwarded;
                        let f = run
                            .fact_state_at_turn(i, a.turn)
                            .map_or(1.0, |s| s.fidelity);
                        Marker {
                            action: k,
                            turn: a.turn,
                            fidelity: if seen { f } else { 0.0 },
                            outcome: graded.outcome,
                        }
                    })
                    .collect();
                Row {
                    fact: i,
                    id: fact.id.clone(),
                    role: fact.role,
                    kind: fact.kind,
                    turn: fact.turn,
                    steps,
                    markers,
                }
            })
            .collect();
        Chart {
            axis: Axis {
                turns: run.harness().turns,
                rounds: run.rounds().iter().map(|r| r.turn).collect(),
                threshold: scenario.model.actionable_threshold,
                overflow: run.overflow_turn(),
            },
            rows,
        }
    }
}

/// Colours for one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Behind everything (exports fill it; the page leaves canvases clear).
    pub background: RGBColor,
    /// Text.
    pub ink: RGBColor,
    /// Round rules, the row baseline.
    pub faint: RGBColor,
    /// The fidelity line.
    pub fidelity: RGBColor,
    /// The fabrication-risk line.
    pub risk: RGBColor,
    /// The actionable threshold.
    pub threshold: RGBColor,
    /// The depth strip at its darkest.
    pub depth: RGBColor,
    /// After an overflow.
    pub overflow: RGBColor,
}

impl Palette {
    /// For a light background.
    pub const LIGHT: Palette = Palette {
        background: RGBColor(255, 255, 255),
        ink: RGBColor(28, 30, 36),
        faint: RGBColor(214, 218, 226),
        fidelity: RGBColor(37, 99, 235),
        risk: RGBColor(217, 119, 6),
        threshold: RGBColor(120, 126, 140),
        depth: RGBColor(71, 85, 105),
        overflow: RGBColor(236, 238, 242),
    };

    /// For a dark background.
    pub const DARK: Palette = Palette {
        background: RGBColor(17, 19, 24),
        ink: RGBColor(226, 230, 238),
        faint: RGBColor(52, 58, 70),
        fidelity: RGBColor(96, 165, 250),
        risk: RGBColor(251, 191, 36),
        threshold: RGBColor(148, 156, 172),
        depth: RGBColor(186, 198, 214),
        overflow: RGBColor(34, 38, 46),
    };

    /// The colour of an outcome (always shown with its word too).
    pub fn outcome(&self, outcome: Outcome) -> RGBColor {
        let dark = self.background.0 < 128;
        match (outcome, dark) {
            (Outcome::Governed, false) => RGBColor(22, 128, 61),
            (Outcome::Governed, true) => RGBColor(74, 222, 128),
            (Outcome::WeaklyGoverned, false) => RGBColor(180, 110, 0),
            (Outcome::WeaklyGoverned, true) => RGBColor(250, 204, 21),
            (Outcome::Ungoverned, false) => RGBColor(200, 30, 30),
            (Outcome::Ungoverned, true) => RGBColor(248, 113, 113),
            (Outcome::Misbound, false) => RGBColor(190, 24, 150),
            (Outcome::Misbound, true) => RGBColor(240, 120, 220),
            (Outcome::Refused, false) => RGBColor(29, 78, 216),
            (Outcome::Refused, true) => RGBColor(125, 170, 255),
            (Outcome::NotReached, false) => RGBColor(120, 126, 140),
            (Outcome::NotReached, true) => RGBColor(150, 156, 170),
        }
    }
}

/// CSS pixel sizes, multiplied by the scale when drawing.
pub mod size {
    /// Height of one fact row.
    pub const ROW: f64 = 64.0;
    /// Height of the shared turn axis.
    pub const AXIS: f64 = 30.0;
    /// Inner padding left and right of the plot.
    pub const PAD_X: f64 = 10.0;
    /// Padding above the line at fidelity 1.
    pub const PAD_TOP: f64 = 8.0;
    /// Room below fidelity 0 (the depth strip lives here).
    pub const PAD_BOTTOM: f64 = 12.0;
    /// Depth strip height.
    pub const DEPTH: f64 = 4.0;
    /// Label column width in exports.
    pub const LABEL: f64 = 260.0;
}

/// Maps turns and fidelities to pixels within one area.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    width: f64,
    height: f64,
    scale: f64,
    turns: u32,
}

impl Frame {
    /// A frame of `width × height` device pixels at `scale` device pixels
    /// per CSS pixel, for a session of `turns`.
    pub fn new(width: u32, height: u32, scale: f64, turns: u32) -> Frame {
        Frame {
            width: f64::from(width),
            height: f64::from(height),
            scale: scale.max(0.5),
            turns: turns.max(1),
        }
    }

    /// A CSS pixel length in device pixels.
    pub fn px(&self, css: f64) -> i32 {
        (css * self.scale).round() as i32
    }

    fn left(&self) -> f64 {
        size::PAD_X * self.scale
    }

    fn right(&self) -> f64 {
        (self.width - size::PAD_X * self.scale).max(self.left() + 1.0)
    }

    /// The x of `turn` (0 to `turns`).
    pub fn x(&self, turn: f64) -> i32 {
        let t = turn.clamp(0.0, f64::from(self.turns)) / f64::from(self.turns);
        (self.left() + t * (self.right() - self.left())).round() as i32
    }

    /// The turn under pixel `x` (the inverse of [`Frame::x`]).
    pub fn turn_at(&self, x: f64) -> f64 {
        let t = (x - self.left()) / (self.right() - self.left());
        t.clamp(0.0, 1.0) * f64::from(self.turns)
    }

    /// The y of fidelity `f` within a row.
    pub fn y(&self, f: f64) -> i32 {
        let top = size::PAD_TOP * self.scale;
        let bottom = self.height - size::PAD_BOTTOM * self.scale;
        (top + (1.0 - f.clamp(0.0, 1.0)) * (bottom - top)).round() as i32
    }
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws `row` on `axis`, filling `area`.
pub fn draw_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &Axis,
    row: &Row,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    let (w, h) = area.dim_in_pixel();
    let frame = Frame::new(w, h, scale, axis.turns);
    let line = |c: RGBColor, width: f64| ShapeStyle {
        color: c.to_rgba(),
        filled: false,
        stroke_width: frame.px(width).max(1) as u32,
    };
    let end = axis.end();

    // After an overflow nothing happens: grey out the rest of the session.
    if let Some(o) = axis.overflow {
        area.draw(&Rectangle::new(
            [(frame.x(f64::from(o)), 0), (w as i32, h as i32)],
            palette.overflow.filled(),
        ))?;
    }
    // Round rules.
    for &t in &axis.rounds {
        let x = frame.x(f64::from(t));
        area.draw(&PathElement::new(
            vec![(x, 0), (x, h as i32)],
            line(palette.faint, 1.0),
        ))?;
    }
    // Threshold.
    let y_thr = frame.y(axis.threshold);
    area.draw(&DashedPathElement::new(
        vec![(frame.x(0.0), y_thr), (frame.x(f64::from(end)), y_thr)],
        frame.px(4.0),
        frame.px(4.0),
        line(palette.threshold, 1.0),
    ))?;

    // The fact's life: from its turn to the end, in stretches between rounds.
    let start = f64::from(row.turn);
    let mut stretches: Vec<(f64, f64, f64, f64, u32, bool)> = Vec::new(); // (from, to, f, risk, depth, unverified)
    let (mut from, mut f, mut risk, mut depth, mut unverified) = (start, 1.0, 0.0, 0, false);
    for s in &row.steps {
        let t = f64::from(s.turn);
        stretches.push((from, t, f, risk, depth, unverified));
        (from, f, risk, depth, unverified) = (t, s.fidelity, s.risk, s.depth, s.unverified);
    }
    stretches.push((from, f64::from(end), f, risk, depth, unverified));

    // Depth strip.
    let strip_bottom = h as i32 - frame.px(2.0);
    let strip_top = strip_bottom - frame.px(size::DEPTH);
    for &(a, b, _, _, d, _) in &stretches {
        if d == 0 || b <= a {
            continue;
        }
        let alpha = (0.25 + 0.15 * f64::from(d)).min(1.0);
        area.draw(&Rectangle::new(
            [(frame.x(a), strip_top), (frame.x(b), strip_bottom)],
            palette.depth.mix(alpha).filled(),
        ))?;
    }

    // Risk: a thin line.
    let risk_points = step_points(&frame, &stretches, |s| s.3);
    area.draw(&PathElement::new(risk_points, line(palette.risk, 1.0)))?;

    // Fidelity: a step line, dashed where the claim is unverified.
    let mut previous: Option<(i32, i32)> = None;
    for &(a, b, fid, _, _, unv) in &stretches {
        let (x0, x1, y) = (frame.x(a), frame.x(b), frame.y(fid));
        if let Some((px, py)) = previous {
            area.draw(&PathElement::new(
                vec![(px, py), (x0, y)],
                line(palette.fidelity, 2.0),
            ))?;
        }
        let style = line(palette.fidelity, 2.0);
        if unv {
            area.draw(&DashedPathElement::new(
                vec![(x0, y), (x1, y)],
                frame.px(5.0),
                frame.px(3.0),
                style,
            ))?;
        } else {
            area.draw(&PathElement::new(vec![(x0, y), (x1, y)], style))?;
        }
        previous = Some((x1, y));
    }

    // The fact's own turn.
    let x0 = frame.x(start);
    area.draw(&PathElement::new(
        vec![
            (x0, frame.y(1.0) - frame.px(5.0)),
            (x0, frame.y(1.0) + frame.px(5.0)),
        ],
        line(palette.ink, 1.5),
    ))?;

    // Actions it governs.
    for m in &row.markers {
        let c = palette.outcome(m.outcome);
        let centre = (frame.x(f64::from(m.turn)), frame.y(m.fidelity));
        area.draw(&Circle::new(
            centre,
            frame.px(5.0),
            palette.background.filled(),
        ))?;
        area.draw(&Circle::new(centre, frame.px(4.0), c.filled()))?;
    }
    Ok(())
}

/// The corner points of a step line through `stretches`.
fn step_points(
    frame: &Frame,
    stretches: &[(f64, f64, f64, f64, u32, bool)],
    value: impl Fn(&(f64, f64, f64, f64, u32, bool)) -> f64,
) -> Vec<(i32, i32)> {
    let mut points = Vec::with_capacity(stretches.len() * 2);
    for s in stretches {
        let y = frame.y(value(s));
        points.push((frame.x(s.0), y));
        points.push((frame.x(s.1), y));
    }
    points
}

/// Draws the shared turn axis: ticks every ten turns and numbered rounds.
pub fn draw_axis<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &Axis,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    let (w, h) = area.dim_in_pixel();
    let frame = Frame::new(w, h, scale, axis.turns);
    let thin = ShapeStyle {
        color: palette.faint.to_rgba(),
        filled: false,
        stroke_width: frame.px(1.0).max(1) as u32,
    };
    let font = |px: f64, c: RGBColor, pos: Pos| {
        ("sans-serif", f64::from(frame.px(px)))
            .into_font()
            .color(&c)
            .pos(pos)
    };
    area.draw(&PathElement::new(
        vec![(frame.x(0.0), 1), (frame.x(f64::from(axis.turns)), 1)],
        thin,
    ))?;
    let step = tick_step(axis.turns);
    let mut t = 0;
    while t <= axis.turns {
        let x = frame.x(f64::from(t));
        area.draw(&PathElement::new(vec![(x, 1), (x, frame.px(5.0))], thin))?;
        area.draw(&Text::new(
            t.to_string(),
            (x, frame.px(7.0)),
            font(10.0, palette.threshold, Pos::new(HPos::Center, VPos::Top)),
        ))?;
        t += step;
    }
    let label_every = (axis.rounds.len() / 24).max(1);
    for (i, &turn) in axis.rounds.iter().enumerate() {
        if i % label_every != 0 {
            continue;
        }
        let x = frame.x(f64::from(turn));
        area.draw(&Text::new(
            format!("R{}", i + 1),
            (x, h as i32 - frame.px(1.0)),
            font(10.0, palette.ink, Pos::new(HPos::Center, VPos::Bottom)),
        ))?;
    }
    Ok(())
}

/// A tick spacing giving about ten ticks.
fn tick_step(turns: u32) -> u32 {
    let raw = (turns / 10).max(1);
    [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 100_000,
    ]
    .into_iter()
    .find(|&s| s >= raw)
    .unwrap_or(raw)
}

/// Draws the whole chart with labels into one area (for PNG and SVG export).
/// The area should be [`export_size`] large.
pub fn draw_export<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart,
    title: &str,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    area.fill(&palette.background)?;
    let px = |css: f64| (css * scale).round() as i32;
    let (w, _) = area.dim_in_pixel();
    let font = |size: f64, c: RGBColor| ("sans-serif", f64::from(px(size))).into_font().color(&c);
    let title_h = px(36.0);
    area.draw(&Text::new(
        title.to_string(),
        (px(12.0), px(12.0)),
        font(15.0, palette.ink),
    ))?;
    let label_w = px(size::LABEL);
    let row_h = px(size::ROW);
    for (i, row) in chart.rows.iter().enumerate() {
        let top = title_h + i as i32 * row_h;
        let label = area
            .clone()
            .shrink((0, top), (label_w as u32, row_h as u32));
        label.draw(&Text::new(
            row.id.clone(),
            (px(12.0), px(14.0)),
            font(13.0, palette.ink),
        ))?;
        label.draw(&Text::new(
            format!(
                "{} · {} · turn {}",
                row.role.id(),
                row.kind.label(),
                row.turn
            ),
            (px(12.0), px(34.0)),
            font(11.0, palette.threshold),
        ))?;
        let plot = area.clone().shrink(
            (label_w, top),
            ((w as i32 - label_w).max(1) as u32, row_h as u32),
        );
        draw_row(&plot, &chart.axis, row, palette, scale)?;
        plot.draw(&PathElement::new(
            vec![(0, row_h - 1), (w as i32 - label_w, row_h - 1)],
            ShapeStyle {
                color: palette.faint.to_rgba(),
                filled: false,
                stroke_width: 1,
            },
        ))?;
    }
    let axis_top = title_h + chart.rows.len() as i32 * row_h;
    let axis_area = area.clone().shrink(
        (label_w, axis_top),
        ((w as i32 - label_w).max(1) as u32, px(size::AXIS) as u32),
    );
    draw_axis(&axis_area, &chart.axis, palette, scale)
}

/// The size in device pixels of an export `width` CSS pixels wide.
pub fn export_size(chart: &Chart, width: u32, scale: f64) -> (u32, u32) {
    let px = |css: f64| (css * scale).round() as u32;
    let height = 36.0 + chart.rows.len() as f64 * size::ROW + size::AXIS + 8.0;
    (px(f64::from(width)), px(height))
}

/// The chart as an SVG document (the same drawing as the canvas).
pub fn to_svg(chart: &Chart, title: &str, palette: &Palette) -> String {
    let (w, h) = export_size(chart, 1200, 1.0);
    let mut svg = String::new();
    {
        let area = Surface::Svg(SVGBackend::with_string(&mut svg, (w, h))).into_drawing_area();
        if draw_export(&area, chart, title, palette, 1.0).is_err() {
            return String::new();
        }
        let _ = area.present();
    }
    svg
}

/// The state of `row` under pixel column `x` of a row `width` pixels wide:
/// the step in force at that turn, or `None` before any round.
pub fn step_at(axis: &Axis, row: &Row, width: u32, scale: f64, x: f64) -> Option<Step> {
    let frame = Frame::new(width, 1, scale, axis.turns);
    let turn = frame.turn_at(x);
    row.steps
        .iter()
        .take_while(|s| f64::from(s.turn) <= turn)
        .last()
        .copied()
}

/// The state name of a step for people.
pub fn state_label(state: RoundState) -> &'static str {
    match state {
        RoundState::Tail => "in the tail",
        RoundState::Head => "in the head",
        RoundState::Protected => "protected",
        RoundState::Restored => "restored",
        RoundState::Summarised => "summarised",
        RoundState::Dropped => "dropped",
        RoundState::Spilled => "spilled",
    }
}

/// The context's size over the session, as the context-fill chart draws it:
/// the engine's [`ContextFill`] with the window, the usual turn size and the
/// rounds beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Fill {
    /// `(turn, tokens in context)`: after each turn, and after each round
    /// (a second point at the round's turn), so the line is a sawtooth.
    pub points: Vec<(u32, u64)>,
    /// Each turn's own size (index 0 is turn 1).
    pub turn_tokens: Vec<u64>,
    /// The usual size of a turn.
    pub tokens_per_turn: u64,
    /// The window.
    pub window: u64,
    /// Where a round is due: the trigger, or the reserve if it comes first.
    pub due_at: u64,
    /// `(turn, tokens before, tokens after)` of each round.
    pub rounds: Vec<(u32, u64, u64)>,
    /// The last turn reached.
    pub end: u32,
    /// Whether the session overflowed at `end`.
    pub overflowed: bool,
}

impl Fill {
    /// The fill of `run`.
    pub fn new(run: &Run) -> Fill {
        let h = run.harness();
        let ContextFill {
            points,
            turn_tokens,
            due_above,
            end,
            overflowed,
        } = run.context_fill();
        Fill {
            points,
            turn_tokens,
            tokens_per_turn: h.tokens_per_turn,
            window: h.window_tokens,
            due_at: due_above,
            rounds: run
                .rounds()
                .iter()
                .map(|r| (r.turn, r.tokens_before, r.tokens_after))
                .collect(),
            end,
            overflowed,
        }
    }

    /// The round nearest turn `turn`, within `within` turns.
    pub fn round_near(&self, turn: f64, within: f64) -> Option<(usize, (u32, u64, u64))> {
        self.rounds
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, r)| (f64::from(r.0) - turn).abs() <= within)
            .min_by(|a, b| {
                let d = |r: &(u32, u64, u64)| (f64::from(r.0) - turn).abs();
                d(&a.1).total_cmp(&d(&b.1))
            })
    }
}

/// Draws the context-fill chart: tokens in context over turns, the window
/// and the line where a round is due, numbered rounds, and each turn's own
/// size as a strip along the bottom (large tool outputs stand out).
pub fn draw_fill<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fill: &Fill,
    turns: u32,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    let (w, h) = area.dim_in_pixel();
    let frame = Frame::new(w, h, scale, turns);
    let top = frame.px(14.0);
    let strip = frame.px(14.0);
    let bottom = h as i32 - strip - frame.px(4.0);
    let ceiling = fill
        .points
        .iter()
        .map(|p| p.1)
        .max()
        .unwrap_or(0)
        .max(fill.window)
        .max(1) as f64
        * 1.04;
    let y =
        |tokens: u64| bottom - ((tokens as f64 / ceiling) * f64::from(bottom - top)).round() as i32;
    let line = |c: RGBColor, width: f64| ShapeStyle {
        color: c.to_rgba(),
        filled: false,
        stroke_width: frame.px(width).max(1) as u32,
    };
    let x_end = frame.x(f64::from(turns));
    // The window, and where a round is due.
    area.draw(&PathElement::new(
        vec![(frame.x(0.0), y(fill.window)), (x_end, y(fill.window))],
        line(palette.ink, 1.0),
    ))?;
    area.draw(&DashedPathElement::new(
        vec![(frame.x(0.0), y(fill.due_at)), (x_end, y(fill.due_at))],
        frame.px(4.0),
        frame.px(4.0),
        line(palette.threshold, 1.0),
    ))?;
    let font = |c: RGBColor| {
        ("sans-serif", f64::from(frame.px(10.0)))
            .into_font()
            .color(&c)
            .pos(Pos::new(HPos::Left, VPos::Bottom))
    };
    area.draw(&Text::new(
        "window".to_string(),
        (frame.x(0.0) + frame.px(2.0), y(fill.window) - frame.px(1.0)),
        font(palette.ink),
    ))?;
    // Each turn's size: a strip of bars, tall for large turns.
    let largest = fill.turn_tokens.iter().copied().max().unwrap_or(1).max(1) as f64;
    for (i, &t) in fill.turn_tokens.iter().enumerate().take(fill.end as usize) {
        let x0 = frame.x(i as f64);
        let x1 = frame.x(i as f64 + 1.0).max(x0 + 1);
        let bar = ((t as f64 / largest) * f64::from(strip)).round().max(1.0) as i32;
        let color = if t > fill.tokens_per_turn.saturating_mul(2) {
            palette.risk
        } else {
            palette.faint
        };
        area.draw(&Rectangle::new(
            [(x0, h as i32 - bar), (x1, h as i32)],
            color.filled(),
        ))?;
    }
    // Rounds: a faint rule and a number.
    for (i, &(turn, _, _)) in fill.rounds.iter().enumerate() {
        let x = frame.x(f64::from(turn));
        area.draw(&PathElement::new(
            vec![(x, top), (x, bottom)],
            line(palette.faint, 1.0),
        ))?;
        if i % (fill.rounds.len() / 24).max(1) == 0 {
            area.draw(&Text::new(
                format!("R{}", i + 1),
                (x + frame.px(2.0), top),
                font(palette.threshold),
            ))?;
        }
    }
    // The sawtooth.
    let points: Vec<(i32, i32)> = fill
        .points
        .iter()
        .map(|&(t, s)| (frame.x(f64::from(t)), y(s)))
        .collect();
    area.draw(&PathElement::new(points, line(palette.fidelity, 1.5)))?;
    if fill.overflowed {
        let x = frame.x(f64::from(fill.end));
        area.draw(&Circle::new(
            (x, y(fill.points.last().map_or(0, |p| p.1))),
            frame.px(4.0),
            palette.outcome(Outcome::NotReached).filled(),
        ))?;
    }
    Ok(())
}

/// Every backend the drawing goes to, as one type: the drawing functions are
/// compiled once, not once per backend (which matters for the page's size).
#[allow(missing_debug_implementations)]
pub enum Surface<'a> {
    /// An SVG document (exports, native tests).
    Svg(SVGBackend<'a>),
    /// A canvas element (the page).
    #[cfg(target_arch = "wasm32")]
    Canvas(plotters_canvas::CanvasBackend),
}

/// A backend's error, as text.
#[derive(Debug)]
pub struct SurfaceError(String);

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SurfaceError {}

fn lift<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<SurfaceError> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(SurfaceError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// Calls the same method on whichever backend this is.
macro_rules! on_surface {
    ($surface:expr, $backend:ident => $call:expr) => {
        match $surface {
            Surface::Svg($backend) => $call.map_err(lift),
            #[cfg(target_arch = "wasm32")]
            Surface::Canvas($backend) => $call.map_err(lift),
        }
    };
}

type Drawing = Result<(), DrawingErrorKind<SurfaceError>>;

impl DrawingBackend for Surface<'_> {
    type ErrorType = SurfaceError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Surface::Svg(b) => b.get_size(),
            #[cfg(target_arch = "wasm32")]
            Surface::Canvas(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Drawing {
        on_surface!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Drawing {
        on_surface!(self, b => b.present())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawing {
        on_surface!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawing {
        on_surface!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawing {
        on_surface!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawing {
        on_surface!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawing {
        on_surface!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawing {
        on_surface!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Drawing {
        on_surface!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<SurfaceError>> {
        on_surface!(self, b => b.estimate_text_size(text, style))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawing {
        on_surface!(self, b => b.blit_bitmap(pos, size, src))
    }
}
