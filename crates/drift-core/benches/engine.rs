//! Engine benchmarks.
//!
//! - `builtin`: every built-in scenario under every policy preset.
//! - `stress`: a generated session of 100,000 turns, 2,000 facts and 1,000
//!   actions with a few thousand compaction rounds: `simulate` (rounds and
//!   outcomes), and the same with context pressure and every guard on.
//! - `stress_json`: the full `result@1` JSON of those two runs, whose size is
//!   every fact's timeline (about 2.6 million entries, 600 MB).
//! - `timelines`: the JSON of the stress session cut to a quarter, a half and
//!   all of its turns, to show that writing timelines is linear in their size.
//! - `check`: what `drift check` computes once the file is read (the run and
//!   an explanation of every failing action) on the stress session, against
//!   the yardstick: the same findings by a straightforward per-round engine
//!   (`support/per_round.rs`), keeping every fact's timeline or only its
//!   latest state; and the tests' literal transcription of the model
//!   (`tests/support/reference.rs`: rounds, states and grades, no
//!   explanations), which was written to be obviously right, not fast.
//! - `read`: `parse_scenario` of the stress session's file (797 KB).
//!
//! `cargo bench -p drift-core` runs them all; BENCHMARKS.md has the numbers.

use std::hint::black_box;

mod support;
use support::per_round::{self, Keep};

#[allow(dead_code)]
#[path = "../tests/support/reference.rs"]
mod reference;
use support::stress::{STRESS, Size, pressured, stress};

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use drift_core::{
    PolicyChoice, Preset, Scenario, builtin, builtin_ids, explain, parse_scenario, result_to_json,
    scenario_to_json, simulate,
};

fn builtins(c: &mut Criterion) {
    let mut group = c.benchmark_group("builtin");
    for id in builtin_ids() {
        let base = builtin(id).expect("built-in parses");
        for preset in Preset::ALL {
            let mut scenario = base.clone();
            scenario.policy = PolicyChoice::Preset(preset);
            group.bench_function(BenchmarkId::new(id, preset.id()), |b| {
                b.iter(|| simulate(black_box(&scenario)).expect("valid"))
            });
        }
    }
    group.finish();
}

/// Timeline entries in a run: the size of the result's `facts`.
fn timeline_entries(scenario: &Scenario) -> u64 {
    let run = simulate(scenario).expect("valid");
    (0..scenario.facts.len())
        .map(|i| run.timeline(i).len() as u64)
        .sum()
}

fn stress_runs(c: &mut Criterion) {
    let plain = stress(STRESS);
    let pressured = pressured(plain.clone());
    for s in [&plain, &pressured] {
        let run = simulate(s).expect("valid");
        let outcomes: Vec<String> = run
            .counts()
            .iter()
            .map(|(o, n)| format!("{n} {}", o.id()))
            .collect();
        eprintln!(
            "{}: {} rounds, overflow {:?}, {} timeline entries, result {} bytes; {}",
            s.id,
            run.rounds().len(),
            run.overflow_turn(),
            timeline_entries(s),
            result_to_json(s, &run).len(),
            outcomes.join(", ")
        );
    }

    let mut group = c.benchmark_group("stress");
    group.bench_function("simulate", |b| {
        b.iter(|| simulate(black_box(&plain)).expect("valid"))
    });
    group.bench_function("simulate_pressure_guards", |b| {
        b.iter(|| simulate(black_box(&pressured)).expect("valid"))
    });
    group.finish();

    // Hundreds of megabytes per iteration: one iteration per sample.
    let mut group = c.benchmark_group("stress_json");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for s in [&plain, &pressured] {
        let run = simulate(s).expect("valid");
        group.bench_function(BenchmarkId::new("result_to_json", &s.id), |b| {
            b.iter(|| result_to_json(black_box(s), black_box(&run)))
        });
    }
    group.finish();
}

fn timelines(c: &mut Criterion) {
    let mut group = c.benchmark_group("timelines");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for divisor in [4, 2, 1] {
        let size = Size {
            turns: STRESS.turns / divisor,
            facts: STRESS.facts / divisor as usize,
            actions: STRESS.actions / divisor as usize,
        };
        let scenario = stress(size);
        let run = simulate(&scenario).expect("valid");
        let entries = timeline_entries(&scenario);
        group.throughput(Throughput::Elements(entries));
        group.bench_function(BenchmarkId::new("result_to_json", entries), |b| {
            b.iter(|| result_to_json(black_box(&scenario), black_box(&run)))
        });
    }
    group.finish();
}

/// What `drift check` computes after reading the file: the run, and the
/// sentence for every failing action. Returns the bytes of the sentences.
fn check_closed_form(s: &Scenario) -> usize {
    let run = simulate(s).expect("valid");
    run.actions()
        .iter()
        .enumerate()
        .filter(|(_, graded)| graded.outcome.is_failure())
        .filter_map(|(a, _)| explain(s, &run, a))
        .map(|why| why.to_string().len())
        .sum()
}

fn check(c: &mut Criterion) {
    let plain = stress(STRESS);
    let pressured = pressured(plain.clone());
    let mut group = c.benchmark_group("check");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for s in [&plain, &pressured] {
        let findings = per_round::engine(s);
        for keep in [Keep::Timelines, Keep::Latest] {
            assert!(
                per_round::check(s, keep) == findings,
                "the yardstick ({keep:?}) disagrees with the engine on {}",
                s.id
            );
        }
        group.bench_function(BenchmarkId::new("closed_form", &s.id), |b| {
            b.iter(|| check_closed_form(black_box(s)))
        });
        group.bench_function(BenchmarkId::new("per_round_timelines", &s.id), |b| {
            b.iter(|| per_round::check(black_box(s), Keep::Timelines))
        });
        group.bench_function(BenchmarkId::new("per_round_latest", &s.id), |b| {
            b.iter(|| per_round::check(black_box(s), Keep::Latest))
        });
        group.bench_function(BenchmarkId::new("reference_transcription", &s.id), |b| {
            b.iter(|| reference::run(black_box(s)))
        });
    }
    group.finish();
}

fn read(c: &mut Criterion) {
    let text = scenario_to_json(&stress(STRESS));
    let mut group = c.benchmark_group("read");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse_scenario/stress-100000", |b| {
        b.iter(|| parse_scenario(black_box(&text)).expect("valid"))
    });
    group.finish();
}

criterion_group!(benches, builtins, stress_runs, timelines, check, read);
criterion_main!(benches);
