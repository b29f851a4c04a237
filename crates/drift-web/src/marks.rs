//! Where an audit's findings sit in the two texts, for highlighting: every
//! finding of [`drift_session::Audit`] becomes marks in BEFORE (per
//! message and field) and in AFTER, and a text with marks splits into
//! plain and marked pieces.

use std::collections::BTreeMap;

use drift_session::entail::Span;
use drift_session::{
    Audit,
    audit::{MessageField, Place},
};

/// A group of findings, as the audit lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// (a) Constraints AFTER no longer carries.
    Dropped,
    /// (b) Details AFTER asserts that BEFORE does not support.
    Unsupported,
    /// (c) Ids that changed or merged.
    ChangedId,
    /// (d) Rationale and rejected options that vanished.
    Reasoning,
}

impl Section {
    /// Every section, in the audit's order.
    pub const ALL: [Section; 4] = [
        Section::Dropped,
        Section::Unsupported,
        Section::ChangedId,
        Section::Reasoning,
    ];

    /// A CSS-friendly name.
    pub const fn id(self) -> &'static str {
        match self {
            Section::Dropped => "dropped",
            Section::Unsupported => "unsupported",
            Section::ChangedId => "changed-id",
            Section::Reasoning => "reasoning",
        }
    }

    /// The heading.
    pub const fn title(self) -> &'static str {
        match self {
            Section::Dropped => "Constraints the summary no longer carries",
            Section::Unsupported => "Details the transcript does not support",
            Section::ChangedId => "Ids that changed or merged",
            Section::Reasoning => "Reasons and rejected options that vanished",
        }
    }
}

/// One finding: its section and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FindingRef {
    /// The section.
    pub section: Section,
    /// Index within the section's list.
    pub index: usize,
}

/// A highlighted span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Where, in bytes.
    pub span: Span,
    /// Which finding.
    pub finding: FindingRef,
    /// Only the summary's words nearest a dropped rule, not what breaks
    /// or shows it: yields to a mark that proves a finding.
    pub nearest: bool,
}

/// Every mark of an audit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Marks in BEFORE, per (message, field).
    pub before: BTreeMap<(usize, MessageField), Vec<Mark>>,
    /// Marks in AFTER.
    pub after: Vec<Mark>,
}

impl Marks {
    fn before(&mut self, place: Place, finding: FindingRef) {
        self.before
            .entry((place.message, place.field))
            .or_default()
            .push(Mark {
                span: place.span,
                finding,
                nearest: false,
            });
    }

    fn after(&mut self, span: Span, finding: FindingRef) {
        self.after.push(Mark {
            span,
            finding,
            nearest: false,
        });
    }

    fn nearest(&mut self, span: Span, finding: FindingRef) {
        self.after.push(Mark {
            span,
            finding,
            nearest: true,
        });
    }

    /// The messages of BEFORE that hold a mark, in order.
    pub fn messages(&self) -> Vec<usize> {
        let mut m: Vec<usize> = self.before.keys().map(|(m, _)| *m).collect();
        m.dedup();
        m
    }
}

/// Every place each finding of `audit` points at.
pub fn marks(audit: &Audit) -> Marks {
    let mut marks = Marks::default();
    let at = |section, index| FindingRef { section, index };
    for (i, d) in audit.dropped_constraints.iter().enumerate() {
        let f = at(Section::Dropped, i);
        marks.before(d.before, f);
        if let Some(span) = d.contradicted_by {
            marks.after(span, f);
        }
        if let Some(span) = d.closest {
            marks.nearest(span, f);
        }
    }
    for (i, u) in audit.unsupported.iter().enumerate() {
        let f = at(Section::Unsupported, i);
        for span in &u.after {
            marks.after(*span, f);
        }
        if let Some(l) = &u.lookalike {
            marks.before(l.before, f);
        }
    }
    for (i, c) in audit.changed_ids.iter().enumerate() {
        let f = at(Section::ChangedId, i);
        marks.after(c.after, f);
        marks.before(c.before, f);
    }
    for (i, r) in audit.vanished_reasoning.iter().enumerate() {
        marks.before(r.before, at(Section::Reasoning, i));
    }
    marks
}

/// A run of text, marked or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Unmarked text.
    Plain(&'a str),
    /// Text a finding points at.
    Marked(&'a str, FindingRef),
}

/// Splits `text` at `marks`. Marks are taken in order of their start (at
/// one start, a mark that proves a finding before one that only points
/// near it, then the longest); one that overlaps an earlier mark is
/// dropped; spans that fall outside the text or inside a character are
/// ignored.
pub fn pieces<'a>(text: &'a str, marks: &[Mark]) -> Vec<Piece<'a>> {
    let mut sorted: Vec<&Mark> = marks
        .iter()
        .filter(|m| {
            m.span.start < m.span.end
                && m.span.end <= text.len()
                && text.is_char_boundary(m.span.start)
                && text.is_char_boundary(m.span.end)
        })
        .collect();
    sorted.sort_by_key(|m| (m.span.start, m.nearest, std::cmp::Reverse(m.span.end)));
    let mut out = Vec::with_capacity(sorted.len() * 2 + 1);
    let mut at = 0;
    for m in sorted {
        if m.span.start < at {
            continue;
        }
        if m.span.start > at {
            out.push(Piece::Plain(&text[at..m.span.start]));
        }
        out.push(Piece::Marked(&text[m.span.start..m.span.end], m.finding));
        at = m.span.end;
    }
    if at < text.len() {
        out.push(Piece::Plain(&text[at..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use drift_session::audit_text;

    const BEFORE: &str = "We are still on libfoo 2.3.1, do not bump.\n\
        Postgres 14 was chosen because the migration tooling needs advisory locks.";
    const AFTER: &str = "Dependency libfoo was upgraded to 2.4.0. The project uses Postgres 14.";

    #[test]
    fn every_finding_has_a_mark_in_one_of_the_texts() {
        let audit = audit_text(BEFORE, AFTER);
        let m = marks(&audit);
        let marked: Vec<FindingRef> = m
            .before
            .values()
            .flatten()
            .chain(&m.after)
            .map(|mark| mark.finding)
            .collect();
        let total = audit.dropped_constraints.len()
            + audit.unsupported.len()
            + audit.changed_ids.len()
            + audit.vanished_reasoning.len();
        assert!(total >= 3);
        for (section, len) in [
            (Section::Dropped, audit.dropped_constraints.len()),
            (Section::Unsupported, audit.unsupported.len()),
            (Section::ChangedId, audit.changed_ids.len()),
            (Section::Reasoning, audit.vanished_reasoning.len()),
        ] {
            for index in 0..len {
                assert!(
                    marked.contains(&FindingRef { section, index }),
                    "{section:?} {index}"
                );
            }
        }
        // The dropped rule is marked in BEFORE, and the sentence breaking it in AFTER.
        let after = pieces(AFTER, &m.after);
        assert!(after.contains(&Piece::Marked(
            "Dependency libfoo was upgraded to 2.4.0.",
            FindingRef {
                section: Section::Dropped,
                index: 0
            }
        )));
    }

    #[test]
    fn pieces_cover_the_text_once() {
        let f = FindingRef {
            section: Section::Dropped,
            index: 0,
        };
        let g = FindingRef {
            section: Section::Unsupported,
            index: 0,
        };
        let mark = |start, end, finding| Mark {
            span: Span { start, end },
            finding,
            nearest: false,
        };
        let text = "héllo wörld";
        let marks = [
            mark(0, 6, f),   // "héllo"
            mark(3, 8, g),   // overlaps: dropped
            mark(7, 13, g),  // "wörld"
            mark(2, 3, f),   // inside a character: ignored (and overlapping)
            mark(13, 40, g), // past the end: ignored
        ];
        let p = pieces(text, &marks);
        assert_eq!(
            p,
            [
                Piece::Marked("héllo", f),
                Piece::Plain(" "),
                Piece::Marked("wörld", g)
            ]
        );
        let joined: String = p
            .iter()
            .map(|p| match p {
                Piece::Plain(s) | Piece::Marked(s, _) => *s,
            })
            .collect();
        assert_eq!(joined, text);
        assert_eq!(pieces("", &marks), []);
        // What breaks a rule is marked before a longer span that is only
        // the nearest words to another.
        let near = Mark {
            nearest: true,
            ..mark(0, 13, g)
        };
        assert_eq!(
            pieces(text, &[near, mark(0, 6, f)]),
            [Piece::Marked("héllo", f), Piece::Plain(" wörld")]
        );
    }
}
