//! `cargo xtask eval`: the evaluation (see the crate docs).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use drift_eval::cv::Folds;
use drift_eval::labels::{LogLabels, People};
use drift_eval::real::Case;
use drift_eval::scores::{Figure, Measured};
use drift_eval::scores_file::{self, FILE};
use drift_eval::train::Settings;
use drift_eval::verdicts::VerdictSet;
use drift_eval::{agreement, files, finder, judging, report, scores, verdicts, view};
use drift_session::judge::{After, FateJudge};

const USAGE: &str = "\
usage: cargo xtask eval [--frozen] [--misses] [--judge] [--logs DIR] [--write-scores]
       drift-eval train
       drift-eval judge RULE SUMMARY_FILE

Scores the rule finder and the session audit on the real logs labelled in
eval/real/ (read from ../shared/real-logs/, or --logs / $DRIFT_REAL_LOGS),
by the people they come from: first across people (each person's logs read
by a model trained on the others only, 5 folds by person), then in-sample
(the shipped model on the people it learned from); compares the second
reader's labels (eval/second/) with the first's; and scores the judge on
the before/after verdict sets (eval/verdicts/).

  --frozen    also the frozen group: measured once, at the end of each
              change to the finder or the judge (never with --misses)
  --misses    list every mismatch of the figures across people
  --judge     the judge alone: its figures across people and the verdict
              sets (the rule finder's folds are not trained)
  --write-scores
              write the tables measured into eval/SCORES.md (`cargo xtask
              eval --write-scores` also writes those drift-session's tests
              measure there)

`drift-eval train` (`cargo xtask train`) writes the rule finder's model,
crates/drift-session/model/finder.bin, from the labels of every person not
frozen and the rule corpus, and the judge's, crates/drift-session/model/
judge.bin, from the labelled fates, the written pairs (eval/judge/) and the
verdict sets' dev half.
";

/// Writes `sections` into eval/SCORES.md, those of the real logs only when
/// `real_logs_scored`; true when one could not be written.
fn write_scores(root: &Path, sections: &[(String, String)], real_logs_scored: bool) -> bool {
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
    frozen: bool,
    misses: bool,
    write: bool,
    judge: bool,
    logs: Option<PathBuf>,
}

fn options() -> Result<Option<Options>, String> {
    let mut o = Options {
        frozen: false,
        misses: false,
        write: false,
        judge: false,
        logs: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--frozen" => o.frozen = true,
            "--misses" => o.misses = true,
            "--write-scores" => o.write = true,
            "--judge" => o.judge = true,
            "--logs" => o.logs = args.next().map(PathBuf::from),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if o.frozen && o.misses {
        return Err("--frozen with --misses: the frozen group's misses are never read".to_string());
    }
    Ok(Some(o))
}

/// A figure of the real logs, printed (with its misses) and pushed onto
/// `sections`; false when an anchor no longer decodes.
fn show(m: &Measured, sections: &mut Vec<(String, String)>) -> bool {
    let (f, s) = (&m.finder, &m.real);
    println!("{}", finder::report(f, m.figure.label()));
    for miss in &f.misses {
        println!("- {miss}");
    }
    for stale in &f.stale {
        println!("stale: {stale}");
    }
    sections.push(scores::finder(f, m.figure));
    println!("{}", report::real(s, m.figure.label()));
    for miss in &s.misses {
        println!(
            "- {} #{} {}: {} || {}",
            miss.log,
            miss.compaction,
            miss.what,
            miss.label.replace('\n', " "),
            miss.reported.replace('\n', " ")
        );
    }
    sections.push(scores::real(s, m.figure));
    f.stale.is_empty() && s.stale.is_empty()
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
    sections: &mut Vec<(String, String)>,
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
    let all: Vec<&Case> = cases.iter().collect();
    let (judged, stale) = files::judge_items(&cases)?;
    for s in &stale {
        println!("stale pair: {s}");
    }
    decoded &= stale.is_empty();
    let learned = judging::learned(&judged);
    let examples = judging::examples(&learned);
    let folds = if o.judge {
        Folds::train_judges(&all, &examples)
    } else {
        Folds::train(&all, &files::corpus()?, Settings::default(), &examples)
    };
    // The judge on the written pairs and the real fates, across people.
    let across = scores::judge_across(&learned, &folds, o.misses);
    println!("{}", judging::report(&across, scores::JUDGE_ACROSS));
    for m in &across.misses {
        println!("- {m}");
    }
    sections.push(scores::judge_pairs(&across, Figure::Across));
    if o.judge {
        // The verdict sets' held-out half, by a judge trained as the
        // shipped one is, here (the shipped one is built in).
        let refs: Vec<&judging::JudgeExample> = examples.iter().collect();
        let bytes = judging::train(&refs, 0, judging::SETTINGS).to_bytes();
        if let Ok(model) = drift_session::judge::model::JudgeModel::from_bytes(&bytes) {
            let judge = FateJudge::new(model);
            let items = files::verdict_items(&root.join("eval/verdicts"), VerdictSet::HeldOut)?;
            let s = verdicts::score(&items, |rule, after| view::judge(&judge, rule, after));
            println!("{}", verdicts::report(&s, "held_out, trained here"));
        }
        return Ok(Scored {
            all_there: false,
            decoded,
        });
    }
    if o.frozen {
        let shipped = FateJudge::shipped();
        let frozen: Vec<&judging::JudgeItem> = judged
            .iter()
            .filter(|i| i.people == Some(People::Frozen))
            .collect();
        let s = judging::score(
            &frozen,
            |i| shipped.judge(&i.rule, &After::new(&i.after)).fate,
            false,
        );
        println!("{}", judging::report(&s, scores::JUDGE_FROZEN));
        sections.push(scores::judge_pairs(&s, Figure::Frozen));
    }
    let mut figures = vec![Figure::Across, Figure::AcrossUntuned];
    if o.frozen {
        figures.push(Figure::Frozen);
    }
    figures.push(Figure::InSample);
    for m in scores::measure(&cases, &folds, &figures, o.misses) {
        decoded &= show(&m, sections);
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

/// `drift-eval train`: the rule finder's model, from the labels of every
/// person not frozen and the rule corpus, and the judge's, from every judge
/// item of the people not frozen and of no person; each written where
/// drift-session reads it. The logs are read once for both.
fn train() -> ExitCode {
    let started = std::time::Instant::now();
    let root = files::root();
    let Some(dir) = files::real_logs() else {
        eprintln!(
            "drift-eval: training needs the real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)"
        );
        return ExitCode::FAILURE;
    };
    let run = || -> Result<(), String> {
        let (cases, missing) = files::cases(&root.join("eval/real"), &dir)?;
        if !missing.is_empty() {
            return Err(format!(
                "{} labelled logs are not in {}: a model trained without them would not be the one the labels make",
                missing.len(),
                dir.display()
            ));
        }
        // The rule finder.
        let open: Vec<&Case> = cases
            .iter()
            .filter(|c| c.labels.split.people() != People::Frozen)
            .collect();
        let examples = drift_eval::train::dataset(&open, &files::corpus()?);
        let refs: Vec<&drift_eval::train::Example> = examples.iter().collect();
        let inputs = files::training_inputs()?;
        let weights =
            drift_eval::train::train(&refs, inputs, drift_eval::train::Settings::default());
        let units = format!("{} units", examples.len());
        write_model(
            &files::model_path(),
            &weights.to_bytes(),
            &units,
            inputs,
            started,
        )?;
        for class in drift_session::rules::model::Giver::ALL {
            println!(
                "  {class:?}: a rule from {:.3}, possibly from {:.3}",
                weights.threshold[class as usize], weights.possible[class as usize]
            );
        }
        // The judge.
        let started = std::time::Instant::now();
        let (items, stale) = files::judge_items(&cases)?;
        if let Some(s) = stale.first() {
            return Err(format!(
                "{} written pairs cannot be read (first: {s}): a model trained without them would not be the one the pairs make",
                stale.len()
            ));
        }
        let examples = judging::examples(&judging::learned(&items));
        let refs: Vec<&judging::JudgeExample> = examples.iter().collect();
        let inputs = files::judge_inputs()?;
        let bytes = judging::train(&refs, inputs, judging::SETTINGS).to_bytes();
        let pairs = format!("{} pairs", examples.len());
        write_model(&files::judge_model_path(), &bytes, &pairs, inputs, started)
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("drift-eval: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes a model's `bytes` to `path` and says what it was trained on.
fn write_model(
    path: &Path,
    bytes: &[u8],
    trained_on: &str,
    inputs: u64,
    started: std::time::Instant,
) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: {} bytes, trained on {trained_on} (inputs {inputs:016x}) in {:.1} s",
        path.display(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `drift-eval judge RULE SUMMARY_FILE`: the shipped judge's verdict on
/// one rule, with each fate's chance and structure's own call.
fn judge_one(args: &[String]) -> ExitCode {
    let [rule, file] = args else {
        eprintln!("usage: drift-eval judge RULE SUMMARY_FILE");
        return ExitCode::from(2);
    };
    let after = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("drift-eval: {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let judged = After::new(&after);
    let reading = drift_session::judge::read(rule, &judged);
    let model = drift_session::judge::model::JudgeModel::shipped();
    let chances = model.chances(&reading.slots(rule, &after, model.bits()));
    let verdict = FateJudge::shipped().judge(rule, &judged);
    println!(
        "{} ({:.2} sure, the evidence holds {:.2} of the rule): {}",
        verdict.fate.id(),
        verdict.chance,
        verdict.coverage,
        verdict.why.words()
    );
    if let Some(span) = verdict.evidence {
        println!("  evidence: {}", span.of(&after).trim());
    }
    for (fate, chance) in drift_session::judge::model::JUDGED.iter().zip(chances) {
        println!("  {:<13}{chance:.3}", fate.id());
    }
    let call = reading.structural();
    println!(
        "  structure's call: {} ({})",
        call.fate.id(),
        call.why.words()
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("train") {
        return train();
    }
    if args.first().map(String::as_str) == Some("judge") {
        return judge_one(&args[1..]);
    }
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
    let mut sections: Vec<(String, String)> = Vec::new();
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
        let judge = FateJudge::shipped();
        let scores = verdicts::score(&items, |rule, after| view::judge(&judge, rule, after));
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
