//! The most specific cues, read first: a correction, a binding ("the
//! ticket is X, not Y", "the approver is …"), a carve-out that says so and
//! a condition ("if …, stop", "until …").

use super::*;

impl Clause<'_, '_> {
    /// "Correction", "scratch that", "I meant", "by mistake", "actually,
    /// …", "sorry, … not …": the operator corrects what was said.
    pub(super) fn correction(&self, contrast: bool) -> Option<&'static str> {
        for i in 0..self.len() {
            if self.is(i, "correction") && (i == 0 || self.clause_start(i) || i <= 2) {
                return Some("correction");
            }
            if self.seq(i, &["scratch", "that"]) {
                return Some("scratch that");
            }
            if self.seq(i, &["i", "meant"]) && !self.is(i.wrapping_sub(1), "what") {
                return Some("I meant");
            }
            if self.seq(i, &["by", "mistake"]) || self.seq(i, &["my", "mistake"]) {
                return Some("by mistake");
            }
            if self.seq(i, &["i", "typed"]) {
                return Some("I typed");
            }
        }
        let h = self.head();
        if self.seq(h, &["make", "that"]) {
            return Some("make that");
        }
        let opener = (0..self.len().min(2))
            .find(|&i| self.any(i, &["actually", "sorry", "oops", "whoops", "wait"]));
        if let Some(i) = opener {
            let instead = self.has("instead") || self.seq(i + 1, &["the"]) && contrast;
            let should_be = self.find_seq(i, &["should", "be"]).is_some();
            let actually_directive = self.is(i, "actually") && self.verb_at(i + 1).is_some();
            if contrast || instead || should_be || actually_directive {
                return Some(if self.is(i, "actually") {
                    "actually"
                } else if self.is(i, "wait") {
                    "wait"
                } else if self.is(i, "sorry") {
                    "sorry"
                } else {
                    "oops"
                });
            }
        }
        None
    }

    /// "the ticket is X, not Y", `"the app" is X`, "when I say X I mean
    /// Y", "the approver is …".
    pub(super) fn binding(&self, contrast: bool) -> Cue {
        // The approver named: an approval, not a binding.
        for i in 0..self.len() {
            if self.any(i, &["approver", "approvers"])
                && (self.any(i + 1, &["is", "are"])
                    || i == self.head()
                    || self.any(i.wrapping_sub(1), &["the"]))
            {
                return Some((RuleForm::Approval, "approver"));
            }
        }
        if self.find_seq(0, &["i", "mean"]).is_some()
            && (self.find(0, "say").is_some() || self.quoted_term_before(self.len()))
        {
            return Some((RuleForm::Binding, "I mean"));
        }
        for i in 0..self.len() {
            if self.any(i, &["is", "are", "means", "refers"])
                && self.quoted_term_before(i)
                && self.named_after(i)
            {
                return Some((
                    RuleForm::Binding,
                    if self.is(i, "means") { "means" } else { "is" },
                ));
            }
        }
        if contrast {
            let h = self.head();
            let mut s = h;
            while self.any(s, &["oh", "and", "also", "btw", "fyi", "note"]) {
                s += 1;
            }
            if self.any(s, &["the", "our", "this", "that", "its", "your"]) {
                let copula =
                    (s + 1..(s + 7).min(self.len())).find(|&k| self.any(k, &["is", "are"]));
                if let Some(k) = copula
                    && !self.modal_in(s, k)
                    && !self.any(k + 1, &["not", "no"])
                    && !(s + 1..k)
                        .any(|j| self.any(j, DESCRIPTIVE) || self.word(j).is_some_and(is_past))
                {
                    return Some((RuleForm::Binding, "is … not …"));
                }
            }
        }
        None
    }

    /// A quoted term ends right before token `i` (`"the app" is …`).
    pub(super) fn quoted_term_before(&self, i: usize) -> bool {
        let Some(t) = self.t.get(i.min(self.len().saturating_sub(1))) else {
            return false;
        };
        let before = self.text.get(..t.span.start).unwrap_or("").trim_end();
        let Some(close) = before.chars().next_back() else {
            return false;
        };
        if !matches!(close, '"' | '\u{201D}' | '\'' | '\u{2019}') {
            return false;
        }
        let inner = &before[..before.len() - close.len_utf8()];
        let open = inner.rfind(['"', '\u{201C}', '\'', '\u{2018}']);
        let clause_start = self.t.first().map_or(0, |t| t.span.start);
        // A real phrase: `"the app"`, not `""`.
        let phrase = |o: usize| {
            inner
                .get(o + 1..)
                .is_some_and(|p| p.bytes().any(|b| b.is_ascii_alphabetic()))
        };
        open.is_some_and(|o| o + 1 >= clause_start && inner.len() - o < 60 && phrase(o))
    }

    /// A named thing after the copula at `i` (within a few words): an
    /// identifier, ticket, path or version, a quoted phrase, or a proper
    /// name ("\"The on-call\" means Hana").
    pub(super) fn named_after(&self, i: usize) -> bool {
        (i + 1..(i + 8).min(self.len())).any(|k| {
            let Some(t) = self.t.get(k) else {
                return false;
            };
            let quoted = self
                .text
                .get(..t.span.start)
                .is_some_and(|b| b.ends_with(['"', '\'', '\u{201C}', '\u{2018}']));
            match t.entity {
                Some(e) => e != EntityKind::Number,
                None => {
                    quoted
                        || (t.text.chars().next().is_some_and(char::is_uppercase)
                            && !self.clause_start(k))
                }
            }
        })
    }

    /// "is the exception", "exempt", "exclude", "does not cover", "do not
    /// count against", "freeze or not", "can … instead".
    pub(super) fn carve_out(&self) -> Cue {
        let h = self.head();
        for i in 0..self.len() {
            if self.is(i, "exception") {
                let named = self.any(i.wrapping_sub(2), &["is", "are"])
                    && self.any(i.wrapping_sub(1), &["the", "an"]);
                let label = i == h && (self.len() <= i + 2 || self.is(i + 1, "granted"));
                let of = self.seq(i.wrapping_sub(2), &["with", "the"]) && self.is(i + 1, "of");
                if named || label || of {
                    return Some((RuleForm::CarveOut, "exception"));
                }
            }
            if self.is(i, "exempt") || self.is(i, "exempted") {
                return Some((RuleForm::CarveOut, "exempt"));
            }
            if self.is(i, "not")
                && (self.any(i + 1, &["cover", "covers"])
                    || (self.is(i + 1, "count")
                        && self.any(i + 2, &["against", "toward", "towards"]))
                    || (self.is(i + 1, "apply") && self.is(i + 2, "to"))
                    || self.seq(i + 1, &["subject", "to"]))
            {
                return Some((RuleForm::CarveOut, "does not cover"));
            }
            if self.seq(i, &["freeze", "or", "not"]) {
                return Some((RuleForm::CarveOut, "freeze or not"));
            }
            // "Internal tooling is not covered by the freeze": a rule that
            // does not reach it.
            if self.is(i, "not")
                && self.any(i + 1, &["covered", "affected", "bound", "governed"])
                && self.is(i + 2, "by")
                && (i + 3..(i + 7).min(self.len()))
                    .any(|k| self.word(k).is_some_and(|w| in_table(RULE_NOUNS, w)))
            {
                return Some((RuleForm::CarveOut, "not covered by"));
            }
            // "Internal tooling is outside the freeze".
            if self.is(i, "outside")
                && self.any(i.wrapping_sub(1), &["is", "are", "falls", "fall", "stays"])
                && (i + 1..(i + 4).min(self.len()))
                    .any(|k| self.word(k).is_some_and(|w| in_table(RULE_NOUNS, w)))
            {
                return Some((RuleForm::CarveOut, "not covered by"));
            }
            // "Tenant acme-gmbh is excluded (from the migration)".
            // A thing named ("tenant acme-gmbh", "Finance marts") or a rule
            // or sweep it is kept out of ("… from this cleanup"), not a
            // description ("tenants are excluded from billing when …").
            let named = (0..i).any(|k| {
                self.entity(k).is_some_and(|e| !e.is_numeric())
                    || (k > 0
                        && self
                            .raw(k)
                            .chars()
                            .next()
                            .is_some_and(char::is_uppercase))
                    || self.entity(k).is_some()
                    // "tenant acme", "project sandbox-7": a resource by name.
                    || (self
                        .word(k)
                        .is_some_and(|w| in_table(RESOURCES, w) && !w.ends_with('s'))
                        && self.word(k + 1).is_some()
                        && k + 1 < i)
            }) || (self.is(i + 1, "from")
                && (i + 2..(i + 5).min(self.len())).any(|k| {
                    self.any(k, &["this", "these"])
                        || self.word(k).is_some_and(|w| in_table(RULE_NOUNS, w))
                }));
            if self.is(i, "excluded")
                && self.any(
                    i.wrapping_sub(1),
                    &["is", "are", "be", "stays", "stay", "remains", "remain"],
                )
                && named
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "excluded"));
            }
        }
        if self.any(h, &["exclude", "excluding"]) {
            return Some((RuleForm::CarveOut, "exclude"));
        }
        if let Some(i) = self.find_any(0, &["can", "may"])
            && !self.is(i + 1, "not")
            && self.find(i, "instead").is_some()
        {
            return Some((RuleForm::CarveOut, "can … instead"));
        }
        None
    }

    /// Whether the words from `k` on are a time ("until Friday").
    pub(super) fn time_follows(&self, k: usize) -> bool {
        self.time_in(k, k + 3)
    }

    /// "if …, stop", "stop if …", "only if", "until <event>", "as soon
    /// as", "after that, …".
    pub(super) fn condition(&self) -> Cue {
        let h = self.head();
        if self.any(h, &["if", "when", "whenever"]) || self.seq(h, &["in", "case"]) {
            if self.seq(h, &["when", "i", "say"]) {
                return None;
            }
            let mut main = self.next_clause(h);
            if main >= self.len() {
                // No comma: "if X then Y", "if X just Y", "if the build
                // fails revert it".
                let n = self.len();
                main = self
                    .find_any(h + 2, &["then", "just"])
                    .map(|k| k + 1)
                    .or_else(|| {
                        (h + 3..n).find(|&k| {
                            self.verb_at(k).is_some()
                                && !self.any(
                                    k - 1,
                                    &[
                                        "the", "a", "an", "to", "we", "you", "i", "they", "it",
                                        "will", "would", "can", "not",
                                    ],
                                )
                        })
                    })
                    .unwrap_or(n);
            }
            if main < self.len() && self.directive(main, self.len()) {
                return Some((
                    RuleForm::Condition,
                    if self.is(h, "if") { "if" } else { "when" },
                ));
            }
            return None;
        }
        if self.any(
            h,
            &[
                "stop", "halt", "abort", "pause", "kill", "page", "escalate", "bail",
            ],
        ) && self.find_any(h + 1, &["if", "when", "once"]).is_some()
        {
            return Some((RuleForm::Condition, "stop if"));
        }
        if let Some(i) = self.find(0, "only")
            && self.any(i + 1, &["if", "when"])
        {
            return Some((
                RuleForm::Condition,
                if self.is(i + 1, "if") {
                    "only if"
                } else {
                    "only when"
                },
            ));
        }
        if let Some(i) = self.find(0, "until")
            && self.approval_word(i + 1)
            && (self.directive(0, i) || self.negated())
        {
            // "Wait until compliance signs off", "don't run it until
            // the lead approves".
            return Some((RuleForm::Approval, "until … signs off"));
        }
        if let Some(i) = self
            .find_any(0, &["while", "whilst"])
            .or(self.find_seq(0, &["as", "long", "as"]))
            && i > 0
            && (self.directive(0, i) || self.negated())
        {
            return Some((RuleForm::Condition, "while"));
        }
        if let Some(i) = self.find(0, "until")
            && !self.time_follows(i + 1)
            && !self.is(i.wrapping_sub(1), "not")
            && (self.directive(0, i)
                || self.negated()
                || self
                    .find_any(0, &["left", "keep", "leave", "wait"])
                    .is_some())
        {
            return Some((RuleForm::Condition, "until"));
        }
        if let Some(i) = self.find_seq(0, &["as", "soon", "as"])
            && (self.directive(0, i) || self.directive(self.next_clause(i), self.len()))
        {
            return Some((RuleForm::Condition, "as soon as"));
        }
        if (self.seq(h, &["after", "that"])
            || self.seq(h, &["after", "which"])
            || self.is(h, "afterwards"))
            && self.directive(self.next_clause(h), self.len())
        {
            return Some((RuleForm::Condition, "after that"));
        }
        None
    }
}
