//! When rounds happen: the token accounting of docs/MODEL.md §2 with the §9
//! tokens-after formula, and the context's size turn by turn.
//!
//! The schedule depends only on the harness, the per-turn token sizes and the
//! policy's switches, never on the facts. It is computed once per run, from
//! round to round: the turns between two rounds are summed, not visited, so
//! it costs O(turns sized in the file + rounds · log turns), whatever the
//! session's length. [`ContextFill`] replays it turn by turn for a chart.

use alloc::vec::Vec;

use crate::harness::Harness;
use crate::policy::Policy;
use crate::run::Round;

/// Per-turn token sizes: the default size, and the turns sized otherwise in
/// turn order with running sums, so any run of turns sums in O(log turns
/// sized) and the sizes take room only for the turns the file names.
#[derive(Clone, Debug)]
pub(crate) struct TurnSizes {
    default: u64,
    /// The turns with their own size, ascending, each once.
    turns: Vec<u32>,
    /// Their sizes.
    tokens: Vec<u64>,
    /// `sums[k]`: the sizes of the first `k` of them.
    sums: Vec<u64>,
}

impl TurnSizes {
    /// Builds the sizes from the default and the sparse overrides
    /// (validated: every turn in `1..=turns`, none twice; otherwise a turn
    /// outside is ignored and a turn's last size counts).
    pub(crate) fn new(harness: &Harness, overrides: impl Iterator<Item = (u32, u64)>) -> Self {
        let given: Vec<(u32, u64)> = overrides
            .filter(|&(turn, _)| (1..=harness.turns).contains(&turn))
            .collect();
        // The turns sorted alone, then each size put in its turn's place (a
        // turn given twice keeps its last size): one sort of plain numbers.
        let mut turns: Vec<u32> = given.iter().map(|&(turn, _)| turn).collect();
        turns.sort_unstable();
        turns.dedup();
        let mut tokens = alloc::vec![harness.tokens_per_turn; turns.len()];
        for (turn, size) in given {
            if let Ok(i) = turns.binary_search(&turn) {
                tokens[i] = size;
            }
        }
        let mut sums = Vec::with_capacity(tokens.len() + 1);
        let mut sum = 0u64;
        sums.push(sum);
        for &size in &tokens {
            sum = sum.saturating_add(size);
            sums.push(sum);
        }
        TurnSizes {
            default: harness.tokens_per_turn,
            turns,
            tokens,
            sums,
        }
    }

    /// Tokens of turns `1..=t`: the first `k` sized turns (those up to `t`)
    /// and `t - k` turns of the default size.
    fn prefix(&self, t: u32) -> u64 {
        let k = self.turns.partition_point(|&turn| turn <= t);
        self.default
            .saturating_mul(u64::from(t).saturating_sub(k as u64))
            .saturating_add(self.sums[k])
    }

    /// Tokens of turn `t`.
    pub(crate) fn tokens(&self, t: u32) -> u64 {
        if t == 0 {
            return 0;
        }
        match self.turns.binary_search(&t) {
            Ok(i) => self.tokens[i],
            Err(_) => self.default,
        }
    }

    /// Tokens of turns `from..=to` (0 when the range is empty).
    pub(crate) fn sum(&self, from: u32, to: u32) -> u64 {
        if from == 0 || from > to {
            return 0;
        }
        self.prefix(to).saturating_sub(self.prefix(from - 1))
    }

    /// Each turn's tokens for turns `1..=last`, in order, in O(1) each.
    pub(crate) fn each(&self, last: u32) -> impl Iterator<Item = u64> + '_ {
        let mut next = 0;
        (1..=last).map(move |t| match self.turns.get(next) {
            Some(&turn) if turn == t => {
                next += 1;
                self.tokens[next - 1]
            }
            _ => self.default,
        })
    }

    /// The first turn of the tail at turn `t` when the tail is the newest
    /// turns fitting in `cap` tokens (at least turn `t` itself).
    pub(crate) fn tail_start_within(&self, t: u32, cap: u64) -> u32 {
        // sum(s..=t) shrinks as s grows: find the smallest s that fits.
        let end = self.prefix(t);
        let (mut lo, mut hi) = (1, t);
        while lo < hi {
            let s = lo + (hi - lo) / 2;
            if end - self.prefix(s - 1) > cap {
                lo = s + 1;
            } else {
                hi = s;
            }
        }
        lo
    }

    /// The first turn in `after + 1..=last` by whose end `size` plus the
    /// turns since `after` is `due` (which, once true, stays true for any
    /// larger size), if any. Gallops from `after`, since the next round is
    /// usually near: O(log turns sized + log² of the distance).
    fn first_due(
        &self,
        after: u32,
        last: u32,
        size: u64,
        due: impl Fn(u64) -> bool,
    ) -> Option<u32> {
        if after >= last {
            return None;
        }
        // The sized turns after `after`; at most `t - after` of them are in
        // `after + 1..=t`.
        let c = self.turns.partition_point(|&turn| turn <= after);
        let rest = &self.turns[c..];
        let over = |t: u32| -> bool {
            let span = t - after;
            let k = rest[..rest.len().min(span as usize)].partition_point(|&turn| turn <= t);
            let added = self
                .default
                .saturating_mul(u64::from(span) - k as u64)
                .saturating_add(self.sums[c + k] - self.sums[c]);
            due(size.saturating_add(added))
        };
        // `lo` is not due yet (or is `after`); `hi` is.
        let (mut lo, mut step) = (after, 1u32);
        let hi = loop {
            let t = after.saturating_add(step).min(last);
            if over(t) {
                break t;
            }
            if t == last {
                return None;
            }
            lo = t;
            step = step.saturating_mul(2);
        };
        let (mut a, mut b) = (lo + 1, hi);
        while a < b {
            let mid = a + (b - a) / 2;
            if over(mid) {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        Some(a)
    }
}

/// One compaction round as the harness sees it, before any fact is visited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoundPlan {
    /// The turn the round happens at.
    pub turn: u32,
    /// Context size that triggered it.
    pub tokens_before: u64,
    /// Context size after it.
    pub tokens_after: u64,
    /// `o = clamp((tokens_before - thr) / thr, 0, 1)`.
    pub overshoot: f64,
    /// The first turn of the tail: a fact with `turn >= tail_start` is in it.
    pub tail_start: u32,
}

/// When the rounds happen, and whether (and when) the session overflows.
#[derive(Clone, Debug, Default)]
pub(crate) struct Schedule {
    pub rounds: Vec<RoundPlan>,
    pub overflow_turn: Option<u32>,
}

impl Schedule {
    /// Runs the token accounting of docs/MODEL.md §2 with the §9 tokens-after
    /// formula: from each round straight to the turn the next is due at (the
    /// context only grows between rounds). O(rounds · log turns).
    pub(crate) fn compute(harness: &Harness, policy: &Policy, sizes: &TurnSizes) -> Schedule {
        let mut schedule = Schedule::default();
        let threshold = harness.trigger_threshold();
        let mut size = harness.system_tokens;
        let mut last = 0;
        while let Some(t) = sizes.first_due(last, harness.turns, size, |s| harness.is_due(s)) {
            size += sizes.sum(last + 1, t);
            last = t;
            if !policy.compacts {
                schedule.overflow_turn = Some(t);
                break;
            }
            let tail_start = tail_start(harness, policy, sizes, t);
            let tokens_after = tokens_after(harness, policy, sizes, t, tail_start);
            let overshoot = ((size as f64 - threshold) / threshold).clamp(0.0, 1.0);
            schedule.rounds.push(RoundPlan {
                turn: t,
                tokens_before: size,
                tokens_after,
                overshoot,
                tail_start,
            });
            size = tokens_after;
            if harness.is_due(size) {
                schedule.overflow_turn = Some(t);
                break;
            }
        }
        schedule
    }
}

/// The first turn of the tail at a round at turn `t` (§2 `tail_turns`, or §9
/// `tail_percent` when the policy sets it).
fn tail_start(harness: &Harness, policy: &Policy, sizes: &TurnSizes, t: u32) -> u32 {
    match policy.tail_percent {
        Some(percent) => {
            let cap = harness.window_tokens * u64::from(percent) / 100;
            sizes.tail_start_within(t, cap)
        }
        None => t.saturating_sub(harness.tail_turns) + 1,
    }
}

/// Context size right after a round at turn `t` (docs/MODEL.md §9).
fn tokens_after(
    harness: &Harness,
    policy: &Policy,
    sizes: &TurnSizes,
    t: u32,
    tail_start: u32,
) -> u64 {
    let head_end = policy.keep_first_turns.min(t);
    // Head turns that are not also tail turns.
    let head_only_end = head_end.min(tail_start - 1);
    let kept = sizes.sum(tail_start, t) + sizes.sum(1, head_only_end);
    let summary = if policy.summarises {
        harness.summary_tokens
    } else {
        0
    };
    let mut size = harness.system_tokens + summary + kept;
    if let Some(budget) = policy
        .user_budget_tokens
        .filter(|_| policy.has_user_budget())
    {
        // The newest `recent` turns keep their user message verbatim; count those
        // that are neither head nor tail, i.e. in (head_end, tail_start).
        let recent = budget / harness.user_message_tokens;
        let first_recent = (i64::from(t) + 1).saturating_sub(recent.min(i64::MAX as u64) as i64);
        let from = first_recent.max(i64::from(head_end) + 1).max(1);
        let outside = (i64::from(tail_start) - from).max(0) as u64;
        size += harness.user_message_tokens * outside;
    }
    size
}

/// The tokens in context over a run, turn by turn: what a fill chart draws.
/// Made by [`crate::Run::context_fill`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextFill {
    /// `(turn, tokens in context)`: the system prompt at turn 0, then after
    /// each turn, and after each round a second point at the round's turn,
    /// so the line is a sawtooth.
    pub points: Vec<(u32, u64)>,
    /// Each turn's own size (index 0 is turn 1), for every turn of the session.
    pub turn_tokens: Vec<u64>,
    /// Rounds are due above this many tokens ([`Harness::due_above`]).
    pub due_above: u64,
    /// The last turn reached.
    pub end: u32,
    /// Whether the session overflowed at `end`.
    pub overflowed: bool,
}

impl ContextFill {
    /// Replays the accounting: each turn adds its tokens, each round sets the
    /// context to its size after the round.
    pub(crate) fn new(
        harness: &Harness,
        sizes: &TurnSizes,
        rounds: &[Round],
        overflow_turn: Option<u32>,
    ) -> ContextFill {
        let end = overflow_turn.unwrap_or(harness.turns);
        let mut points = Vec::with_capacity(end as usize + rounds.len() + 1);
        let mut size = harness.system_tokens;
        points.push((0, size));
        let mut rounds = rounds.iter().peekable();
        for (t, tokens) in (1..=end).zip(sizes.each(end)) {
            size = size.saturating_add(tokens);
            points.push((t, size));
            if let Some(round) = rounds.next_if(|r| r.turn == t) {
                size = round.tokens_after;
                points.push((t, size));
            }
        }
        ContextFill {
            points,
            turn_tokens: sizes.each(harness.turns).collect(),
            due_above: harness.due_above(),
            end,
            overflowed: overflow_turn.is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Preset;

    fn harness() -> Harness {
        Harness {
            window_tokens: 10_000,
            trigger_percent: 100,
            system_tokens: 1_000,
            tokens_per_turn: 1_000,
            tail_turns: 2,
            summary_tokens: 500,
            turns: 30,
            reserve_tokens: 0,
            user_message_tokens: 200,
        }
    }

    fn schedule(h: &Harness, p: &Policy) -> Schedule {
        Schedule::compute(h, p, &TurnSizes::new(h, core::iter::empty()))
    }

    /// The schedule under pinned_prefix of [`harness`] after `edit`.
    fn pinned(edit: fn(&mut Harness)) -> Schedule {
        let mut h = harness();
        edit(&mut h);
        schedule(&h, &Preset::PinnedPrefix.policy())
    }

    #[test]
    fn prefix_sums_and_overrides() {
        let h = harness();
        let s = TurnSizes::new(&h, [(3, 5_000), (30, 7)].into_iter());
        assert_eq!(s.tokens(1), 1_000);
        assert_eq!(s.tokens(3), 5_000);
        assert_eq!(s.tokens(30), 7);
        assert_eq!(s.sum(2, 4), 7_000);
        assert_eq!(s.sum(5, 4), 0);
        assert_eq!(s.sum(0, 4), 0);
    }

    /// The sparse sizes agree with every turn's size written out, sum by sum.
    #[test]
    fn sparse_sizes_agree_with_sizes_written_out() {
        let mut h = harness();
        h.turns = 40;
        // Out of range (ignored), given twice (the last counts), out of
        // order, at both ends.
        let given = [
            (41, 9),
            (0, 9),
            (7, 5),
            (1, 3_000),
            (7, 2_500),
            (40, 1),
            (20, 1_000),
        ];
        let sizes = TurnSizes::new(&h, given.into_iter());
        let mut dense = alloc::vec![1_000u64; 41];
        dense[0] = 0;
        for (turn, tokens) in [(1, 3_000), (7, 2_500), (40, 1), (20, 1_000)] {
            dense[turn] = tokens;
        }
        let each: Vec<u64> = sizes.each(40).collect();
        assert_eq!(each, dense[1..]);
        for from in 0..=40u32 {
            assert_eq!(sizes.tokens(from), dense[from as usize]);
            for to in 0..=40u32 {
                let expected: u64 = if from == 0 || from > to {
                    0
                } else {
                    dense[from as usize..=to as usize].iter().sum()
                };
                assert_eq!(sizes.sum(from, to), expected, "{from}..={to}");
            }
        }
        for t in 1..=40u32 {
            for cap in [0, 1, 999, 1_000, 2_500, 3_500, 6_000, 100_000] {
                let fits = (1..=t).find(|&s| sizes.sum(s, t) <= cap).unwrap_or(t);
                assert_eq!(sizes.tail_start_within(t, cap), fits, "t {t} cap {cap}");
            }
            for size in [0, 500, 4_000] {
                let due = |s: u64| s > 9_000;
                let walked = (t + 1..=40).find(|&u| due(size + sizes.sum(t + 1, u)));
                assert_eq!(
                    sizes.first_due(t, 40, size, due),
                    walked,
                    "after {t} from {size}"
                );
            }
        }
    }

    #[test]
    fn tail_within_a_token_cap() {
        let h = harness();
        let s = TurnSizes::new(&h, [(10, 4_000)].into_iter());
        // Turns 8, 9, 10 = 1000 + 1000 + 4000 = 6000 fit in 6000, turn 7 does not.
        assert_eq!(s.tail_start_within(10, 6_000), 8);
        assert_eq!(s.tail_start_within(10, 5_999), 9);
        // A turn larger than the cap is still the tail on its own.
        assert_eq!(s.tail_start_within(10, 100), 10);
        // Everything fits: the tail reaches turn 1.
        assert_eq!(s.tail_start_within(3, 1_000_000), 1);
    }

    #[test]
    fn rounds_follow_the_trigger() {
        // size 1000 + 1000 t exceeds 10000 at t = 10; after: 1000 + 500 + 2000 = 3500;
        // then 3500 + 1000 k exceeds at k = 7 (t = 17), and so on.
        let s = pinned(|_| {});
        let turns: Vec<u32> = s.rounds.iter().map(|r| r.turn).collect();
        assert_eq!(turns, [10, 17, 24]);
        assert_eq!(s.rounds[0].tokens_before, 11_000);
        assert_eq!(s.rounds[0].tokens_after, 3_500);
        assert_eq!(s.rounds[0].tail_start, 9);
        assert!((s.rounds[0].overshoot - 0.1).abs() < 1e-12);
        assert_eq!(s.overflow_turn, None);
    }

    #[test]
    fn no_compaction_overflows_at_the_trigger() {
        let s = schedule(&harness(), &Preset::None.policy());
        assert!(s.rounds.is_empty());
        assert_eq!(s.overflow_turn, Some(10));
    }

    #[test]
    fn a_round_that_cannot_make_room_is_recorded_then_overflows() {
        let s = pinned(|h| h.tail_turns = 9);
        assert_eq!(s.rounds.len(), 1);
        assert_eq!(s.rounds[0].tokens_after, 10_500);
        assert_eq!(s.overflow_turn, Some(10));
    }

    #[test]
    fn reserve_makes_rounds_due_earlier() {
        let s = pinned(|h| h.reserve_tokens = 3_000);
        // Due once size > 7000: at t = 7 (size 8000).
        assert_eq!(s.rounds[0].turn, 7);
        // Pressure uses the trigger threshold only: 8000 < 10000 gives o = 0.
        assert_eq!(s.rounds[0].overshoot, 0.0);
    }

    #[test]
    fn head_turns_are_kept_and_counted_once() {
        let h = harness();
        let mut p = Preset::PinnedPrefix.policy();
        p.keep_first_turns = 3;
        let s = schedule(&h, &p);
        assert_eq!(s.rounds[0].tokens_after, 1_000 + 500 + 2_000 + 3_000);
        // A head reaching into the tail is not counted twice.
        p.keep_first_turns = 10;
        let sizes = TurnSizes::new(&h, core::iter::empty());
        assert_eq!(tokens_after(&h, &p, &sizes, 10, 9), 1_000 + 500 + 10_000);
    }

    #[test]
    fn user_budget_adds_recent_user_messages_outside_the_kept_turns() {
        let h = harness();
        let mut p = Preset::CodexCli.policy();
        p.user_budget_tokens = Some(1_000); // 5 recent turns
        let sizes = TurnSizes::new(&h, core::iter::empty());
        // Tail 9..=10; recent 6..=10; outside the tail: 6, 7, 8.
        assert_eq!(
            tokens_after(&h, &p, &sizes, 10, 9),
            1_000 + 500 + 2_000 + 3 * 200
        );
        // With a head of 7 turns, 6 and 7 are kept already: only 8 is added.
        p.keep_first_turns = 7;
        assert_eq!(
            tokens_after(&h, &p, &sizes, 10, 9),
            1_000 + 500 + 2_000 + 7_000 + 200
        );
        // Without user protection the budget is ignored.
        p.protected_roles = crate::vocab::RoleSet::SYSTEM;
        p.keep_first_turns = 0;
        assert_eq!(tokens_after(&h, &p, &sizes, 10, 9), 3_500);
        // A budget smaller than one message keeps none.
        p = Preset::CodexCli.policy();
        p.user_budget_tokens = Some(199);
        assert_eq!(tokens_after(&h, &p, &sizes, 10, 9), 3_500);
        // A budget reaching before turn 1 counts only real turns.
        p.user_budget_tokens = Some(200 * 50);
        assert_eq!(tokens_after(&h, &p, &sizes, 10, 9), 3_500 + 8 * 200);
    }
}
