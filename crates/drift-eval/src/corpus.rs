//! The rule corpus of drift-session's tests (`tests/rules/*.txt`):
//! documents written for the project, each with its sentences labelled
//! rule (with kind and form) or not. The trainer reads them as one more
//! group of examples, of no person's: written to hold every form of rule
//! in every source, stated plainly.
//!
//! A block is `=== <id> | role: <role> | source: <source> | harness: <h>`,
//! the document, `--- labels`, then `R <kind> <form> [@quote] | <text>` and
//! `N | <text>` lines.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use drift_session::rules::{RuleForm, Source, TextOrigin};

/// One labelled document.
#[derive(Clone, Debug)]
pub struct Document {
    pub origin: TextOrigin,
    pub text: String,
    /// The rules' texts and forms.
    pub rules: Vec<(String, Option<RuleForm>)>,
}

/// How a document of `source` reaches the finder.
fn origin(source: &str) -> TextOrigin {
    match source {
        "chat" | "harness_boilerplate" | "" => TextOrigin::Typed,
        "system_prompt" | "developer" => TextOrigin::Standing(Source::SystemPrompt),
        "agents_md" | "claude_md" | "project_file" => TextOrigin::Standing(Source::ProjectFile),
        "skill" => TextOrigin::Standing(Source::Skill),
        "hook_context" => TextOrigin::Standing(Source::HookContext),
        "assistant" | "assistant_plan" => TextOrigin::Standing(Source::Assistant),
        "summary" => TextOrigin::Standing(Source::Summary),
        _ => TextOrigin::Tool,
    }
}

/// The documents of a corpus file.
pub fn parse(text: &str) -> Vec<Document> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(head) = line.strip_prefix("=== ") else {
            continue;
        };
        let source = head
            .split('|')
            .find_map(|f| f.trim().strip_prefix("source:"))
            .map_or("", str::trim);
        let mut doc = String::new();
        while let Some(l) = lines.peek() {
            if *l == "--- labels" {
                lines.next();
                break;
            }
            if !doc.is_empty() {
                doc.push('\n');
            }
            doc.push_str(l);
            lines.next();
        }
        let mut rules = Vec::new();
        while let Some(l) = lines.peek() {
            if l.starts_with("=== ") {
                break;
            }
            let l = lines.next().unwrap_or("");
            if let Some(rest) = l.strip_prefix("R ")
                && let Some((tags, quote)) = rest.split_once(" | ")
            {
                let mut t = tags.split_whitespace();
                let kind = t.next().unwrap_or("");
                let form = t.next().unwrap_or("");
                let form = RuleForm::from_id(form)
                    .or_else(|| RuleForm::from_id(kind))
                    .or_else(|| (form == "carve-out").then_some(RuleForm::CarveOut));
                rules.push((quote.to_string(), form));
            }
        }
        out.push(Document {
            origin: origin(source),
            text: doc,
            rules,
        });
    }
    out
}
