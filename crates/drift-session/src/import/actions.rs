//! Consequential tool calls read as actions: what each did, to which
//! resource, and the facts that govern it.

use super::*;

/// Hands out ids, each once: `base`, then `base-2`, `base-3` …
#[derive(Default)]
pub(super) struct Ids {
    pub(super) taken: BTreeMap<String, ()>,
}

impl Ids {
    pub(super) fn unique(&mut self, base: &str) -> String {
        let mut id = base.to_string();
        let mut n = 2u64;
        while self.taken.contains_key(&id) {
            id = alloc::format!("{base}-{n}");
            n += 1;
        }
        self.taken.insert(id.clone(), ());
        id
    }
}

// ---------------------------------------------------------------- actions

pub(super) struct FoundAction {
    pub(super) action: Action,
    pub(super) guess: ActionGuess,
}

/// Action text longer than this is cut.
pub(super) const MAX_ACTION_TEXT: usize = 200;

pub(super) fn read_actions(
    transcript: &Transcript,
    turns: &[MessageTurn],
    facts: &[FoundFact],
) -> (Vec<FoundAction>, Vec<SkippedAction>) {
    let index = ResourceIndex::new(facts);
    let mut ids = Ids::default();
    let mut actions = Vec::new();
    let mut skipped = Vec::new();
    for (m, message) in transcript.messages.iter().enumerate() {
        let Some(tool) = message.tool_name.as_deref() else {
            continue;
        };
        if message.role != MessageRole::Assistant || NOT_ACTIONS.contains(&tool) {
            continue;
        }
        let arguments = message.tool_arguments.as_deref().unwrap_or("");
        let (command, patch) = command_of(tool, arguments);
        let (found, in_tool_name) = match patterns::find(&command) {
            Some(found) => (found, false),
            None => match patterns::find(tool) {
                Some(found) => (found, true),
                None => continue,
            },
        };
        let pattern = found.pattern;
        let turn = turns.get(m).map_or(1, |t| t.turn.max(1));
        let origin = Origin {
            place: Place {
                message: m,
                field: MessageField::Arguments,
                span: Span::new(0, arguments.len()),
            },
            record: message.record,
            role: message.role,
            turn,
        };
        if !message.status.ran() {
            skipped.push(SkippedAction {
                origin,
                tool: tool.to_string(),
                command: command.clone(),
                pattern,
                why: SkipReason::NotRun(message.status),
            });
            continue;
        }
        // Facts stated before this message.
        let before = facts.partition_point(|f| f.message < m);
        let (governed_by, governance) = match index.shared(&command, before) {
            Some((found, names)) => (found, Governance::SharedResources(names)),
            None => (
                facts
                    .get(..before)
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.fact.kind.is_constraint())
                    .map(|(i, _)| i)
                    .collect(),
                Governance::EveryConstraintBefore,
            ),
        };
        if governed_by.is_empty() {
            skipped.push(SkippedAction {
                origin,
                tool: tool.to_string(),
                command,
                pattern,
                why: SkipReason::NothingBefore,
            });
            continue;
        }
        let id = ids.unique(pattern.id);
        let what = if in_tool_name || patch || found.segments <= 1 {
            action_text(tool, &command)
        } else {
            alloc::format!(
                "{} (of a chain of {} commands)",
                action_text(tool, found.segment),
                found.segments
            )
        };
        let action = Action {
            id: id.clone(),
            text: what,
            turn,
            governed_by: governed_by
                .iter()
                .filter_map(|&i| facts.get(i).map(|f| f.fact.id.clone()))
                .collect(),
            delegated: message.agent.is_some(),
            irreversible: pattern.irreversible,
            target: None,
            consequence: pattern.consequence.to_string(),
        };
        let matched = found.matched.to_string();
        actions.push(FoundAction {
            action,
            guess: ActionGuess {
                id,
                origin,
                tool: tool.to_string(),
                command,
                pattern,
                matched,
                in_tool_name,
                governance,
            },
        });
    }
    (actions, skipped)
}

/// Tools whose calls act on nothing: they read, search, plan, delegate
/// (the subagent's own calls are its actions) or poll a running command.
pub(super) const NOT_ACTIONS: &[&str] = &[
    "Read",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "NotebookRead",
    "TodoWrite",
    "TodoRead",
    "Skill",
    "Task",
    "Agent",
    "ExitPlanMode",
    "write_stdin",
    "update_plan",
    "view_image",
    "web_search",
    "file_search",
    "code_interpreter",
];

/// What a call does, as a command, and whether it is a patch: a patch as
/// its file operations (an added file's lines are content, a `*** Delete
/// File:` deletes), an `apply_patch_call`'s operation, else the call's
/// arguments read by [`patterns`].
pub(super) fn command_of(tool: &str, arguments: &str) -> (String, bool) {
    if is_patch(arguments) {
        return (patch_command(arguments), true);
    }
    let value = serde_json::from_str::<serde_json::Value>(arguments).ok();
    if let Some(v) = &value {
        // `{"input": "*** Begin Patch…"}`, `{"command": ["apply_patch", "*** Begin Patch…"]}`.
        let patch = v
            .get("input")
            .and_then(|p| p.as_str())
            .or_else(|| {
                v.get("command")
                    .and_then(|c| c.as_array())
                    .and_then(|c| c.iter().filter_map(|p| p.as_str()).find(|p| is_patch(p)))
            })
            .filter(|p| is_patch(p));
        if let Some(patch) = patch {
            return (patch_command(patch), true);
        }
        // An `apply_patch_call`'s operation.
        if tool == "apply_patch"
            && let Some(path) = v.get("path").and_then(|p| p.as_str())
        {
            let verb = match v.get("type").and_then(|t| t.as_str()) {
                Some("delete_file") => "delete file",
                Some("create_file") => "add file",
                _ => "edit file",
            };
            return (alloc::format!("{verb} {path}"), true);
        }
    }
    (patterns::command_text(arguments), false)
}

/// "Bash: kubectl rollout restart deploy/payments-api", whitespace
/// collapsed, cut at [`MAX_ACTION_TEXT`] characters.
pub(super) fn action_text(tool: &str, command: &str) -> String {
    let mut out = String::from(tool);
    out.push_str(": ");
    let mut chars = 0;
    for (i, word) in command.split_whitespace().enumerate() {
        let space = (i > 0).then_some(' ');
        for c in space.into_iter().chain(word.chars()) {
            if chars == MAX_ACTION_TEXT {
                out.push('…');
                return out;
            }
            out.push(c);
            chars += 1;
        }
    }
    out
}

/// Separators inside a resource name after which a longer name is one of
/// its family (`payments-api` → `payments-api-7d9f8`).
pub(super) fn is_name_separator(b: u8) -> bool {
    matches!(b, b'-' | b'_' | b'.' | b':' | b'/')
}

/// Facts by the resources they mention.
pub(super) struct ResourceIndex {
    /// Canonical name → facts (ascending).
    pub(super) names: BTreeMap<String, Vec<usize>>,
    /// For paths: every proper `/`-suffix → facts.
    pub(super) path_suffixes: BTreeMap<String, Vec<usize>>,
}

impl ResourceIndex {
    pub(super) fn new(facts: &[FoundFact]) -> ResourceIndex {
        let mut names: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut path_suffixes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, f) in facts.iter().enumerate() {
            for r in &f.resources {
                names.entry(r.clone()).or_default().push(i);
                for (p, _) in r.match_indices('/') {
                    if let Some(suffix) = r.get(p + 1..).filter(|s| s.len() >= MIN_RESOURCE) {
                        path_suffixes.entry(suffix.to_string()).or_default().push(i);
                    }
                }
            }
        }
        ResourceIndex {
            names,
            path_suffixes,
        }
    }

    /// The facts among the first `before` that mention a resource of
    /// `command`, in fact order, and the names (as the command writes them)
    /// that they share; `None` when there are none.
    pub(super) fn shared(&self, command: &str, before: usize) -> Option<(Vec<usize>, Vec<String>)> {
        let mut found: Vec<usize> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for entity in scan::entities(command) {
            if !names_resource(entity.kind) {
                continue;
            }
            let name = entity.canonical();
            if name.len() < MIN_RESOURCE {
                continue;
            }
            let mut hits: Vec<usize> = Vec::new();
            let mut take = |facts: Option<&Vec<usize>>| {
                hits.extend(facts.into_iter().flatten().filter(|&&i| i < before));
            };
            take(self.names.get(&name));
            take(self.path_suffixes.get(&name));
            // A fact's name that this one extends, or a `/`-suffix of it.
            for (p, b) in name.bytes().enumerate() {
                if p >= MIN_RESOURCE && is_name_separator(b) {
                    take(name.get(..p).and_then(|head| self.names.get(head)));
                }
                if b == b'/' {
                    take(name.get(p + 1..).and_then(|tail| self.names.get(tail)));
                }
            }
            // A directory or file of this path named like a fact's resource.
            if name.contains('/') {
                for part in name.split('/').filter(|p| p.len() >= MIN_RESOURCE) {
                    take(self.names.get(part));
                }
            }
            // A fact's name that extends this one.
            for (key, facts) in self.names.range(name.clone()..) {
                let Some(rest) = key.strip_prefix(name.as_str()) else {
                    break;
                };
                if rest.bytes().next().is_some_and(is_name_separator) {
                    take(Some(facts));
                }
            }
            if !hits.is_empty() {
                found.extend(hits);
                if !names.iter().any(|n| n == entity.text) {
                    names.push(entity.text.to_string());
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        (!found.is_empty()).then_some((found, names))
    }
}
