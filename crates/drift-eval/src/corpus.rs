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

/// Where a document of the corpus comes from, as the readers would read
/// it: its `source` (the corpus's ids, and the readers' own), else its
/// `role`. An instruction file is one, injected or read by a tool.
pub fn source(source: &str, role: &str) -> Source {
    match source {
        "chat" => Source::Chat,
        "system_prompt" | "developer" => Source::SystemPrompt,
        "agents_md" | "claude_md" => Source::ProjectFile,
        "runbook" | "ticket" | "tool_output" | "mcp_result" => Source::ToolOutput,
        "assistant_plan" => Source::Assistant,
        id => Source::from_id(id).unwrap_or(match role {
            "system" | "developer" => Source::SystemPrompt,
            "tool" => Source::ToolOutput,
            "assistant" => Source::Assistant,
            "summary" => Source::Summary,
            _ => Source::Chat,
        }),
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
        let field = |name: &str| {
            head.split('|')
                .find_map(|f| f.trim().strip_prefix(name))
                .map_or("", str::trim)
        };
        let origin = TextOrigin::of(source(field("source:"), field("role:")));
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
            origin,
            text: doc,
            rules,
        });
    }
    out
}
