//! A Claude Code log as the tree it is: every record names its parent
//! (`uuid`, `parentUuid`), and what was in the context at a point is the
//! chain of records that leads there, not every line written before it.
//!
//! A rewound session (the user edits an earlier message, or goes back to
//! it) writes the new turn as a second child of an earlier record and
//! leaves the old turn behind on a branch nobody continues. What was said
//! only there was never in the context of anything that came later, so
//! the reader leaves it out. The chains that count lead to the log's last
//! message and to each compaction's boundary.
//!
//! The tree is read conservatively, because real logs break it in small
//! ways: a parent the log never wrote (bookkeeping records name parents
//! that were not saved), a boundary whose logical parent is missing, a new
//! root where a session was continued. Each of those continues from the
//! record written just before, as a linear log would. And not every fork
//! is a rewind: calls made in parallel fork (the second call and the first
//! call's result are both children of the first call), and so does a
//! result that comes back late from a call left running, while the
//! conversation went on beside it. A rewind is the user's: a message typed
//! again in place of another, both children of the same record. So a
//! message is left out only when it is such a message off the chain, its
//! sibling on the chain; and with it, what followed it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;

/// One record of the tree, as much of it as the chain needs.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// Its line.
    pub record: usize,
    pub uuid: String,
    pub parent: Option<String>,
    /// A compaction boundary's link to the record before it.
    pub logical_parent: Option<String>,
    /// A `user` or `assistant` line: a turn of the conversation.
    pub talk: bool,
    /// A `user` line of what the user typed (or the harness wrote in
    /// their name), not of tool results.
    pub typed: bool,
    /// A `compact_boundary`.
    pub boundary: bool,
}

/// The records (lines) on branches the session abandoned.
pub(crate) fn abandoned(nodes: &[Node]) -> BTreeSet<usize> {
    let index: BTreeMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.uuid.as_str(), i))
        .collect();
    // The record a uuid names, when the log wrote it.
    let named = |p: &Option<String>| p.as_deref().and_then(|p| index.get(p)).copied();
    let up = |i: usize| -> Option<usize> {
        let n = &nodes[i];
        named(&n.parent)
            .or_else(|| named(&n.logical_parent))
            .or_else(|| i.checked_sub(1))
    };
    let mut on_chain = alloc::vec![false; nodes.len()];
    let leaves = nodes.iter().rposition(|n| n.talk).into_iter().chain(
        nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.boundary)
            .map(|(i, _)| i),
    );
    for leaf in leaves {
        let mut at = Some(leaf);
        while let Some(i) = at.filter(|&i| !on_chain[i]) {
            on_chain[i] = true;
            at = up(i);
        }
    }
    // Records with a typed message on the chain among their children.
    let retyped: BTreeSet<usize> = nodes
        .iter()
        .zip(&on_chain)
        .filter(|&(n, &on)| on && n.typed)
        .filter_map(|(n, _)| named(&n.parent))
        .collect();
    let mut left = alloc::vec![false; nodes.len()];
    // Parents come before their children in a log.
    for (i, n) in nodes.iter().enumerate() {
        if on_chain[i] {
            continue;
        }
        let Some(parent) = named(&n.parent) else {
            continue;
        };
        left[i] = left[parent] || (n.typed && on_chain[parent] && retyped.contains(&parent));
    }
    nodes
        .iter()
        .zip(&left)
        .filter(|&(_, &l)| l)
        .map(|(n, _)| n.record)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn node(record: usize, uuid: &str, parent: Option<&str>) -> Node {
        Node {
            record,
            uuid: uuid.to_string(),
            parent: parent.map(ToString::to_string),
            talk: true,
            typed: true,
            ..Node::default()
        }
    }

    #[test]
    fn a_rewound_turn_is_left_behind() {
        // 1 ← 2 ← 3 (the turn abandoned), and 1 ← 4 ← 5 (the message typed
        // again in place of 2, and its reply).
        let mut nodes = [
            node(1, "a", None),
            node(2, "b", Some("a")),
            node(3, "c", Some("b")),
            node(4, "d", Some("a")),
            node(5, "e", Some("d")),
        ];
        nodes[2].typed = false;
        nodes[4].typed = false;
        assert_eq!(abandoned(&nodes), [2, 3].into());
    }

    #[test]
    fn a_late_result_is_no_rewind() {
        // A call (2) left running; the conversation goes on from its parent
        // (3, 4); its result comes back late (5) and the session goes on
        // from there (6): nothing said at 3 or 4 is left out.
        let mut nodes = [
            node(1, "a", None),
            node(2, "call", Some("a")),
            node(3, "typed", Some("a")),
            node(4, "reply", Some("typed")),
            node(5, "late", Some("call")),
            node(6, "next", Some("late")),
        ];
        nodes[1].typed = false;
        nodes[3].typed = false;
        nodes[4].typed = false;
        nodes[5].typed = false;
        assert!(abandoned(&nodes).is_empty());
    }

    #[test]
    fn parallel_tool_calls_are_no_branch() {
        // A call (2) whose second call (3) and first result (4) are both its
        // children; the second result (5) leads on.
        let mut nodes = alloc::vec![
            node(1, "u", None),
            node(2, "c1", Some("u")),
            node(3, "c2", Some("c1")),
            node(4, "r1", Some("c1")),
            node(5, "r2", Some("c2")),
            node(6, "next", Some("r2")),
        ];
        for n in &mut nodes[1..] {
            n.typed = false;
        }
        assert!(abandoned(&nodes).is_empty());
    }

    #[test]
    fn a_missing_parent_or_a_new_root_continues_the_log() {
        // 3 names a parent never written; 4 starts a new root (a continued
        // session); neither leaves what came before behind.
        let nodes = [
            node(1, "a", None),
            node(2, "b", Some("a")),
            node(3, "c", Some("never-written")),
            node(4, "d", None),
            node(5, "e", Some("d")),
        ];
        assert!(abandoned(&nodes).is_empty());
    }

    #[test]
    fn the_chain_to_a_compaction_counts_as_well_as_the_last() {
        // A boundary (4) whose logical parent is 3: 1-2-3 lead to it even
        // though the session went on from the boundary.
        let mut nodes = alloc::vec![
            node(1, "a", None),
            node(2, "b", Some("a")),
            node(3, "c", Some("b")),
            node(4, "boundary", None),
            node(5, "e", Some("boundary")),
        ];
        nodes[3].logical_parent = Some("c".to_string());
        nodes[3].boundary = true;
        nodes[3].talk = false;
        assert!(abandoned(&nodes).is_empty());
    }
}
