//! Tipping points and round-by-round losses of the built-in scenarios.
//!
//! - `tipping`: `tipping_points` of every built-in under its own policy
//!   (the page computes this for its actions panel on every change).
//! - `tipping_guarded`: the same with every guard on and context pressure
//!   0.3, where spills and laundering make more retention breakpoints count.
//! - `losses`: `round_losses` of every built-in's run.
//!
//! `cargo bench -p drift-core --bench tipping`; BENCHMARKS.md has the numbers.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use drift_core::losses::round_losses;
use drift_core::tipping::tipping_points;
use drift_core::{Guards, builtin, builtin_ids, simulate};

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
}

criterion_group!(benches, tipping);
criterion_main!(benches);
