//! The timelines and the context-fill chart drawn with plotters, on any
//! backend (see [`super::Surface`]). Every pixel constant is multiplied by
//! the `scale` passed in (the device pixel ratio), so the drawing is sharp
//! on HiDPI screens.

use drift_core::Outcome;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::model::{Axis, Chart, Fill, Frame, Presence, Row, decimate, size};
use super::surface::Surface;

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

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws `row` on `axis`, filling `area`: the ground every row shares, then
/// the row's own life.
pub fn draw_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &Axis,
    row: &Row,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    draw_ground(area, axis, palette, scale)?;
    draw_life(area, axis, row, palette, scale)
}

/// The stroke of a line `width` CSS pixels wide.
fn stroke(frame: &Frame, color: RGBColor, width: f64) -> ShapeStyle {
    ShapeStyle {
        color: color.to_rgba(),
        filled: false,
        stroke_width: frame.px(width).max(1) as u32,
    }
}

/// Draws what every row on `axis` shares, filling `area`: the rest of the
/// session greyed out after an overflow, the round rules and the actionable
/// line. The page draws it once and copies it under each row.
pub fn draw_ground<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &Axis,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    let (w, h) = area.dim_in_pixel();
    let frame = Frame::new(w, h, scale, axis.turns);
    let line = |c: RGBColor, width: f64| stroke(&frame, c, width);
    let end = axis.end();

    // After an overflow nothing happens: grey out the rest of the session.
    if let Some(o) = axis.overflow {
        area.draw(&Rectangle::new(
            [(frame.x(f64::from(o)), 0), (w as i32, h as i32)],
            palette.overflow.filled(),
        ))?;
    }
    // Round rules, one per pixel column at most.
    let mut last = None;
    for &t in &axis.rounds {
        let x = frame.x(f64::from(t));
        if last.replace(x) != Some(x) {
            area.draw(&PathElement::new(
                vec![(x, 0), (x, h as i32)],
                line(palette.faint, 1.0),
            ))?;
        }
    }
    // Threshold.
    let y_thr = frame.y(axis.threshold);
    area.draw(&DashedPathElement::new(
        vec![(frame.x(0.0), y_thr), (frame.x(f64::from(end)), y_thr)],
        frame.px(4.0),
        frame.px(4.0),
        line(palette.threshold, 1.0),
    ))
}

/// Draws `row`'s own life on `axis` over its ground (see [`draw_ground`]),
/// filling `area`.
pub fn draw_life<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &Axis,
    row: &Row,
    palette: &Palette,
    scale: f64,
) -> Drawn<DB> {
    let (w, h) = area.dim_in_pixel();
    let frame = Frame::new(w, h, scale, axis.turns);
    let line = |c: RGBColor, width: f64| stroke(&frame, c, width);
    let end = axis.end();

    // The fact's life: from its turn to the end, in stretches between rounds.
    let start = f64::from(row.turn);
    let mut stretches: Vec<Stretch> = Vec::with_capacity(row.steps.len() + 1);
    let (mut from, mut f, mut risk, mut depth, mut unverified) = (start, 1.0, 0.0, 0, false);
    for s in &row.steps {
        let t = f64::from(s.turn);
        stretches.push((from, t, f, risk, depth, unverified));
        (from, f, risk, depth, unverified) = (t, s.fidelity, s.risk, s.depth, s.unverified);
    }
    stretches.push((from, f64::from(end), f, risk, depth, unverified));

    // Depth strip: stretches alike and side by side as one bar; a stretch
    // narrower than a pixel is covered by its neighbours.
    let strip_bottom = h as i32 - frame.px(2.0);
    let strip_top = strip_bottom - frame.px(size::DEPTH);
    let mut bar: Option<(i32, i32, f64)> = None;
    let mut bars = Vec::new();
    for &(a, b, _, _, d, _) in &stretches {
        let (x0, x1) = (frame.x(a), frame.x(b));
        if d == 0 || x1 <= x0 {
            continue;
        }
        let alpha = (0.25 + 0.15 * f64::from(d)).min(1.0);
        match &mut bar {
            Some((_, end, was)) if *end == x0 && *was == alpha => *end = x1,
            _ => bars.extend(bar.replace((x0, x1, alpha))),
        }
    }
    for (x0, x1, alpha) in bars.into_iter().chain(bar) {
        area.draw(&Rectangle::new(
            [(x0, strip_top), (x1, strip_bottom)],
            palette.depth.mix(alpha).filled(),
        ))?;
    }

    // Risk: a thin line.
    let risk_points = decimate(corners(&frame, &stretches, |s| s.3));
    area.draw(&PathElement::new(risk_points, line(palette.risk, 1.0)))?;

    // Fidelity: a step line, dashed where the claim is unverified: one path
    // per run of stretches alike, joined by a solid rise or fall.
    let mut joint: Option<(i32, i32)> = None;
    for alike in stretches.chunk_by(|a, b| a.5 == b.5) {
        let points = decimate(corners(&frame, alike, |s| s.2));
        let style = line(palette.fidelity, 2.0);
        if let (Some(p), Some(&q)) = (joint, points.first()) {
            area.draw(&PathElement::new(vec![p, q], style))?;
        }
        joint = points.last().copied();
        if alike[0].5 {
            area.draw(&DashedPathElement::new(
                points,
                frame.px(5.0),
                frame.px(3.0),
                style,
            ))?;
        } else {
            area.draw(&PathElement::new(points, style))?;
        }
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

    // Actions it governs, coloured by whether this fact was there for each.
    for m in &row.markers {
        let c = palette.outcome(m.presence(axis.threshold).colour());
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

/// A stretch of a fact's life between rounds: from and to (turns), fidelity,
/// fabrication risk, depth, unverified.
type Stretch = (f64, f64, f64, f64, u32, bool);

/// The corner points of a step line through `stretches`, in pixels.
fn corners<'a>(
    frame: &'a Frame,
    stretches: &'a [Stretch],
    value: impl Fn(&Stretch) -> f64 + 'a,
) -> impl Iterator<Item = (i32, i32)> + 'a {
    stretches.iter().flat_map(move |s| {
        let y = frame.y(value(s));
        [(frame.x(s.0), y), (frame.x(s.1), y)]
    })
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
    // The title: what is shown on the first line, the user's edits (after
    // "; ") on the second.
    let (head, edits) = title.split_once("; ").unwrap_or((title, ""));
    area.draw(&Text::new(
        head.to_string(),
        (px(12.0), px(12.0)),
        font(15.0, palette.ink),
    ))?;
    area.draw(&Text::new(
        edits.to_string(),
        (px(12.0), px(32.0)),
        font(11.0, palette.threshold),
    ))?;
    draw_legend(area, palette, scale, px(52.0))?;
    let title_h = px(size::EXPORT_HEAD);
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

/// The key to an export's lines and dots, one line at `top`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    palette: &Palette,
    scale: f64,
    top: i32,
) -> Drawn<DB> {
    let px = |css: f64| (css * scale).round() as i32;
    let font = ("sans-serif", f64::from(px(11.0)))
        .into_font()
        .color(&palette.ink);
    let mut x = px(12.0);
    let y = top + px(6.0);
    let lines = [
        (palette.fidelity, "fidelity"),
        (palette.risk, "fabrication risk"),
        (palette.threshold, "actionable line"),
    ];
    for (colour, name) in lines {
        area.draw(&PathElement::new(
            vec![(x, y), (x + px(18.0), y)],
            ShapeStyle {
                color: colour.to_rgba(),
                filled: false,
                stroke_width: px(2.0).max(1) as u32,
            },
        ))?;
        area.draw(&Text::new(name, (x + px(22.0), top), font.clone()))?;
        x += px(22.0) + px(7.0 * name.len() as f64) + px(14.0);
    }
    for presence in [Presence::Verbatim, Presence::Degraded, Presence::Missing] {
        let colour = palette.outcome(presence.colour());
        area.draw(&Circle::new((x + px(4.0), y), px(4.0), colour.filled()))?;
        let name = presence.label().trim_start_matches("the rule was ");
        let name = if presence == Presence::Verbatim {
            "an action it governs: the rule there"
        } else {
            name
        };
        area.draw(&Text::new(name, (x + px(12.0), top), font.clone()))?;
        x += px(12.0) + px(6.5 * name.len() as f64) + px(14.0);
    }
    Ok(())
}

/// The size in device pixels of an export `width` CSS pixels wide.
pub fn export_size(chart: &Chart, width: u32, scale: f64) -> (u32, u32) {
    let px = |css: f64| (css * scale).round() as u32;
    let height = size::EXPORT_HEAD + chart.rows.len() as f64 * size::ROW + size::AXIS + 8.0;
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
    // Each turn's size: a strip of bars, tall for large turns; turns that
    // share a pixel column show the largest of them.
    let largest = fill.turn_tokens.iter().copied().max().unwrap_or(1).max(1) as f64;
    let bar = |(x0, x1, t): (i32, i32, u64)| {
        let height = ((t as f64 / largest) * f64::from(strip)).round().max(1.0) as i32;
        let color = if t > fill.tokens_per_turn.saturating_mul(2) {
            palette.risk
        } else {
            palette.faint
        };
        area.draw(&Rectangle::new(
            [(x0, h as i32 - height), (x1, h as i32)],
            color.filled(),
        ))
    };
    let mut column: Option<(i32, i32, u64)> = None;
    for (i, &t) in fill.turn_tokens.iter().enumerate().take(fill.end as usize) {
        let x0 = frame.x(i as f64);
        let x1 = frame.x(i as f64 + 1.0).max(x0 + 1);
        match &mut column {
            Some((at, end, most)) if *at == x0 => {
                *end = x1.max(*end);
                *most = t.max(*most);
            }
            _ => {
                if let Some(c) = column.replace((x0, x1, t)) {
                    bar(c)?;
                }
            }
        }
    }
    if let Some(c) = column {
        bar(c)?;
    }
    // Rounds: a faint rule (one per pixel column at most) and a number.
    let mut last = None;
    for (i, &(turn, _, _)) in fill.rounds.iter().enumerate() {
        let x = frame.x(f64::from(turn));
        if last.replace(x) != Some(x) {
            area.draw(&PathElement::new(
                vec![(x, top), (x, bottom)],
                line(palette.faint, 1.0),
            ))?;
        }
        if i % (fill.rounds.len() / 24).max(1) == 0 {
            area.draw(&Text::new(
                format!("R{}", i + 1),
                (x + frame.px(2.0), top),
                font(palette.threshold),
            ))?;
        }
    }
    // The sawtooth, at most four points per pixel column.
    let points = decimate(
        fill.points
            .iter()
            .map(|&(t, s)| (frame.x(f64::from(t)), y(s))),
    );
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
