//! Tipping points and round-by-round losses of the built-in scenarios.
//!
//! - `tipping`: `tipping_points` of every built-in under its own policy
//!   (the page computes this for its actions panel on every change).
//! - `tipping_guarded`: the same with every guard on and context pressure
//!   0.3, where spills and laundering make more retention breakpoints count.
//! - `losses`: `round_losses` of every built-in's run.
//! - `tipping_long`: a long session (coding-day laid end to end fifty times:
//!   11,500 turns, 351 facts, 300 actions, 205 rounds), all actions with
//!   `tipping_points` and its last action alone with `action_tipping`.
//!
//! `cargo bench -p drift-core --bench tipping`; BENCHMARKS.md has the numbers.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use drift_core::round_losses;
use drift_core::{Guards, Scenario, builtin, builtin_ids, simulate};
use drift_core::{action_tipping, tipping_points};

/// coding-day repeated `copies` times, each copy 230 turns after the last,
/// sharing the system prompt.
fn long_session(copies: u32) -> Scenario {
    let base = builtin("coding-day").expect("built-in");
    let mut s = base.clone();
    s.harness.turns = base.harness.turns * copies;
    s.turn_tokens.clear();
    s.facts.clear();
    s.actions.clear();
    let system = |id: &str| base.facts.iter().any(|f| f.id == id && f.turn == 0);
    for k in 0..copies {
        let shift = k * base.harness.turns;
        for f in &base.facts {
            if f.turn == 0 && k > 0 {
                continue;
            }
            let mut f = f.clone();
            f.id = format!("{}-{k}", f.id);
            if f.turn > 0 {
                f.turn += shift;
            }
            s.facts.push(f);
        }
        for a in &base.actions {
            let mut a = a.clone();
            a.id = format!("{}-{k}", a.id);
            a.turn += shift;
            a.governed_by = a
                .governed_by
                .iter()
                .map(|g| format!("{g}-{}", if system(g) { 0 } else { k }))
                .collect();
            s.actions.push(a);
        }
    }
    s
}

fn tipping(c: &mut Criterion) {
    let mut group = c.benchmark_group("tipping");
    for id in builtin_ids() {
        let s = builtin(id).expect("built-in");
        group.bench_function(BenchmarkId::from_parameter(id), |b| {
            b.iter(|| tipping_points(black_box(&s)).expect("valid"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("tipping_guarded");
    for id in builtin_ids() {
        let mut s = builtin(id).expect("built-in");
        s.guards = Guards {
            reinject_constraints: true,
            verify_bindings: true,
            entailment_gate: true,
            commitment_audit: true,
        };
        s.model.pressure_sensitivity = 0.3;
        group.bench_function(BenchmarkId::from_parameter(id), |b| {
            b.iter(|| tipping_points(black_box(&s)).expect("valid"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("losses");
    for id in builtin_ids() {
        let s = builtin(id).expect("built-in");
        let run = simulate(&s).expect("valid");
        group.bench_function(BenchmarkId::from_parameter(id), |b| {
            b.iter(|| round_losses(black_box(&s), black_box(&run)))
        });
    }
    group.finish();

    let long = long_session(50);
    let run = simulate(&long).expect("valid");
    eprintln!(
        "long session: {} turns, {} facts, {} actions, {} rounds",
        long.harness.turns,
        long.facts.len(),
        long.actions.len(),
        run.rounds().len()
    );
    let last = long.actions.len() - 1;
    let mut group = c.benchmark_group("tipping_long");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.bench_function("simulate", |b| {
        b.iter(|| simulate(black_box(&long)).expect("valid"))
    });
    group.bench_function("tipping_points", |b| {
        b.iter(|| tipping_points(black_box(&long)).expect("valid"))
    });
    group.bench_function("action_tipping_last", |b| {
        b.iter(|| action_tipping(black_box(&long), last).expect("valid"))
    });
    group.finish();
}

criterion_group!(benches, tipping);
criterion_main!(benches);
