//! Before/after verdict sets (`eval/verdicts/*.txt`): one rule, one
//! compaction summary, the fate the summary gave the rule, written for the
//! purpose. Items are separated by `== <id> class=<class>` lines; `rule:`
//! is the rule as the user typed it and `after:` starts the summary.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use alloc::collections::BTreeMap;
use core::fmt::Write as _;

use crate::report::share;
use crate::view::Reported;

/// The half of the verdict sets an item is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerdictSet {
    /// `dev-*.txt`: tuned on.
    Dev,
    /// `held-out-*.txt`: written with the dev half, measured, not tuned on.
    HeldOut,
}

impl VerdictSet {
    /// Both halves, in report order.
    pub const ALL: [VerdictSet; 2] = [VerdictSet::Dev, VerdictSet::HeldOut];

    /// `dev` or `held_out`.
    pub const fn id(self) -> &'static str {
        match self {
            VerdictSet::Dev => "dev",
            VerdictSet::HeldOut => "held_out",
        }
    }

    /// The prefix of its files' names.
    pub const fn prefix(self) -> &'static str {
        match self {
            VerdictSet::Dev => "dev",
            VerdictSet::HeldOut => "held-out",
        }
    }
}

/// What the summary did to the rule, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Kept,
    Reworded,
    Weakened,
    ValueChanged,
    Contradicted,
    Dropped,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Kept,
        Class::Reworded,
        Class::Weakened,
        Class::ValueChanged,
        Class::Contradicted,
        Class::Dropped,
    ];

    fn parse(s: &str) -> Option<Class> {
        Some(match s {
            "kept" => Class::Kept,
            "reworded" => Class::Reworded,
            "weakened" => Class::Weakened,
            "value_changed" => Class::ValueChanged,
            "contradicted" => Class::Contradicted,
            "dropped" => Class::Dropped,
            _ => return None,
        })
    }

    pub const fn id(self) -> &'static str {
        match self {
            Class::Kept => "kept",
            Class::Reworded => "reworded",
            Class::Weakened => "weakened",
            Class::ValueChanged => "value_changed",
            Class::Contradicted => "contradicted",
            Class::Dropped => "dropped",
        }
    }

    /// The fate the class is: kept in any words is kept, a value changed
    /// is weakened.
    pub const fn fate(self) -> Reported {
        match self {
            Class::Kept | Class::Reworded => Reported::Kept,
            Class::Weakened | Class::ValueChanged => Reported::Weakened,
            Class::Contradicted => Reported::Contradicted,
            Class::Dropped => Reported::Dropped,
        }
    }
}

/// One item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub id: String,
    pub class: Class,
    pub rule: String,
    pub after: String,
}

/// Reads a verdict file.
///
/// # Errors
///
/// A message naming the line of an item that is not of the format.
pub fn parse(file: &str, text: &str) -> Result<Vec<Item>, String> {
    let mut items: Vec<Item> = Vec::new();
    let mut in_after = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(head) = line.strip_prefix("== ") {
            let mut words = head.split_whitespace();
            let id = words.next().unwrap_or("").to_string();
            let class = words
                .find_map(|w| w.strip_prefix("class="))
                .and_then(Class::parse)
                .ok_or_else(|| format!("{file}:{}: `== <id> class=<class>`", i + 1))?;
            items.push(Item {
                id,
                class,
                rule: String::new(),
                after: String::new(),
            });
            in_after = false;
            continue;
        }
        let Some(item) = items.last_mut() else {
            continue;
        };
        if in_after {
            item.after.push_str(line);
            item.after.push('\n');
        } else if let Some(rule) = line.strip_prefix("rule:") {
            item.rule = rule.trim().to_string();
        } else if line.trim_end() == "after:" {
            in_after = true;
        } else if !line.trim().is_empty() {
            item.rule.push(' ');
            item.rule.push_str(line.trim());
        }
    }
    if let Some(bad) = items
        .iter()
        .find(|i| i.rule.is_empty() || i.after.trim().is_empty())
    {
        return Err(format!("{file}: item {} has no rule or no summary", bad.id));
    }
    Ok(items)
}

/// The scores of a verdict set.
#[derive(Clone, Debug, Default)]
pub struct VerdictScores {
    /// (class, reported) → count; `None` when the judge judged nothing.
    pub confusion: BTreeMap<(Class, Option<Reported>), usize>,
    pub misses: Vec<(String, Class, Option<Reported>, String)>,
}

impl VerdictScores {
    fn count(&self, f: impl Fn(Class, Option<Reported>) -> bool) -> usize {
        self.confusion
            .iter()
            .filter(|((c, r), _)| f(*c, *r))
            .map(|(_, n)| n)
            .sum()
    }

    pub fn total(&self) -> usize {
        self.count(|_, _| true)
    }

    /// Reported fate equals the class's fate.
    pub fn exact(&self) -> usize {
        self.count(|c, r| r == Some(c.fate()))
    }
}

/// Scores `items` with `judge` (the rule and the summary in, the fate and
/// a word on why out).
pub fn score(
    items: &[Item],
    judge: impl Fn(&str, &str) -> (Option<Reported>, String),
) -> VerdictScores {
    let mut s = VerdictScores::default();
    for item in items {
        let (reported, why) = judge(&item.rule, &item.after);
        *s.confusion.entry((item.class, reported)).or_default() += 1;
        if reported != Some(item.class.fate()) {
            s.misses.push((
                item.id.clone(),
                item.class,
                reported,
                format!("{} || {why}", item.rule),
            ));
        }
    }
    s
}

/// The tables.
pub fn report(s: &VerdictScores, name: &str) -> String {
    let mut out = String::new();
    let total = s.total();
    let carried = s.count(|c, _| c.fate() == Reported::Kept);
    let carried_lost =
        s.count(|c, r| c.fate() == Reported::Kept && r.is_some_and(Reported::is_loss));
    let lost = s.count(|c, _| c.fate().is_loss());
    let caught = s.count(|c, r| c.fate().is_loss() && r.is_some_and(Reported::is_loss));
    let _ = writeln!(
        out,
        "### Verdicts, {name}: {total} items\n\nExact {} / {total} = {}; carried called lost {carried_lost} / {carried} = {}; lost caught {caught} / {lost} = {}.\n",
        s.exact(),
        share(s.exact(), total),
        share(carried_lost, carried),
        share(caught, lost),
    );
    out.push_str("| class | items | kept | weakened | dropped | contradicted | not judged | right |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for class in Class::ALL {
        let n = s.count(|c, _| c == class);
        if n == 0 {
            continue;
        }
        let by = |r: Option<Reported>| s.count(|c, x| c == class && x == r);
        let kept = by(Some(Reported::Kept))
            + by(Some(Reported::Verbatim))
            + by(Some(Reported::Reinjected));
        let _ = writeln!(
            out,
            "| {} | {n} | {kept} | {} | {} | {} | {} | {} |",
            class.id(),
            by(Some(Reported::Weakened)),
            by(Some(Reported::Dropped)),
            by(Some(Reported::Contradicted)),
            by(None) + by(Some(Reported::Unjudged)),
            share(by(Some(class.fate())), n),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_file_reads() {
        let text = "# comment\n== d001 class=reworded\nrule: don't push to main\nafter:\n1. Intent:\n   - PRs only.\n== d002 class=dropped\nrule: no emojis\nafter:\nNothing here.\n";
        let items = parse("v.txt", text).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].class, Class::Reworded);
        assert_eq!(items[0].rule, "don't push to main");
        assert_eq!(items[0].after, "1. Intent:\n   - PRs only.\n");
        assert!(parse("v.txt", "== d1 class=odd\nrule: x\nafter:\ny\n").is_err());
        assert!(parse("v.txt", "== d1 class=kept\nrule: x\n").is_err());
        let s = score(&items, |_, _| (Some(Reported::Kept), String::new()));
        assert_eq!((s.total(), s.exact()), (2, 1));
    }
}
