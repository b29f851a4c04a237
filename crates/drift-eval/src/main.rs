//! `cargo xtask eval`: the evaluation (see the crate docs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use drift_eval::labels::Split;
use drift_eval::scores_file::{self, FILE};
use drift_eval::{files, finder, real, report, scores, verdicts, view};

const USAGE: &str = "\
usage: cargo xtask eval [--split dev|held_out|finder|all] [--misses] [--logs DIR]
                        [--write-scores]

Scores the session audit on the labelled real compactions (eval/real/,
logs from ../shared/real-logs/ or --logs / $DRIFT_REAL_LOGS), the judge on
the before/after verdict sets (eval/verdicts/), and the rule finder alone
on logs whose every typed rule is labelled (split finder). --split picks
the part (default: dev); --misses lists every mismatch of the split.
--write-scores scores every split and writes its tables into
eval/SCORES.md (`cargo xtask eval --write-scores` also writes the
tables drift-session's tests measure there).
";

/// Writes `sections` into eval/SCORES.md, those of the real logs only when
/// `real_logs_scored`; true when one could not be written.
fn write_scores(root: &Path, sections: &[(&str, String)], real_logs_scored: bool) -> bool {
    let mut failed = false;
    for (name, text) in sections {
        if name.starts_with("real-") && !real_logs_scored {
            continue;
        }
        match scores_file::hold(root, name, text, true) {
            Ok(true) => println!("{FILE}: section {name} written"),
            Ok(false) => println!("{FILE}: section {name} unchanged"),
            Err(e) => {
                eprintln!("drift-eval: {e}");
                failed = true;
            }
        }
    }
    if !real_logs_scored {
        println!(
            "{FILE}: the real logs' sections left as they are (not every labelled log was there to score, or an anchor no longer decodes)"
        );
    }
    failed
}

fn main() -> ExitCode {
    let mut split = "dev".to_string();
    let mut misses = false;
    let mut write = false;
    let mut logs: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--split" => split = args.next().unwrap_or_default(),
            "--misses" => misses = true,
            "--write-scores" => write = true,
            "--logs" => logs = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprint!("drift-eval: unknown argument {other:?}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    if write {
        split = "all".to_string();
    }
    let splits: Vec<Split> = match split.as_str() {
        "dev" => vec![Split::Dev],
        "held_out" => vec![Split::HeldOut],
        "finder" => vec![Split::Finder],
        "all" => vec![Split::Dev, Split::HeldOut, Split::Finder],
        other => {
            eprint!("drift-eval: --split {other:?}: dev, held_out, finder or all\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = files::root();
    let mut failed = false;
    // The sections of eval/SCORES.md measured, and whether the real logs
    // were all there to measure theirs.
    let mut sections: Vec<(&str, String)> = Vec::new();
    let mut real_logs_scored = false;

    // Real compactions.
    match logs.filter(|p| p.is_dir()).or_else(files::real_logs) {
        None => println!(
            "Real compactions: skipped, no logs at ../shared/real-logs (or $DRIFT_REAL_LOGS).\n"
        ),
        Some(dir) => match files::cases(&root.join("eval/real"), &dir) {
            Err(e) => {
                eprintln!("drift-eval: {e}");
                failed = true;
            }
            Ok((cases, missing)) => {
                for m in &missing {
                    println!("{m}: its log is not in {}: skipped", dir.display());
                }
                real_logs_scored = missing.is_empty();
                for &s in splits.iter().filter(|&&s| s == Split::Finder) {
                    let scores = finder::score(&cases, s, misses);
                    println!("{}", finder::report(&scores, s.id()));
                    for m in &scores.misses {
                        println!("- {m}");
                    }
                    if !scores.stale.is_empty() {
                        for m in &scores.stale {
                            println!("stale: {m}");
                        }
                        failed = true;
                        real_logs_scored = false;
                    }
                    sections.push(scores::finder(&scores));
                }
                for &s in splits.iter().filter(|&&s| s != Split::Finder) {
                    let scores = real::score(&cases, s, misses);
                    println!("{}", report::real(&scores, s.id()));
                    for m in &scores.misses {
                        println!(
                            "- {} #{} {}: {} || {}",
                            m.log,
                            m.compaction,
                            m.what,
                            m.label.replace('\n', " "),
                            m.reported.replace('\n', " ")
                        );
                    }
                    if !scores.stale.is_empty() {
                        failed = true;
                        real_logs_scored = false;
                    }
                    sections.push(scores::real(&scores, s));
                }
            }
        },
    }

    // Verdict sets.
    for &s in splits.iter().filter(|&&s| s != Split::Finder) {
        let items = match files::verdict_items(&root.join("eval/verdicts"), s) {
            Ok(items) => items,
            Err(e) => {
                eprintln!("drift-eval: {e}");
                failed = true;
                continue;
            }
        };
        if items.is_empty() {
            continue;
        }
        let scores = verdicts::score(&items, view::judge);
        println!("{}", verdicts::report(&scores, s.id()));
        if misses {
            for (id, class, reported, why) in &scores.misses {
                println!(
                    "- {id} {} → {}: {why}",
                    class.id(),
                    reported.map_or("not judged", |r| r.id())
                );
            }
        }
        sections.push(scores::verdicts(&scores, s));
    }

    if write {
        failed |= write_scores(&root, &sections, real_logs_scored);
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
