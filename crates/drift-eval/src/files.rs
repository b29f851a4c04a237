//! The files the evaluation reads (with the `std` feature): the workspace's
//! label files and the real logs beside it. Everything else in this crate
//! is pure and reads what it is given.

use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;
use std::{env, format, fs};

use crate::real::{self, Case};
use crate::verdicts::{self, Item, VerdictSet};

/// The workspace root (this crate lives in `crates/drift-eval`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Where the real logs are: `$DRIFT_REAL_LOGS`, else `../shared/real-logs`
/// beside the workspace; `None` when neither exists.
pub fn real_logs() -> Option<PathBuf> {
    let path = env::var_os("DRIFT_REAL_LOGS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/real-logs"));
    path.is_dir().then_some(path)
}

/// The files of `dir` whose name ends in one of `extensions`, sorted.
fn files(dir: &Path, extensions: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|x| extensions.iter().any(|e| x == *e))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Every labelled log of `labels_dir` found in `logs` (a directory of
/// session logs), with the label files that name a log not there
/// ([`real::cases`]).
///
/// # Errors
///
/// A message naming a directory or a label file that cannot be read, or a
/// log that the tool cannot read.
pub fn cases(labels_dir: &Path, logs: &Path) -> Result<(Vec<Case>, Vec<String>), String> {
    let logs = files(logs, &["jsonl", "json"])?
        .into_iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some((name, fs::read(&path).ok()?))
        })
        .collect();
    real::cases(labels(labels_dir)?, logs)
}

/// Where the shipped model is written.
pub fn model_path() -> PathBuf {
    root().join("crates/drift-session/model/finder.bin")
}

/// The hash of what the model is trained from today: the label files of
/// `eval/real/` not frozen (by file name) and the rule corpus.
///
/// # Errors
///
/// A message naming a file that cannot be read.
pub fn training_inputs() -> Result<u64, String> {
    let mut labels: Vec<(String, String)> = Vec::new();
    for (shown, text) in self::labels(&root().join("eval/real"))? {
        let parsed = crate::labels::LogLabels::parse(&shown, &text).map_err(|e| e.to_string())?;
        if parsed.split == crate::labels::Split::Frozen {
            continue;
        }
        let name = Path::new(&shown)
            .file_name()
            .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
        labels.push((name, text));
    }
    labels.sort();
    Ok(crate::train::inputs_hash(
        labels.iter().map(|(n, t)| (n.as_str(), t.as_str())),
        corpus_files()?.iter().map(String::as_str),
    ))
}

/// The texts of the rule corpus's files (drift-session's
/// `tests/rules/*.txt`), in order of name.
fn corpus_files() -> Result<Vec<String>, String> {
    files(&root().join("crates/drift-session/tests/rules"), &["txt"])?
        .iter()
        .map(|f| fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display())))
        .collect()
}

/// Where the shipped judge model is written.
pub fn judge_model_path() -> PathBuf {
    root().join("crates/drift-session/model/judge.bin")
}

/// The written pairs of `eval/judge/` (every `.pairs` file, in order of
/// name), each with its file's text.
///
/// # Errors
///
/// A message naming a file that cannot be read or a line that does not
/// parse.
pub fn pairs() -> Result<Vec<(String, String, Vec<crate::judging::Pair>)>, String> {
    let dir = root().join("eval/judge");
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for f in files(&dir, &["pairs"])? {
        let shown = f.display().to_string();
        let text = fs::read_to_string(&f).map_err(|e| format!("{shown}: {e}"))?;
        let pairs = crate::judging::parse_pairs(&shown, &text)?;
        let name = f
            .file_name()
            .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
        out.push((name, text, pairs));
    }
    Ok(out)
}

/// The hash of what the judge's model is trained from today: the label
/// files of `eval/real/` not frozen, the pair files of people not frozen
/// (each names its person: `<repo>.pairs`), the verdict sets' dev half and
/// the audit's tuned pairs.
///
/// # Errors
///
/// A message naming a file that cannot be read.
pub fn judge_inputs() -> Result<u64, String> {
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut frozen: Vec<String> = Vec::new();
    for (shown, text) in self::labels(&root().join("eval/real"))? {
        let parsed = crate::labels::LogLabels::parse(&shown, &text).map_err(|e| e.to_string())?;
        if parsed.split == crate::labels::Split::Frozen {
            if let Some(r) = parsed.repo {
                frozen.push(format!("{r:08x}.pairs"));
            }
            continue;
        }
        let name = Path::new(&shown)
            .file_name()
            .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
        texts.push((name, text));
    }
    for (name, text, _) in pairs()? {
        if !frozen.contains(&name) {
            texts.push((name, text));
        }
    }
    let dir = root().join("eval/verdicts");
    for f in files(&dir, &["txt"])? {
        let name = f
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        if name.starts_with(VerdictSet::Dev.prefix()) {
            let text = fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
            texts.push((name, text));
        }
    }
    let audit = fs::read_to_string(audit_pairs_path())
        .map_err(|e| format!("{}: {e}", audit_pairs_path().display()))?;
    texts.push(("labelled/pairs.txt".into(), audit));
    texts.sort();
    Ok(crate::judging::inputs_hash(
        texts.iter().map(|(n, t)| (n.as_str(), t.as_str())),
    ))
}

/// The audit's labelled pairs that were tuned on, which the judge learns
/// from.
fn audit_pairs_path() -> PathBuf {
    root().join("crates/drift-session/tests/labelled/pairs.txt")
}

/// Every judge item (`crate::judging`) of `cases`: the real fates, the
/// written pairs, the verdict sets' dev half and the audit's tuned pairs;
/// with the pairs whose
/// rule cannot be read.
///
/// # Errors
///
/// A message naming a pair or verdict file that cannot be read.
pub fn judge_items(
    cases: &[crate::real::Case],
) -> Result<(Vec<crate::judging::JudgeItem>, Vec<String>), String> {
    use crate::judging;
    let open: Vec<&crate::real::Case> = cases.iter().collect();
    let mut items = judging::real_items(&open);
    let pairs: Vec<judging::Pair> = pairs()?.into_iter().flat_map(|(_, _, p)| p).collect();
    let (mut written, stale) = judging::pair_items(cases, &pairs);
    items.append(&mut written);
    let dev = verdict_items(&root().join("eval/verdicts"), VerdictSet::Dev)?;
    items.extend(judging::verdict_items(&dev));
    let audit = fs::read_to_string(audit_pairs_path())
        .map_err(|e| format!("{}: {e}", audit_pairs_path().display()))?;
    items.extend(judging::audit_items(&crate::audit_pairs::parse(&audit)));
    Ok((items, stale))
}

/// The rule corpus's documents.
///
/// # Errors
///
/// A message naming a file that cannot be read.
pub fn corpus() -> Result<Vec<crate::corpus::Document>, String> {
    Ok(corpus_files()?
        .iter()
        .flat_map(|text| crate::corpus::parse(text))
        .collect())
}

/// The label files of `dir` (none when there is no such directory), each
/// its name for messages and its text.
///
/// # Errors
///
/// A message naming a file that cannot be read.
pub fn labels(dir: &Path) -> Result<Vec<(String, String)>, String> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut labels = Vec::new();
    for file in files(dir, &["labels"])? {
        let shown = file.display().to_string();
        let text = fs::read_to_string(&file).map_err(|e| format!("{shown}: {e}"))?;
        labels.push((shown, text));
    }
    Ok(labels)
}

/// The verdict items of `set` in `dir`: every `dev*.txt` or
/// `held-out*.txt` file, in order of name.
///
/// # Errors
///
/// A message naming the directory or a file that cannot be read, or the
/// first item of a file that does not parse.
pub fn verdict_items(dir: &Path, set: VerdictSet) -> Result<Vec<Item>, String> {
    let prefix = set.prefix();
    let mut items = Vec::new();
    for f in files(dir, &["txt"])?.iter().filter(|f| {
        f.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
    }) {
        let shown = f.display().to_string();
        let text = fs::read_to_string(f).map_err(|e| format!("{shown}: {e}"))?;
        items.append(&mut verdicts::parse(&shown, &text)?);
    }
    Ok(items)
}
