//! `eval/SCORES.md`, the one file of score tables. Each section of it lies
//! between `<!-- scores:NAME -->` and `<!-- /scores:NAME -->` and is written
//! by what measures it: `cargo xtask eval --write-scores` writes them all,
//! and each test that measures a set holds its section to what it measured,
//! failing (with the command to run) when they differ.
//!
//! This file uses `std` alone, none of this crate's items: drift-session's
//! tests compile it too (by `#[path]`), so every section is read and written
//! one way.

use std::ops::Range;
use std::path::Path;
use std::string::String;
use std::sync::{Mutex, PoisonError};
use std::{env, format, fs};

/// The file, from the workspace root.
pub const FILE: &str = "eval/SCORES.md";

/// The command that writes every section.
pub const COMMAND: &str = "cargo xtask eval --write-scores";

/// The variable that makes the tests write their sections rather than check
/// them (set to anything).
pub const WRITE: &str = "DRIFT_WRITE_SCORES";

/// Whether `$DRIFT_WRITE_SCORES` is set.
pub fn writing() -> bool {
    env::var_os(WRITE).is_some()
}

/// The byte range of section `name`'s body in `text`: what lies between its
/// two markers.
pub fn section(text: &str, name: &str) -> Option<Range<usize>> {
    let open = format!("<!-- scores:{name} -->\n");
    let close = format!("<!-- /scores:{name} -->");
    let start = text.find(&open)? + open.len();
    let len = text[start..].find(&close)?;
    Some(start..start + len)
}

/// The body of a section holding `content`: a blank line on either side.
pub fn body(content: &str) -> String {
    format!("\n{}\n\n", content.trim_end())
}

/// Tests of one process share the file.
static FILE_LOCK: Mutex<()> = Mutex::new(());

/// Holds section `name` of `root`'s `eval/SCORES.md` to `content`: writes it
/// there when `write` (true when that changed the file), and otherwise says
/// how the two differ and how to write the file again.
///
/// # Errors
///
/// The file cannot be read or written, it has no such section, or (unless
/// `write`) the section is not `content`.
pub fn hold(root: &Path, name: &str, content: &str, write: bool) -> Result<bool, String> {
    let _one_at_a_time = FILE_LOCK.lock().unwrap_or_else(PoisonError::into_inner);
    let path = root.join(FILE);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let range = section(&text, name).ok_or_else(|| {
        format!(
            "{FILE} has no section {name}: put `<!-- scores:{name} -->` and \
             `<!-- /scores:{name} -->` on lines of their own where it belongs, then run {COMMAND}"
        )
    })?;
    let body = body(content);
    let held = &text[range.clone()];
    if held == body {
        return Ok(false);
    }
    if write {
        let mut new = text.clone();
        new.replace_range(range, &body);
        return fs::write(&path, new)
            .map(|()| true)
            .map_err(|e| format!("{}: {e}", path.display()));
    }
    let lines = held.lines().count().max(body.lines().count());
    let (line, file_has, measured) = held
        .lines()
        .map(Some)
        .chain(core::iter::repeat(None))
        .zip(body.lines().map(Some).chain(core::iter::repeat(None)))
        .take(lines)
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map_or(
            (0, None, Some("the same lines, ended otherwise")),
            |(n, (a, b))| (n + 1, a, b),
        );
    Err(format!(
        "{FILE}, section {name}, is not what was measured: at its line {line}, the file has\n  \
         {}\nand the measurement gives\n  {}\nThe measured section:\n{body}\n\
         If the change is meant, write the file again and commit it: {COMMAND} \
         (or this test with {WRITE}=1).",
        file_has.unwrap_or("(nothing)"),
        measured.unwrap_or("(nothing)"),
    ))
}
