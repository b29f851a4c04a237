//! `drift hook NAME --install [--project | --user] [--write]`: the change to
//! the harness's settings file (Claude Code's `settings.json`, Codex's
//! `hooks.json`: the same shape) that registers `drift hook NAME` as a
//! `SessionStart` hook with matcher `compact`, as the harness's
//! [`CompactHook`] describes it.
//!
//! The change is merged into the file: its other keys, its other hooks and
//! their order are kept as they are; registering twice changes nothing
//! (a registration of another `drift` path is pointed at this one). Without
//! `--write` nothing is written: the command shows the file and the entry it
//! would add. A file that is not JSON, or whose `hooks` or
//! `hooks.SessionStart` is not what the harness reads, is an error naming
//! it, and nothing is written. An empty file counts as `{}`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use drift_core::{CompactHook, RemedyHarness};

use crate::error::Error;
use crate::text::plural;

/// Which settings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The project's (`.claude/settings.json`, `.codex/hooks.json`) under
    /// the current directory.
    Project,
    /// The user's (`~/.claude/settings.json`, `~/.codex/hooks.json`).
    User,
}

/// What `--install` was asked for.
#[derive(Debug)]
pub struct Request {
    /// Whose hook.
    pub harness: RemedyHarness,
    /// Which file.
    pub scope: Scope,
    /// Whether to write it.
    pub write: bool,
}

/// A JSON value that keeps the order of its object keys, so that a settings
/// file is written back as it was read, plus the change.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(entries) => entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What a value is, for a message ("an array").
    fn what(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    fn string(s: &str) -> Json {
        Json::String(s.to_string())
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
                serde_json::Number::from_f64(n)
                    .map(Json::Number)
                    .ok_or_else(|| E::custom("a number JSON cannot hold"))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
                Ok(Json::string(s))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
                Ok(Json::String(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    entries.push((k, v));
                }
                Ok(Json::Object(entries))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::String(v) => s.serialize_str(v),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

fn pretty(value: &Json) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// The running `drift`'s absolute path, quoted for a shell when it needs
/// to be: what a registration runs.
pub fn drift() -> Result<String, Error> {
    let exe = std::env::current_exe()
        .map_err(|e| Error::input(format!("cannot tell where this drift is installed: {e}")))?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    let path = exe
        .to_str()
        .ok_or_else(|| Error::at(exe.display().to_string(), "the path is not UTF-8"))?;
    Ok(shell_word(path))
}

/// `word` as one shell word: unchanged when it is plain, else in single
/// quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%=,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The first shell word of `command` and the rest.
fn split_program(command: &str) -> (String, &str) {
    let command = command.trim_start();
    if let Some(rest) = command.strip_prefix('\'')
        && let Some(end) = rest.find('\'')
    {
        return (rest[..end].to_string(), &rest[end + 1..]);
    }
    if let Some(rest) = command.strip_prefix('"')
        && let Some(end) = rest.find('"')
    {
        return (rest[..end].to_string(), &rest[end + 1..]);
    }
    match command.find(char::is_whitespace) {
        Some(end) => (command[..end].to_string(), &command[end..]),
        None => (command.to_string(), ""),
    }
}

/// Whether `command` runs some `drift` as `hook`: its program is named
/// `drift` and its arguments start with `hook NAME`.
fn is_drift_hook(command: &str, hook: &CompactHook) -> bool {
    let args = hook.command_line("").trim_start().to_string();
    let args = args.as_str();
    let (program, rest) = split_program(command);
    let named_drift = Path::new(&program)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == "drift" || n == "drift.exe");
    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    named_drift && (rest == args || rest.starts_with(&format!("{args} ")))
}

/// What the merge does.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// A new matcher group is added.
    Added,
    /// A registration of another `drift` now runs this one.
    Repointed {
        /// The command it ran.
        from: String,
    },
    /// Already registered: nothing to do.
    Unchanged,
}

/// A settings file with the hook merged in.
#[derive(Debug)]
pub struct Merged {
    /// The file's text after the change (with a final newline).
    pub text: String,
    /// The entry added, as JSON (for [`Change::Added`]).
    pub added: Option<String>,
    /// What changed.
    pub change: Change,
    /// How many hook handlers the file had before.
    pub hooks_before: usize,
    /// Whether the file had other settings than `hooks`.
    pub other_keys: usize,
}

/// Merges the registration of `command` as `hook` into the settings `text`
/// (`None` when the file does not exist). `file` names it in errors.
pub fn merge(
    text: Option<&str>,
    file: &str,
    command: &str,
    hook: &CompactHook,
) -> Result<Merged, Error> {
    let event = hook.event;
    let mut root: Json = match text {
        None => Json::Object(Vec::new()),
        Some(t) if t.trim().is_empty() => Json::Object(Vec::new()),
        Some(t) => serde_json::from_str(t.trim_start_matches('\u{FEFF}')).map_err(|e| {
            Error::at(
                file,
                format!("not JSON ({e}); nothing written, fix the file or move it away first"),
            )
        })?,
    };
    let Json::Object(entries) = &root else {
        return Err(Error::at(
            file,
            format!(
                "the settings are {}, not an object; nothing written",
                root.what()
            ),
        ));
    };
    let other_keys = entries.iter().filter(|(k, _)| k != "hooks").count();
    if root.get("hooks").is_none()
        && let Json::Object(entries) = &mut root
    {
        entries.push(("hooks".to_string(), Json::Object(Vec::new())));
    }
    let hooks = root
        .get_mut("hooks")
        .ok_or_else(|| Error::at(file, "cannot add \"hooks\""))?;
    if !matches!(hooks, Json::Object(_)) {
        return Err(Error::at(
            file,
            format!(
                "\"hooks\" is {}, not an object of events; nothing written",
                hooks.what()
            ),
        ));
    }
    let hooks_before = match &*hooks {
        Json::Object(events) => events
            .iter()
            .map(|(_, groups)| match groups {
                Json::Array(groups) => groups
                    .iter()
                    .map(|g| match g.get("hooks") {
                        Some(Json::Array(h)) => h.len(),
                        _ => 0,
                    })
                    .sum(),
                _ => 0,
            })
            .sum(),
        _ => 0,
    };
    if hooks.get(event).is_none()
        && let Json::Object(events) = hooks
    {
        events.push((event.to_string(), Json::Array(Vec::new())));
    }
    let Some(Json::Array(groups)) = hooks.get_mut(event) else {
        let what = hooks.get(event).map_or("missing", Json::what);
        return Err(Error::at(
            file,
            format!("\"hooks.{event}\" is {what}, not an array of matcher groups; nothing written"),
        ));
    };
    // Registered already (this drift, or another one to point here).
    let (program, _) = split_program(command);
    let mut change = None;
    for group in groups.iter_mut() {
        let Some(Json::Array(handlers)) = group.get_mut("hooks") else {
            continue;
        };
        for handler in handlers.iter_mut() {
            let Some(Json::String(registered)) = handler.get_mut("command") else {
                continue;
            };
            let (theirs, rest) = split_program(registered);
            if registered.trim() == command
                || (is_drift_hook(registered, hook) && theirs == program)
            {
                change = Some(Change::Unchanged);
            } else if change.is_none() && is_drift_hook(registered, hook) {
                let from = registered.clone();
                *registered = format!("{}{rest}", shell_word(&program));
                change = Some(Change::Repointed { from });
            }
        }
    }
    let mut added = None;
    let change = match change {
        Some(c) => c,
        None => {
            let group = Json::Object(vec![
                ("matcher".to_string(), Json::string(hook.matcher)),
                (
                    "hooks".to_string(),
                    Json::Array(vec![Json::Object(vec![
                        ("type".to_string(), Json::string("command")),
                        ("command".to_string(), Json::string(command)),
                        (
                            "timeout".to_string(),
                            Json::Number(hook.timeout_seconds.into()),
                        ),
                    ])]),
                ),
            ]);
            added = Some(pretty(&group));
            groups.push(group);
            Change::Added
        }
    };
    let mut text = pretty(&root);
    text.push('\n');
    Ok(Merged {
        text,
        added,
        change,
        hooks_before,
        other_keys,
    })
}

/// `hook`'s settings file for `scope`.
pub fn settings_path(scope: Scope, hook: &CompactHook) -> Result<PathBuf, Error> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    match scope {
        Scope::Project => std::env::current_dir()
            .map(|d| d.join(hook.dir).join(hook.file))
            .map_err(|e| Error::input(format!("cannot tell the current directory: {e}"))),
        Scope::User => {
            if let Some(home) = hook.home_variable.and_then(var) {
                return Ok(PathBuf::from(home).join(hook.file));
            }
            var("HOME")
                .map(|h| PathBuf::from(h).join(hook.dir).join(hook.file))
                .ok_or_else(|| {
                    Error::input(format!(
                        "HOME is not set: cannot find ~/{} (use --project)",
                        hook.project_file()
                    ))
                })
        }
    }
}

/// Writes `text` to `path` through a file beside it, so a reader never
/// sees half of it; a link is followed, the file's permissions kept.
fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let shown = path.display().to_string();
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::at(dir.display().to_string(), format!("cannot create: {e}")))?;
    }
    let mut tmp = target.clone().into_os_string();
    tmp.push(".drift-new");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(|e| Error::at(&shown, format!("cannot write: {e}")))?;
    if let Ok(meta) = std::fs::metadata(&target) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, &target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::at(&shown, format!("cannot write: {e}"))
    })
}

/// Runs `--install`: the report to print, or an error naming the file.
pub fn command_install(request: &Request) -> Result<String, Error> {
    let hook = request
        .harness
        .hook()
        .ok_or_else(|| Error::input(format!("{} has no hook", request.harness.name())))?;
    let path = settings_path(request.scope, &hook)?;
    let command = hook.command_line(&drift()?);
    install_at(request.harness, &path, &command, request.write)
}

/// `--install` of `harness`'s hook in the settings file at `path`,
/// registering `command`.
pub fn install_at(
    harness: RemedyHarness,
    path: &Path,
    command: &str,
    write: bool,
) -> Result<String, Error> {
    let hook = harness
        .hook()
        .ok_or_else(|| Error::input(format!("{} has no hook", harness.name())))?;
    let shown = path.display().to_string();
    let existing = match std::fs::read(path) {
        Ok(bytes) => Some(
            String::from_utf8(bytes)
                .map_err(|_| Error::at(&shown, "not UTF-8 text, so not JSON; nothing written"))?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::at(&shown, format!("cannot read: {e}"))),
    };
    let merged = merge(existing.as_deref(), &shown, command, &hook)?;
    let mut out = String::new();
    let kept = match (merged.hooks_before, merged.other_keys) {
        (0, 0) => String::new(),
        (h, k) => format!(
            ", keeping its {} and {}",
            plural(h, "hook", "hooks"),
            plural(k, "other setting", "other settings")
        ),
    };
    match &merged.change {
        Change::Unchanged => {
            let _ = writeln!(
                out,
                "{shown}: already registered as a SessionStart hook: `{command}`. Nothing to change."
            );
            return Ok(out);
        }
        Change::Added => {
            let verb = if write { "Added" } else { "Adds" };
            let what = if existing.is_some() {
                format!("to {shown}{kept}")
            } else {
                format!("to {shown}, a new file")
            };
            let _ = writeln!(
                out,
                "{verb} a SessionStart hook with matcher \"compact\" {what}:\n"
            );
            for line in merged.added.as_deref().unwrap_or("").lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        Change::Repointed { from } => {
            let verb = if write { "Pointed" } else { "Points" };
            let _ = writeln!(
                out,
                "{verb} the SessionStart hook `{from}` in {shown} at this drift: `{command}`."
            );
        }
    }
    if write {
        write_file(path, &merged.text)?;
        let _ = writeln!(
            out,
            "\n{}",
            if harness == RemedyHarness::CodexCli {
                "Codex runs it after every compaction once it is trusted: review it with /hooks in Codex, which skips a hook nobody has reviewed (it reads hooks when a session starts)."
            } else {
                "Claude Code runs it after every compaction (it reads settings when a session starts)."
            }
        );
    } else {
        let _ = writeln!(out, "\nThe file after the change:\n");
        for line in merged.text.lines() {
            let _ = writeln!(out, "    {line}");
        }
        let _ = writeln!(
            out,
            "\nNothing written: run again with --write to write it."
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> CompactHook {
        RemedyHarness::ClaudeCode.hook().unwrap()
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_word("/usr/local/bin/drift"), "/usr/local/bin/drift");
        assert_eq!(shell_word("/opt/my tools/drift"), "'/opt/my tools/drift'");
        assert_eq!(shell_word("/a/it's/drift"), r"'/a/it'\''s/drift'");
        assert_eq!(
            split_program("'/opt/my tools/drift' hook claude-code"),
            ("/opt/my tools/drift".to_string(), " hook claude-code")
        );
    }

    #[test]
    fn drift_hooks_are_recognised() {
        let codex = RemedyHarness::CodexCli.hook().unwrap();
        assert!(is_drift_hook("/old/bin/drift hook claude-code", &claude()));
        assert!(is_drift_hook(
            "'/opt/my tools/drift' hook claude-code --max-tokens 900",
            &claude()
        ));
        assert!(!is_drift_hook(
            "/old/bin/drift hook claude-codex",
            &claude()
        ));
        assert!(!is_drift_hook("echo hook claude-code", &claude()));
        assert!(is_drift_hook("/bin/drift hook codex", &codex));
        assert!(!is_drift_hook("/bin/drift hook claude-code", &codex));
    }

    #[test]
    fn another_drift_is_repointed_keeping_its_flags() {
        let text = r#"{"hooks":{"SessionStart":[{"matcher":"compact","hooks":[{"type":"command","command":"/old/drift hook claude-code --max-tokens 900"}]}]}}"#;
        let m = merge(
            Some(text),
            "s.json",
            "/new/drift hook claude-code",
            &claude(),
        )
        .unwrap();
        assert!(matches!(m.change, Change::Repointed { .. }), "{m:?}");
        assert!(
            m.text
                .contains(r#""/new/drift hook claude-code --max-tokens 900""#),
            "{}",
            m.text
        );
        let again = merge(
            Some(&m.text),
            "s.json",
            "/new/drift hook claude-code",
            &claude(),
        )
        .unwrap();
        assert_eq!(again.change, Change::Unchanged);
        assert_eq!(again.text, m.text);
    }

    /// A new file holds what drift-core's registration writes, for every
    /// harness with a hook: one shape, one home.
    #[test]
    fn a_new_file_is_the_registration_the_remedy_shows() {
        for h in RemedyHarness::ALL {
            let Some(hook) = h.hook() else { continue };
            let command = hook.command_line("/bin/drift");
            let m = merge(None, &hook.project_file(), &command, &hook).unwrap();
            assert_eq!(m.text, hook.registration("/bin/drift"), "{}", h.id());
        }
    }
}
