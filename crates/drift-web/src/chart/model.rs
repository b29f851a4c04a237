//! The timelines' model and geometry, apart from any drawing: a fact's row
//! (its state round by round and the actions it governs), the shared axis,
//! the context's size over the session, and the mapping between turns,
//! fidelities and pixels that drawing and hovering share.

use drift_core::{ContextFill, Kind, Outcome, Role, RoundState, Run, Scenario};

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

/// Whether a row's fact was there for an action it governs: what the
/// action's dot on that row shows (its colour, its words), apart from how
/// the action ended, which other facts decide too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Word for word.
    Verbatim,
    /// Degraded, still above the actionable line.
    Degraded,
    /// Below the line, or never seen (a subagent it was not forwarded to).
    Missing,
}

impl Presence {
    /// In a few words, for tooltips and descriptions.
    pub const fn label(self) -> &'static str {
        match self {
            Presence::Verbatim => "the rule was there word for word",
            Presence::Degraded => "the rule was there, degraded",
            Presence::Missing => "the rule was not there",
        }
    }

    /// The outcome whose colour it is drawn in.
    pub const fn colour(self) -> Outcome {
        match self {
            Presence::Verbatim => Outcome::Governed,
            Presence::Degraded => Outcome::WeaklyGoverned,
            Presence::Missing => Outcome::Ungoverned,
        }
    }
}

impl Marker {
    /// Whether its row's fact was there for the action, against the
    /// actionable line `threshold`.
    pub fn presence(&self, threshold: f64) -> Presence {
        if self.fidelity >= 1.0 {
            Presence::Verbatim
        } else if self.fidelity >= threshold {
            Presence::Degraded
        } else {
            Presence::Missing
        }
    }
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
    /// Whether it is kept in a store outside the context.
    pub externalised: bool,
    /// Whether it is in a subagent's brief.
    pub forwarded: bool,
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
    /// The axis of `run`, a run of `scenario`.
    pub fn of(scenario: &Scenario, run: &Run) -> Axis {
        Axis {
            turns: run.harness().turns,
            rounds: run.rounds().iter().map(|r| r.turn).collect(),
            threshold: scenario.model.actionable_threshold,
            overflow: run.overflow_turn(),
        }
    }

    /// The last turn the session reached.
    pub fn end(&self) -> u32 {
        self.overflow.unwrap_or(self.turns)
    }
}

impl Row {
    /// The row of fact `fact` (an index) in `run`, a run of `scenario`;
    /// `None` for an index out of range. The page makes only the rows in
    /// view.
    pub fn of(scenario: &Scenario, run: &Run, fact: usize) -> Option<Row> {
        let f = scenario.facts.get(fact)?;
        let steps = run
            .timeline(fact)
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
            .filter(|(_, (a, _))| a.governed_by.contains(&f.id))
            .map(|(k, (a, graded))| {
                let seen = !a.delegated || f.forwarded;
                let fidelity = run
                    .fact_state_at_turn(fact, a.turn)
                    .map_or(1.0, |s| s.fidelity);
                Marker {
                    action: k,
                    turn: a.turn,
                    fidelity: if seen { fidelity } else { 0.0 },
                    outcome: graded.outcome,
                }
            })
            .collect();
        Some(Row {
            fact,
            id: f.id.clone(),
            role: f.role,
            kind: f.kind,
            turn: f.turn,
            externalised: f.externalised,
            forwarded: f.forwarded,
            steps,
            markers,
        })
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
    /// The chart of `run`, a run of `scenario` (every row: for exports).
    pub fn new(scenario: &Scenario, run: &Run) -> Chart {
        Chart {
            axis: Axis::of(scenario, run),
            rows: (0..scenario.facts.len())
                .filter_map(|i| Row::of(scenario, run, i))
                .collect(),
        }
    }
}

/// `points` (a line from left to right, in pixels) with at most four per
/// pixel column: where it enters the column, its highest and lowest, and
/// where it leaves. Each column shows what it showed, and a line through
/// thousands of turns costs no more to draw than the canvas is wide.
pub fn decimate(points: impl IntoIterator<Item = (i32, i32)>) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::new();
    // The column being read: x, and y where it entered, its least, its
    // most, where it is now.
    let mut column: Option<(i32, [i32; 4])> = None;
    let flush = |out: &mut Vec<(i32, i32)>, (x, ys): (i32, [i32; 4])| {
        for y in ys {
            if out.last() != Some(&(x, y)) {
                out.push((x, y));
            }
        }
    };
    for (x, y) in points {
        match &mut column {
            Some((cx, ys)) if *cx == x => {
                ys[1] = ys[1].min(y);
                ys[2] = ys[2].max(y);
                ys[3] = y;
            }
            _ => {
                if let Some(c) = column.take() {
                    flush(&mut out, c);
                }
                column = Some((x, [y; 4]));
            }
        }
    }
    if let Some(c) = column {
        flush(&mut out, c);
    }
    out
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
    /// An export's title, the user's edits and the key, above the rows.
    pub const EXPORT_HEAD: f64 = 76.0;
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

    /// Whether this is still the fill of `run`: the same start, turn sizes,
    /// rounds, window and end. Checked without replaying the turns, so a
    /// change that moves none of them (a retention, say) costs next to
    /// nothing.
    pub fn matches(&self, run: &Run) -> bool {
        let h = run.harness();
        let rounds = run.rounds();
        self.points.first() == Some(&(0, h.system_tokens))
            && (self.window, self.tokens_per_turn, self.due_at)
                == (h.window_tokens, h.tokens_per_turn, h.due_above())
            && (self.end, self.overflowed)
                == (
                    run.overflow_turn().unwrap_or(h.turns),
                    run.overflow_turn().is_some(),
                )
            && self.rounds.len() == rounds.len()
            && self
                .rounds
                .iter()
                .zip(rounds)
                .all(|(a, r)| *a == (r.turn, r.tokens_before, r.tokens_after))
            && self.turn_tokens.len() == h.turns as usize
            && (1..=h.turns).all(|t| self.turn_tokens[t as usize - 1] == run.turn_tokens(t))
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
