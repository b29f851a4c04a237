//! `cargo xtask eval`: the evaluation (see the crate docs).

use std::path::PathBuf;
use std::process::ExitCode;

use drift_eval::labels::Split;
use drift_eval::{files, finder, real, report, verdicts, view};

const USAGE: &str = "\
usage: cargo xtask eval [--split dev|held_out|finder|all] [--misses] [--logs DIR]

Scores the session audit on the labelled real compactions (eval/real/,
logs from ../shared/real-logs/ or --logs / $DRIFT_REAL_LOGS), the judge on
the before/after verdict sets (eval/verdicts/), and the rule finder alone
on logs whose every typed rule is labelled (split finder). --split picks
the part (default: dev); --misses lists every mismatch of the split.
";

fn main() -> ExitCode {
    let mut split = "dev".to_string();
    let mut misses = false;
    let mut logs: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--split" => split = args.next().unwrap_or_default(),
            "--misses" => misses = true,
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
                    }
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
                    }
                }
            }
        },
    }

    // Verdict sets.
    for &s in &splits {
        let prefix = match s {
            Split::Dev => "dev",
            Split::HeldOut => "held-out",
            Split::Finder => continue,
        };
        let mut items = Vec::new();
        let dir = root.join("eval/verdicts");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for f in files.iter().filter(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
                && f.extension().is_some_and(|x| x == "txt")
        }) {
            let shown = f.display().to_string();
            match std::fs::read_to_string(f)
                .map_err(|e| format!("{shown}: {e}"))
                .and_then(|t| verdicts::parse(&shown, &t))
            {
                Ok(mut v) => items.append(&mut v),
                Err(e) => {
                    eprintln!("drift-eval: {e}");
                    failed = true;
                }
            }
        }
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
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
