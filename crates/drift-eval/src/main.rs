//! `cargo xtask eval`: the evaluation (see the crate docs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use drift_eval::labels::{LogLabels, People};
use drift_eval::real::Case;
use drift_eval::scores_file::{self, FILE};
use drift_eval::verdicts::VerdictSet;
use drift_eval::{agreement, files, finder, real, report, scores, verdicts, view};

const USAGE: &str = "\
usage: cargo xtask eval [--people unseen|tuned|all] [--frozen] [--misses]
                        [--logs DIR] [--write-scores]

Scores the rule finder and the session audit on the real logs labelled in
eval/real/ (read from ../shared/real-logs/, or --logs / $DRIFT_REAL_LOGS),
by the people they come from: first the people no part was tuned on
(across people), then the people the hand-written parts were tuned on
(in-sample); compares the second reader's labels (eval/second/) with the
first's; and scores the judge on the before/after verdict sets
(eval/verdicts/).

  --people    only those people (default: all, which is unseen and tuned)
  --frozen    also the frozen group: measured once, at the end of each
              change to the finder or the judge (never with --misses)
  --misses    list every mismatch of the people scored
  --write-scores
              write the tables measured into eval/SCORES.md (`cargo xtask
              eval --write-scores` also writes those drift-session's tests
              measure there)
";

/// Writes `sections` into eval/SCORES.md, those of the real logs only when
/// `real_logs_scored`; true when one could not be written.
fn write_scores(root: &Path, sections: &[(&str, String)], real_logs_scored: bool) -> bool {
    let mut failed = false;
    for (name, text) in sections {
        let of_real_logs = ["real-", "finder-", "second-"]
            .iter()
            .any(|p| name.starts_with(p));
        if of_real_logs && !real_logs_scored {
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

/// What the command line asks for.
struct Options {
    people: Vec<People>,
    misses: bool,
    write: bool,
    logs: Option<PathBuf>,
}

fn options() -> Result<Option<Options>, String> {
    let mut o = Options {
        people: vec![People::Unseen, People::Tuned],
        misses: false,
        write: false,
        logs: None,
    };
    let mut frozen = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--people" => {
                o.people = match args.next().as_deref() {
                    Some("unseen") => vec![People::Unseen],
                    Some("tuned") => vec![People::Tuned],
                    Some("all") => vec![People::Unseen, People::Tuned],
                    other => return Err(format!("--people {other:?}: unseen, tuned or all")),
                };
            }
            "--frozen" => frozen = true,
            "--misses" => o.misses = true,
            "--write-scores" => o.write = true,
            "--logs" => o.logs = args.next().map(PathBuf::from),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if frozen {
        if o.misses {
            return Err(
                "--frozen with --misses: the frozen group's misses are never read".to_string(),
            );
        }
        o.people.insert(1, People::Frozen);
    }
    if o.write {
        o.people = vec![People::Unseen, People::Tuned];
        if frozen {
            o.people.insert(1, People::Frozen);
        }
    }
    Ok(Some(o))
}

/// How the real logs were scored.
struct Scored {
    /// Every labelled log was there.
    all_there: bool,
    /// Every anchor decoded.
    decoded: bool,
}

/// The real logs' figures, by people, then the two readers compared: the
/// sections measured, and how they were scored (the real logs' sections
/// are written only when every log was there and every anchor decoded).
fn real_logs(
    root: &Path,
    o: &Options,
    sections: &mut Vec<(&'static str, String)>,
) -> Result<Scored, String> {
    let Some(dir) = o
        .logs
        .clone()
        .filter(|p| p.is_dir())
        .or_else(files::real_logs)
    else {
        println!("Real logs: skipped, no logs at ../shared/real-logs (or $DRIFT_REAL_LOGS).\n");
        return Ok(Scored {
            all_there: false,
            decoded: true,
        });
    };
    let (cases, missing) = files::cases(&root.join("eval/real"), &dir)?;
    for m in &missing {
        println!("{m}: its log is not in {}: skipped", dir.display());
    }
    let mut decoded = true;
    for &people in &o.people {
        let of: Vec<&Case> = cases
            .iter()
            .filter(|c| c.labels.split.people() == people)
            .collect();
        let misses = o.misses && people != People::Frozen;
        let f = finder::score(&of, misses);
        println!("{}", finder::report(&f, people.label()));
        for m in &f.misses {
            println!("- {m}");
        }
        for m in &f.stale {
            println!("stale: {m}");
        }
        decoded &= f.stale.is_empty();
        sections.push(scores::finder(&f, people));
        let s = real::score(&of, misses);
        println!("{}", report::real(&s, people.label()));
        for m in &s.misses {
            println!(
                "- {} #{} {}: {} || {}",
                m.log,
                m.compaction,
                m.what,
                m.label.replace('\n', " "),
                m.reported.replace('\n', " ")
            );
        }
        decoded &= s.stale.is_empty();
        sections.push(scores::real(&s, people));
    }
    let second = files::labels(&root.join("eval/second"))?;
    if !second.is_empty() {
        let second: Vec<LogLabels> = second
            .iter()
            .map(|(shown, text)| LogLabels::parse(shown, text).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        let a = agreement::compare(&cases, &second);
        println!("{}", agreement::report(&a));
        decoded &= a.stale.is_empty();
        sections.push(scores::agreement(&a));
    }
    Ok(Scored {
        all_there: missing.is_empty(),
        decoded,
    })
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprint!("drift-eval: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = files::root();
    let mut failed = false;
    let mut sections: Vec<(&str, String)> = Vec::new();
    let real_logs_scored = match real_logs(&root, &o, &mut sections) {
        Ok(scored) => {
            failed |= !scored.decoded;
            scored.all_there && scored.decoded
        }
        Err(e) => {
            eprintln!("drift-eval: {e}");
            failed = true;
            false
        }
    };

    // Verdict sets.
    for set in VerdictSet::ALL {
        let items = match files::verdict_items(&root.join("eval/verdicts"), set) {
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
        println!("{}", verdicts::report(&scores, set.id()));
        if o.misses {
            for (id, class, reported, why) in &scores.misses {
                println!(
                    "- {id} {} → {}: {why}",
                    class.id(),
                    reported.map_or("not judged", |r| r.id())
                );
            }
        }
        sections.push(scores::verdicts(&scores, set));
    }

    if o.write {
        failed |= write_scores(&root, &sections, real_logs_scored);
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
