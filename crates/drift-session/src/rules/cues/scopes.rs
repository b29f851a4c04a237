//! The broadest cues, read last: scopes ("only on X", "leave X alone"),
//! prohibitions ("never", "do not") and obligations ("must", "always", a
//! version or tool chosen, a convention stated as a fact).

use super::*;

impl Clause<'_, '_> {
    /// "only on X", "leave X alone", "keep changes inside Y", "off-limits",
    /// "out of scope", "read-only", "do not touch X", "not in X".
    pub(super) fn scope(&self) -> (Cue, bool) {
        let n = self.len();
        let h = self.head();
        let must_be = (0..n).any(|i| self.any(i, &["must", "should"]) && self.is(i + 1, "be"));
        let method =
            (0..n).any(|i| self.any(i, &["directly", "manually"]) || self.seq(i, &["by", "hand"]));
        for i in 0..n {
            // "The audit indices stay untouched".
            if self.any(i, &["stay", "stays", "remain", "remains", "be"])
                && self.any(i + 1, &["untouched", "alone"])
                && i > h
            {
                return (Some((RuleForm::Scope, "leave … alone")), false);
            }
            // "nightly-report was left alone": a report.
            let reported =
                self.is(i, "left") && self.any(i.wrapping_sub(1), &["was", "were", "been", "got"]);
            if self.any(i, &["leave", "leaves", "left"]) && !reported {
                let end = (i + 8).min(n);
                if (i + 1..end).any(|k| self.any(k, &["alone", "untouched"])) {
                    return (Some((RuleForm::Scope, "leave … alone")), false);
                }
                if i == h
                    && self.is(i, "leave")
                    && let Some(k) = self.find(i + 1, "to")
                    && k <= i + 5
                    && !self.number(k + 1)
                {
                    return (Some((RuleForm::Scope, "leave … to")), false);
                }
            }
            if self.seq(i, &["off", "limits"]) || self.raw(i).eq_ignore_ascii_case("off-limits") {
                return (Some((RuleForm::Scope, "off-limits")), false);
            }
            if self.seq(i, &["out", "of", "scope"]) {
                return (Some((RuleForm::Scope, "out of scope")), false);
            }
            // "packages/legacy-* are read-only", "treat vendor/ as
            // read-only", "billing: read-only".
            let read_only = if self.seq(i, &["read", "only"]) {
                Some(i + 2)
            } else if self.is(i, "read-only") {
                Some(i + 1)
            } else {
                None
            };
            if let Some(end) = read_only
                && self.find_seq(0, &["by", "design"]).is_none()
                && (self.any(
                    i.wrapping_sub(1),
                    &[
                        "is", "are", "be", "stay", "stays", "remain", "remains", "as", "keep",
                        "have", "has", "with", "get",
                    ],
                ) || (self.clause_start(i) && i > 0)
                    || (i == h
                        && (end >= n
                            || self.any(
                                end,
                                &["unless", "until", "except", "outside", "during", "while"],
                            ))))
            {
                return (Some((RuleForm::Scope, "read-only")), false);
            }
            if self.seq(i, &["nowhere", "else"]) {
                return (Some((RuleForm::Scope, "nowhere else")), false);
            }
            if self.any(i, &["keep", "keeps"])
                && (i + 1..(i + 5).min(n)).any(|k| {
                    self.any(k, &["inside", "within", "under"])
                        || (self.is(k, "in")
                            && self.any(k - 1, &["changes", "work", "edits", "everything", "it"]))
                })
                && !(i + 1..(i + 5).min(n)).any(|k| self.is(k, "out"))
            {
                return (Some((RuleForm::Scope, "keep … inside")), false);
            }
            if self.any(i, &["stick", "stay", "stays", "remain", "remains"])
                && self.any(i + 1, &["within", "inside", "in", "to"])
                && !self.number(i + 2)
                && !(self.is(i + 1, "to") && self.any(i, &["stay", "stays", "remain", "remains"]))
            {
                return (Some((RuleForm::Scope, "stay within")), false);
            }
            if self.any(i, &["keep", "stay", "stays", "remain", "remains", "leave"])
                && (i + 1..(i + 6).min(n))
                    .any(|k| self.is(k, "as") && self.any(k + 1, &["they", "it", "is"]))
            {
                return (Some((RuleForm::Scope, "as they are")), false);
            }
            if self.any(i, &["limited", "restricted", "scoped", "confined"])
                && self.is(i + 1, "to")
                && !must_be
            {
                return (Some((RuleForm::Scope, "limited to")), false);
            }
        }
        // "the other services in that release stay."
        let last = (0..n)
            .rev()
            .find(|&i| self.word(i).is_some() || self.entity(i).is_some());
        if let Some(l) = last
            && self.any(l, &["stay", "stays"])
            && l > h
            && !self.any(h, &["i", "we", "you"])
        {
            return (Some((RuleForm::Scope, "stay")), false);
        }
        // Touching, negated: "don't touch X", "avoid touching X".
        if !method {
            for i in 0..n {
                let negated = i > 0
                    && (self.negation(i - 1)
                        || self.any(i - 1, &["avoid", "without"])
                        || (self.is(i - 1, "to") && self.negation(i.wrapping_sub(2))));
                // "it never writes to the source database": a description.
                if !negated || self.any(i.wrapping_sub(2), DESCRIPTIVE) {
                    continue;
                }
                if self.is(i + 1, "there") && self.verb_at(i).is_some() {
                    return (Some((RuleForm::Scope, "not there")), false);
                }
                let writes = self.any(i, &["write", "writing"]);
                let somewhere = (i + 1..(i + 4).min(n)).any(|k| {
                    self.entity(k).is_some_and(|e| !e.is_numeric())
                        || self.word(k).is_some_and(|w| in_table(RESOURCES, w))
                        || self.slashed(k)
                });
                if self.any(i, TOUCH) && (!writes || somewhere) {
                    return (Some((RuleForm::Scope, "do not touch")), false);
                }
                if self.any(i, &["change", "changing"]) {
                    let object = (i + 1..(i + 6).min(n)).any(|k| {
                        self.entity(k).is_some_and(|e| !e.is_numeric())
                            || self.any(k, &["any", "anything"])
                            || (self.is(k, "in") && self.any(k + 1, &["this", "that"]))
                    });
                    if object {
                        return (Some((RuleForm::Scope, "do not change")), false);
                    }
                }
            }
        }
        let skip = (0..n).find(|&i| {
            self.is(i, "skip")
                && (i == h
                    || self.clause_start(i)
                    || (i > 0
                        && self.clause_start(i - 1)
                        && self.any(i - 1, &["so", "then", "just", "please"])))
        });
        // "so skip it", "skip the payments tables": a thing named; not
        // "skip medium and low".
        if let Some(i) = skip
            && (i + 1..(i + 4).min(n)).any(|k| {
                self.entity(k).is_some_and(|e| !e.is_numeric())
                    || self.slashed(k)
                    || self.word(k).is_some_and(|w| {
                        in_table(RESOURCES, w)
                            || in_table(
                                &[
                                    "all", "any", "anything", "every", "it", "that", "the", "them",
                                    "these", "this", "those",
                                ],
                                w,
                            )
                    })
            })
        {
            return (Some((RuleForm::Scope, "skip")), false);
        }
        // "Account deletions are handled by the privacy team, not by you";
        // "your scope is billing questions".
        for i in 0..n {
            if self.is(i, "not")
                && (self.seq(i + 1, &["by", "you"])
                    || (self.is(i + 1, "you") && i + 2 >= n)
                    || self.seq(i + 1, &["by", "the", "agent"]))
            {
                return (Some((RuleForm::Scope, "not by you")), false);
            }
            if self.seq(i, &["your", "scope"]) && self.any(i + 2, &["is", "covers"]) {
                return (Some((RuleForm::Scope, "your scope")), false);
            }
        }
        let not_to_verb = self.is(h + 1, "to") && self.verb_at(h + 2).is_some();
        if self.is(h, "not")
            && !not_to_verb
            && (self.any(h + 1, PLACES) || self.entity(h + 1).is_some())
        {
            return (Some((RuleForm::Scope, "not in")), false);
        }
        (self.only(must_be), true)
    }

    /// "only": a scope when it marks off a place or a thing ("only on X",
    /// "touch only X", "in X only"); otherwise an obligation ("squash-merge
    /// only", "only plan").
    pub(super) fn only(&self, must_be: bool) -> Cue {
        let n = self.len();
        let i = self.find(0, "only")?;
        if self.any(i.wrapping_sub(1), &["not", "if"])
            || self.any(i + 1, &["if", "when", "after", "once", "during", "between"])
        {
            return None;
        }
        if self.any(i.wrapping_sub(1), DESCRIPTIVE) {
            return None;
        }
        // "Only 3 pods are running", "only two people know it": state.
        if self.number(i + 1)
            && (i == self.head()
                || (i + 2..n).any(|k| self.any(k, &["is", "are", "was", "were", "has", "have"])))
        {
            return None;
        }
        if must_be {
            return Some((RuleForm::Obligation, "only"));
        }
        let place = |k: usize| {
            self.entity(k).is_some_and(|e| !e.is_numeric())
                || self.word(k).is_some_and(|w| in_table(RESOURCES, w))
                || self.slashed(k)
        };
        // A named thing, not a compound word ("europe-west4", not
        // "squash-merge").
        let named = |k: usize| {
            self.t.get(k).is_some_and(|t| {
                matches!(t.entity, Some(EntityKind::Path | EntityKind::Ticket))
                    || (t.entity.is_some()
                        && t.text
                            .bytes()
                            .any(|b| b.is_ascii_digit() || matches!(b, b'/' | b'.' | b'_' | b':')))
            })
        };
        if self.imperative().is_some() && i + 1 < n && place(i + 1) {
            return Some((RuleForm::Scope, "only"));
        }
        if self.any(i + 1, PLACES) && (!self.is(i + 1, "from") || place(i + 2) || place(i + 3)) {
            return Some((RuleForm::Scope, "only"));
        }
        if self.verb_at(i + 1).is_some() {
            let object = i + 2 < n;
            return Some((
                if object {
                    RuleForm::Scope
                } else {
                    RuleForm::Obligation
                },
                "only",
            ));
        }
        if i > 0
            && self.verb_at(i - 1).is_some()
            && (place(i + 1)
                || self.any(i + 1, &["the", "this", "that", "these"])
                || self.word(i + 1).is_some())
            && i + 1 < n
        {
            return Some((RuleForm::Scope, "only"));
        }
        // "… in gke-prod-west only", "works on apps/web and packages/ui only".
        let back = i.saturating_sub(5);
        let located = (back..i)
            .any(|k| self.any(k, PLACES) && (!self.is(k, "from") || (k + 1..i).any(place)));
        if located || (i > 0 && place(i - 1) && (self.word(i - 1).is_some() || named(i - 1))) {
            return Some((RuleForm::Scope, "only"));
        }
        Some((RuleForm::Obligation, "only"))
    }

    /// "never", "do not", "must not", "no X", "kill nothing", "avoid",
    /// "keep … out of", "not yours to".
    pub(super) fn prohibition(&self) -> Cue {
        let n = self.len();
        let h = self.head();
        for i in 0..n {
            if self.is(i, "never") {
                let descriptive = self.any(i.wrapping_sub(1), DESCRIPTIVE)
                    || self.any(i.wrapping_sub(1), &["i", "we", "he", "she", "they"])
                        && self.past_after(i);
                if !descriptive && !self.history_after(i) {
                    return Some((RuleForm::Prohibition, "never"));
                }
            }
            if self.is(i, "not") {
                let prev = i.wrapping_sub(1);
                if self.any(prev, &["do", "does"]) {
                    let lead = prev == h
                        || self.clause_start(prev)
                        || self.any(
                            prev.wrapping_sub(1),
                            &[
                                "please", "you", "and", "but", "so", "then", "just", "we",
                                "agents", "also", "still", "again", "and", "or",
                            ],
                        );
                    if lead && !self.is(prev, "does") {
                        return Some((RuleForm::Prohibition, "do not"));
                    }
                }
                let described = if self.is(prev, "should") {
                    self.any(prev.wrapping_sub(1), DESCRIPTIVE)
                } else {
                    self.described(prev)
                };
                if self.any(prev, &["must", "shall", "should"]) && !described {
                    return Some((RuleForm::Prohibition, "must not"));
                }
                if self.is(prev, "may") {
                    return Some((RuleForm::Prohibition, "may not"));
                }
                if self.is(prev, "can")
                    && (prev == h
                        || self.any(
                            prev.wrapping_sub(1),
                            &["you", "agents", "agent", "assistant"],
                        )
                        || (self.is(prev.wrapping_sub(1), "we") && self.bound(prev - 1)))
                {
                    return Some((RuleForm::Prohibition, "cannot"));
                }
                let are = self.any(prev, &["is", "are", "be", "am"])
                    || self.raw(prev).to_ascii_lowercase().ends_with("'re")
                    || self.raw(prev).ends_with("\u{2019}re")
                    || self.raw(prev).to_ascii_lowercase().ends_with("'m");
                if are && self.any(i + 1, &["allowed", "permitted", "supposed"]) {
                    return Some((RuleForm::Prohibition, "not allowed"));
                }
                if self.any(i + 1, &["yours", "ours"]) && self.is(i + 2, "to") {
                    return Some((RuleForm::Prohibition, "not yours to"));
                }
                // "not bump the major", and after a reporting frame "(said)
                // not to bump the major".
                let verb = if self.is(i + 1, "to") { i + 2 } else { i + 1 };
                if i == h && self.verb_at(verb).is_some() {
                    return Some((RuleForm::Prohibition, "not"));
                }
                // "The user does not want new dependencies", "I don't want
                // any schema changes": a wish that forbids. The speaker's
                // own "I don't want to wait" is not one.
                if self.any(prev, &["do", "does", "did"]) && self.any(i + 1, &["want", "wants"]) {
                    let who = prev.wrapping_sub(1);
                    let reporter = self.word(who).is_some_and(|w| {
                        in_table(
                            &[
                                "user", "operator", "customer", "client", "team", "they", "he",
                                "she",
                            ],
                            w,
                        )
                    });
                    let speaker = self.any(who, &["i", "we"]) && !self.is(i + 2, "to");
                    if (reporter || speaker) && i + 2 < n {
                        return Some((RuleForm::Prohibition, "does not want"));
                    }
                }
            }
            if self.any(
                i,
                &[
                    "forbidden",
                    "prohibited",
                    "banned",
                    "disallowed",
                    "discouraged",
                    "forbade",
                    "forbid",
                    "forbids",
                    "prohibits",
                ],
            ) {
                return Some((RuleForm::Prohibition, "forbidden"));
            }
            if self.is(i, "no")
                && (i == h || self.clause_start(i))
                && i + 1 < n
                && !self.word(i + 1).is_some_and(|w| in_table(NO_IDIOMS, w))
                && !self.any(i + 1, &["more", "fewer", "less"])
                && !self.reported_after(i + 1)
            {
                return Some((RuleForm::Prohibition, "no"));
            }
            // "nothing to commit", "nothing to deploy": a report.
            if self.any(i, &["nothing", "none"])
                && (i == h || (i > 0 && self.verb_at(i - 1).is_some() && i - 1 == h))
                && !(self.is(i + 1, "to") && self.verb_at(i + 2).is_some())
            {
                return Some((RuleForm::Prohibition, "nothing"));
            }
            if self.is(i, "avoid")
                && (i == h || self.any(i.wrapping_sub(1), &["please", "you", "should", "must"]))
            {
                return Some((RuleForm::Prohibition, "avoid"));
            }
            if self.seq(i, &["under", "no", "circumstances"])
                || self.seq(i, &["in", "no", "case"])
                || self.seq(i, &["at", "no", "time"])
            {
                return Some((RuleForm::Prohibition, "under no circumstances"));
            }
            if self.seq(i, &["refrain", "from"]) || self.seq(i, &["stay", "away", "from"]) {
                return Some((RuleForm::Prohibition, "refrain from"));
            }
            if self.is(i, "keep") && (i + 1..(i + 8).min(n)).any(|k| self.seq(k, &["out", "of"])) {
                return Some((RuleForm::Prohibition, "keep … out of"));
            }
        }
        None
    }

    /// A convention about the agent's work said as a fact: its subject is
    /// work the agent produces, its verb a present passive ("replies are
    /// written in …", "all prices are quoted including VAT").
    pub(super) fn convention(&self) -> bool {
        let n = self.len();
        let h = self.head();
        let Some(v) = (h + 1..n.min(h + 6)).find(|&k| self.any(k, &["is", "are"])) else {
            return false;
        };
        let subject = (h..v).any(|k| self.word(k).is_some_and(|w| in_table(WORK_NOUNS, w)));
        let passive = self.word(v + 1).is_some_and(|w| {
            is_participle(w) && !in_table(&["broken", "done", "failed", "finished", "merged"], w)
        });
        subject && passive && v + 2 < n
    }

    /// "must", "always", "make sure", "have to", "X instead", "keep …",
    /// "every commit", "needs", "stays formal", "follows".
    pub(super) fn obligation(&self, contrast: bool) -> Cue {
        let n = self.len();
        let h = self.head();
        let imperative = self.imperative();
        for i in 0..n {
            // Which text wins a conflict: "when this file and X conflict,
            // X governs", "user instructions take precedence".
            if (self.any(i, &["governs", "prevails"]) && (i + 1 == n || self.is(i + 1, "over")))
                || (self.any(i, &["take", "takes"]) && self.is(i + 1, "precedence"))
            {
                return Some((RuleForm::Obligation, "takes precedence"));
            }
            let guess = self.is(i + 1, "have") && self.word(i + 2).is_some_and(is_past);
            if self.any(i, &["must", "shall"])
                && !self.any(i + 1, &["not", "never"])
                && !self.described(i)
                && !guess
            {
                return Some((RuleForm::Obligation, "must"));
            }
            if self.any(i, &["has", "have", "need", "needs"])
                && self.is(i + 1, "to")
                && !self.any(i.wrapping_sub(1), &["may", "might", "could", "would", "no"])
                && !self.any(i.wrapping_sub(1), DESCRIPTIVE)
            {
                return Some((RuleForm::Obligation, "have to"));
            }
            if self.any(i, &["is", "are"])
                && self.any(i + 1, &["preferred", "mandatory", "compulsory"])
            {
                return Some((RuleForm::Obligation, "preferred"));
            }
            if self.any(i, &["is", "are"]) && self.is(i + 1, "required") {
                return Some((RuleForm::Obligation, "required"));
            }
            // "We're supposed to use pnpm", "you are expected to write
            // tests": a person's duty (a job "expected to finish" is not).
            if self.any(i, &["supposed", "expected"])
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && !self.any(i + 2, &["get", "receive", "have", "hear", "see", "meet"])
                && !self.is(i.wrapping_sub(1), "not")
                && (i.saturating_sub(3)..i)
                    .any(|k| self.any(k, &["we", "you", "i", "agents", "agent", "assistant"]))
            {
                return Some((RuleForm::Obligation, "supposed to"));
            }
            if self.seq(i, &["make", "sure"])
                || (self.is(i, "ensure") && (i == h || self.is(i.wrapping_sub(1), "please")))
                || self.seq(i, &["be", "sure", "to"])
            {
                return Some((RuleForm::Obligation, "make sure"));
            }
            if self.is(i, "always")
                && !self.any(i.wrapping_sub(1), DESCRIPTIVE)
                && !self.past_after(i)
            {
                return Some((RuleForm::Obligation, "always"));
            }
            let expectation = (i.saturating_sub(3)..i)
                .any(|k| self.any(k, DESCRIPTIVE) || self.is(k, "one"))
                || (self.is(i + 1, "be")
                    && self
                        .word(i + 2)
                        .is_some_and(|w| !is_past(w) && !w.ends_with("en"))
                    && i + 3 >= n);
            // "The scheduler should pick up new jobs": an expectation.
            // "You should", "commits should be signed", "all PRs should":
            // rules.
            let passive = self.is(i + 1, "be") || self.any(i + 1, &["always", "never", "only"]);
            let agent = self.any(
                i.wrapping_sub(1),
                &["you", "we", "i", "agents", "agent", "assistant", "everyone"],
            );
            let definite = (i.saturating_sub(4)..i).any(|k| self.any(k, &["the", "this", "that"]));
            let expectation = expectation || (!passive && !agent && definite);
            if self.is(i, "should") && !expectation && !self.is(i + 1, "not") {
                return Some((RuleForm::Obligation, "should"));
            }
            if self.seq(i, &["would", "be", "great", "if"])
                || self.seq(i, &["i", "want", "you"])
                || self.seq(i, &["i", "need", "you"])
                || (self.is(i, "i")
                    && self.raw(i).len() > 1
                    && self.any(i + 1, &["like", "prefer"]))
            {
                return Some((RuleForm::Obligation, "I'd like"));
            }
        }
        if imperative.is_some() {
            if self.has("instead") || self.find_seq(0, &["rather", "than"]).is_some() || contrast {
                return Some((RuleForm::Obligation, "instead"));
            }
            // "Use chart version 4.2.1 for ingress-nginx", "pin terraform
            // to 1.7.5", "use `uv` for installs": a version or a tool
            // chosen, not a task.
            let stick = self.any(h, &["stick", "stay"]) && self.any(h + 1, &["to", "on", "with"]);
            if self.any(h, &["use", "pin"]) || stick {
                let reach = if stick { (h + 5).min(n) } else { n };
                let version = (h + 1..reach).any(|k| {
                    self.entity(k) == Some(EntityKind::Version)
                        || (self.is(k, "version")
                            && (self.number(k + 1)
                                || self.entity(k + 1) == Some(EntityKind::Version)))
                });
                let tool_for = (h + 1..(h + 4).min(n))
                    .any(|k| self.entity(k).is_some_and(|e| !e.is_numeric()) || self.ticked(k))
                    && (h + 2..(h + 6).min(n)).any(|k| self.is(k, "for"));
                let number = if stick {
                    self.number(h + 2)
                } else {
                    self.is(h, "pin") && (h + 2..n).any(|k| self.number(k))
                };
                if version || number {
                    return Some((RuleForm::Obligation, "use version"));
                }
                if tool_for && self.is(h, "use") {
                    return Some((RuleForm::Obligation, "use … for"));
                }
            }
            if self.is(h, "keep") {
                return Some((RuleForm::Obligation, "keep"));
            }
            if self.any(h, &["prefer", "favor", "favour"]) {
                return Some((RuleForm::Obligation, "prefer"));
            }
            if self.is(h, "leave")
                && (h + 1..n).any(|k| {
                    self.any(
                        k,
                        &[
                            "off", "on", "running", "open", "enabled", "disabled", "in", "as",
                        ],
                    )
                })
            {
                return Some((RuleForm::Obligation, "leave"));
            }
            if self.any(
                h,
                &["sync", "run", "do", "apply", "update", "edit", "deploy"],
            ) && (self.has("manually") || self.find_seq(0, &["by", "hand"]).is_some())
            {
                return Some((RuleForm::Obligation, "manually"));
            }
            if self.find_seq(0, &["by", "default"]).is_some() {
                return Some((RuleForm::Obligation, "by default"));
            }
            if let Some(k) = self.find_any(h + 1, &["every", "each"]) {
                let next = self.word(k + 1).unwrap_or("");
                // "every 30 minutes", "every commit", "log every experiment".
                if !next.eq_ignore_ascii_case("other") && k + 1 < n {
                    return Some((RuleForm::Obligation, "every"));
                }
            }
            // "rotate them monthly" (an adverb at the end), not "the nightly
            // ETL".
            let periodic = (h + 1..n).any(|k| {
                self.any(k, PERIODIC)
                    && (k + 1 == n
                        || self.clause_start(k + 1)
                        || self.any(k + 1, &["at", "on", "before", "after", "and", "from"]))
            });
            if periodic {
                return Some((RuleForm::Obligation, "periodically"));
            }
            if self.find_seq(0, &["no", "exceptions"]).is_some()
                || self.find_seq(0, &["without", "exception"]).is_some()
                || self.find_seq(0, &["no", "matter", "what"]).is_some()
            {
                return Some((RuleForm::Obligation, "no exceptions"));
            }
        }
        // Conventions stated as facts: "Matchmaking changes ship behind
        // the `mm_v3` flag", "all firewall changes go through the CAB",
        // "the user prefers squash merges".
        let history = (0..n).any(|k| self.any(k, &["was", "were", "had", "did"]));
        if !history {
            // "… ship behind the `mm_v3` flag", "… are gated by a feature
            // flag".
            let gate = self
                .find(0, "behind")
                .filter(|&b| !self.word(b.wrapping_sub(1)).is_some_and(is_past))
                .or_else(|| self.find(0, "gated").map(|g| g + 1));
            if let Some(b) = gate
                && (b + 1..(b + 6).min(n))
                    .any(|k| self.any(k, &["flag", "flags", "toggle", "toggles", "feature-flag"]))
            {
                return Some((RuleForm::Obligation, "behind a flag"));
            }
            let changes = (h..n).any(|k| {
                self.word(k).is_some_and(|w| in_table(CHANGE_NOUNS, w))
                    && !self.any(
                        k.wrapping_sub(1),
                        &["the", "this", "that", "these", "those"],
                    )
            }) || self.any(h, &["all", "every", "each", "any", "new"]);
            let through = (h + 1..n).any(|k| {
                self.any(k, &["go", "goes", "get", "gets", "are", "is", "must"])
                    && (k + 1..(k + 3).min(n)).any(|j| self.any(j, &["through", "via"]))
            });
            if changes && through {
                return Some((RuleForm::Obligation, "goes through"));
            }
            // "The user requires every workflow to pin actions", "policy
            // expects all buckets to be encrypted".
            if let Some(r) = self.find_any(1, &["requires", "require", "expects", "expect"])
                && self.word(r - 1).is_some_and(|w| {
                    in_table(
                        &[
                            "client",
                            "compliance",
                            "customer",
                            "he",
                            "i",
                            "legal",
                            "operator",
                            "policy",
                            "security",
                            "she",
                            "team",
                            "they",
                            "user",
                            "we",
                        ],
                        w,
                    )
                })
                && (r + 2..(r + 7).min(n)).any(|k| self.is(k, "to"))
            {
                return Some((RuleForm::Obligation, "requires"));
            }
            // "Deploys to production require a green staging run".
            if let Some(r) = self.find_any(h + 1, &["requires", "require"])
                && r + 1 < n
                && (self
                    .word(h)
                    .is_some_and(|w| w.len() > 4 && w.ends_with("ing"))
                    || (h..r).any(|k| self.word(k).is_some_and(|w| in_table(CHANGE_NOUNS, w))))
            {
                return Some((RuleForm::Obligation, "requires"));
            }
            // "Escalations go to the Tier 2 queue": work routed by rule.
            let routed = (h..n).any(|k| {
                self.word(k).is_some_and(|w| in_table(ROUTED, w))
                    || (k > h && self.is(k, "requests"))
            }) && !self.any_of(&["automatically", "automatic"])
                && (h + 1..n).any(|k| {
                    (self.any(k, &["go", "goes"]) && self.is(k + 1, "to"))
                        || (self.any(k, &["routed", "sent", "forwarded"])
                            && self.any(k.wrapping_sub(1), &["are", "is", "get", "gets", "be"])
                            && self.is(k + 1, "to"))
                });
            if routed {
                return Some((RuleForm::Obligation, "goes to"));
            }
            if let Some(p) = self.find_any(1, &["prefers", "prefer"])
                && (self.any(p - 1, &["i", "we"])
                    || self.word(p - 1).is_some_and(|w| {
                        in_table(&["user", "operator", "customer", "client", "team"], w)
                    }))
                && p + 1 < n
            {
                return Some((RuleForm::Obligation, "prefers"));
            }
        }
        // "Every Deployment needs resource requests."
        if self.any(h, &["every", "each", "all", "any"])
            && self
                .find_any(h + 1, &["needs", "need", "gets", "get"])
                .is_some()
        {
            return Some((RuleForm::Obligation, "needs"));
        }
        // "Tone stays formal", "left running".
        for i in 0..n {
            if self.any(i, &["stays", "stay", "remain", "remains"])
                && i > h
                && self.word(i + 1).is_some()
                && !self.any(i + 1, &["at", "in", "within", "as", "the", "a"])
            {
                return Some((RuleForm::Obligation, "stays"));
            }
            if self.is(i, "left")
                && self.any(
                    i + 1,
                    &["running", "on", "off", "open", "enabled", "disabled", "in"],
                )
                && i > h
            {
                return Some((RuleForm::Obligation, "left running"));
            }
            if self.any(i, &["follow", "follows"])
                && i > h
                && i <= h + 4
                && !self.any(h, &["i", "we", "you", "the", "this", "it"])
                && self
                    .t
                    .get(i + 1)
                    .is_some_and(|t| t.text.chars().next().is_some_and(char::is_uppercase))
            {
                return Some((RuleForm::Obligation, "follows"));
            }
        }
        None
    }
}
