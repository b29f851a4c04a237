//! An imported scenario's rounds placed at the log's own compactions.
//!
//! The turn sizes an import starts from are estimates (characters ÷ 4), so
//! the model's rounds would fall wherever those estimates cross the
//! threshold. [`place_rounds`] adjusts the sizes, segment by segment, until
//! the simulation's rounds fall at the turns where the log compacted: for
//! the first round off its turn, the turns since the round before shrink
//! in proportion if they cross too early, and the turns the round
//! summarises (not its tail) grow in proportion if they cross too late, so
//! the context first passes the threshold at the log's turn. Turns after
//! the last compaction shrink if they would cross again. Sizes keep their
//! proportions within a segment; what the model makes of them (its
//! threshold, its summary size) is the harness's, unchanged. When the turns
//! a round keeps (its tail) fill the context by themselves, the tail is one
//! turn: real harnesses keep a summary and little else.

use alloc::vec::Vec;

use drift_core::{MAX_TOKENS, Scenario, TurnTokens, simulate};

/// How many of the log's compactions the rounds fall at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Rounds the simulation has at the log's turns, in order.
    pub placed: usize,
    /// The log's compactions to place.
    pub wanted: usize,
}

/// Places `scenario`'s rounds at `targets` (turns, increasing; see the
/// module docs). Returns how many were placed; the scenario keeps the sizes
/// that placed the most.
pub fn place_rounds(scenario: &mut Scenario, targets: &[u32]) -> Placed {
    let turns = scenario.harness.turns;
    let mut wanted: Vec<u32> = targets
        .iter()
        .copied()
        .filter(|t| (1..=turns).contains(t))
        .collect();
    wanted.dedup();
    let sizes_of_original = sizes_of(scenario);
    let mut sizes = sizes_of_original.clone();
    let mut best = (0, sizes.clone(), scenario.harness.tail_turns);
    for round in 0..(4 * wanted.len() + 8) {
        let tail = scenario.harness.tail_turns.max(1);
        set_sizes(scenario, &sizes);
        let Ok(run) = simulate(scenario) else {
            break;
        };
        let rounds: Vec<u32> = run.rounds().iter().map(|r| r.turn).collect();
        let placed = wanted
            .iter()
            .zip(&rounds)
            .take_while(|(w, r)| w == r)
            .count();
        if placed > best.0 {
            best = (placed, sizes.clone(), tail);
        }
        if placed == wanted.len() && rounds.len() == wanted.len() {
            best = (placed, sizes, tail);
            break;
        }
        let fill = run.context_fill();
        let due = fill.due_above;
        // Where the segment of the first round off its turn starts, and the
        // context just after the round before it.
        let start = placed
            .checked_sub(1)
            .and_then(|k| wanted.get(k))
            .copied()
            .unwrap_or(0);
        let base = if start == 0 {
            scenario.harness.system_tokens
        } else {
            fill.points
                .iter()
                .rev()
                .find(|(t, _)| *t == start)
                .map_or(scenario.harness.system_tokens, |p| p.1)
        };
        let room = due.saturating_sub(base);
        if room == 0 || run.overflow_turn().is_some() && round > 0 && tail > 1 {
            // The turns a round keeps fill the context: a real harness
            // keeps less than this tail (a summary and the newest turn).
            if tail > 1 {
                scenario.harness.tail_turns = 1;
                sizes = sizes_of_original.clone();
                continue;
            }
            break;
        }
        match wanted.get(placed) {
            Some(&target) => cross_at(&mut sizes, start, target, room, tail),
            // A round after the last compaction: the rest must not cross.
            None => shrink_to(&mut sizes, start + 1, turns, room.saturating_mul(9) / 10),
        }
    }
    set_sizes(scenario, &best.1);
    scenario.harness.tail_turns = best.2;
    Placed {
        placed: best.0,
        wanted: wanted.len(),
    }
}

/// Sizes turns `start + 1 ..= target` so that the context, `room` below the
/// threshold after turn `start`, passes it first at `target`.
fn cross_at(sizes: &mut [u64], start: u32, target: u32, room: u64, tail: u32) {
    let at = |t: u32| t as usize - 1;
    // The turns before the target may add at most `room`.
    shrink_to(sizes, start + 1, target - 1, room);
    let before: u64 = (start + 1..target).map(|t| sizes[at(t)]).sum();
    let last = sizes[at(target)];
    if before.saturating_add(last) > room {
        return;
    }
    // Short of the threshold: what the turns the round summarises (those
    // before its tail) must add, or the target itself when there are none.
    let need = room + 1 - before - last;
    let summarised_end = target.saturating_sub(tail);
    let mut grow: Vec<u32> = (start + 1..=summarised_end.min(target - 1)).collect();
    if grow.is_empty() {
        grow = (start + 1..target).collect();
    }
    let held: u64 = grow.iter().map(|&t| sizes[at(t)]).sum();
    let can = room.saturating_sub(before);
    if grow.is_empty() || held == 0 || need > can {
        let s = &mut sizes[at(target)];
        *s = s.saturating_add(need).min(MAX_TOKENS);
        return;
    }
    let mut added = 0;
    for (i, &t) in grow.iter().enumerate() {
        let s = &mut sizes[at(t)];
        let share = if i + 1 == grow.len() {
            need - added
        } else {
            (u128::from(need) * u128::from(*s) / u128::from(held)) as u64
        };
        *s = s.saturating_add(share);
        added += share;
    }
}

/// Shrinks turns `from ..= to` in proportion so that together they add at
/// most `room` (each keeps at least 1 token).
fn shrink_to(sizes: &mut [u64], from: u32, to: u32, room: u64) {
    if from > to {
        return;
    }
    let range = (from as usize - 1)..(to as usize).min(sizes.len());
    let Some(part) = sizes.get_mut(range) else {
        return;
    };
    let total: u64 = part.iter().sum();
    if total <= room {
        return;
    }
    for s in part.iter_mut() {
        *s = ((u128::from(*s) * u128::from(room) / u128::from(total)) as u64).max(1);
    }
}

/// Every turn's size, turn 1 first.
fn sizes_of(s: &Scenario) -> Vec<u64> {
    let mut sizes = alloc::vec![s.harness.tokens_per_turn; s.harness.turns as usize];
    for t in &s.turn_tokens {
        if let Some(x) = (t.turn as usize)
            .checked_sub(1)
            .and_then(|i| sizes.get_mut(i))
        {
            *x = t.tokens;
        }
    }
    sizes
}

/// Writes `sizes` back: the median as `tokens_per_turn`, the others listed.
fn set_sizes(s: &mut Scenario, sizes: &[u64]) {
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    let median = sorted
        .get(sorted.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(1)
        .max(1);
    s.harness.tokens_per_turn = median;
    s.turn_tokens = (1u32..)
        .zip(sizes)
        .filter(|(_, tokens)| **tokens != median)
        .map(|(turn, &tokens)| TurnTokens {
            turn,
            tokens: tokens.max(1),
        })
        .collect();
}
