//! Limits ("at most N", "within N hours") and permissions ("you may", "is
//! yours to play with", "safe to delete"), with the approval words and
//! subordinate parts they are told apart from.

use super::*;

impl Clause<'_, '_> {
    /// An approval named from token `from` on ("signs off", "approves",
    /// "gives the OK").
    pub(super) fn approval_word(&self, from: usize) -> bool {
        (from..self.len()).any(|i| {
            self.any(
                i,
                &[
                    "approves", "approved", "approval", "sign-off", "signoff", "lgtm", "okays",
                    "reviewed", "reviews", "review",
                ],
            ) || (self.any(i, &["signs", "signed", "sign"]) && self.is(i + 1, "off"))
                || self.raw(i) == "OK"
                || self.seq(i, &["green", "light"])
        })
    }

    /// "at most N", "no more than N", "up to N", "a maximum of N", "within
    /// N hours", "cap … at N", "N at a time", "keep … at N".
    pub(super) fn limit(&self) -> Cue {
        let n = self.len();
        let frame = self.imperative().is_some()
            || self.modal_in(0, n)
            || self.has("may")
            || self.has("can");
        // "The limit was raised to 20 last week": history.
        let history =
            !self.modal_in(0, n) && (0..n).any(|k| self.any(k, &["was", "were", "had", "been"]));
        for i in 0..n {
            if self.seq(i, &["at", "most"]) && self.number(i + 2) {
                return Some((RuleForm::Limit, "at most"));
            }
            let comparative = self.any(
                i,
                &[
                    "more", "fewer", "less", "longer", "shorter", "higher", "lower", "greater",
                    "larger", "bigger", "smaller", "later", "earlier", "older", "newer",
                ],
            ) && self.is(i + 1, "than");
            // A bound on a quantity ("batch more than 50k", "be longer
            // than 1 hour"), not a property of the object ("instances older
            // than 7 days").
            let bounds = i > 0
                && (self.any(
                    i - 1,
                    &[
                        "be", "is", "are", "no", "not", "never", "any", "take", "last", "run",
                    ],
                ) || self.verb_at(i - 1).is_some()
                    || self.any(i, &["more", "fewer", "less"]));
            if comparative
                && bounds
                && (self.number(i + 2)
                    || (self.any(i + 2, &["a", "an"]) && self.number(i + 3))
                    || (self.any(i + 2, &["a", "an"])
                        && self.word(i + 3).is_some_and(is_time_unit)))
            {
                if self.any(i.wrapping_sub(1), &["no", "not"]) {
                    return Some((RuleForm::Limit, "no more than"));
                }
                if (0..i).any(|k| self.negation(k)) {
                    return Some((RuleForm::Limit, "more than"));
                }
            }
            if self.seq(i, &["up", "to"])
                && (self.number(i + 2) || (self.is(i + 2, "a") && self.number(i + 3)))
                && (frame || i == self.head())
            {
                return Some((RuleForm::Limit, "up to"));
            }
            if self.any(i, &["maximum", "max", "minimum", "min"]) {
                let k = if self.is(i + 1, "of") { i + 2 } else { i + 1 };
                let at = self.is(k, "at") && self.number(k + 1);
                let near = (i + 1..(i + 4).min(n)).any(|j| self.number(j));
                if self.number(k)
                    || at
                    || (near && self.any(i.wrapping_sub(1), &["a", "the"]))
                    || self.number(i.wrapping_sub(1))
                {
                    return Some((
                        RuleForm::Limit,
                        self.named(i, &["minimum", "min"], "minimum", "maximum"),
                    ));
                }
            }
            if self.number(i)
                && self.is(i + 1, "or")
                && self.any(i + 2, &["fewer", "less", "below", "under", "lower"])
            {
                return Some((RuleForm::Limit, "or below"));
            }
            if let Some(mut after) = self.after_at_least(i, n) {
                let ahead = after.any(|k| self.any(k, ADVANCE) || self.is(k, "after"));
                if !ahead && !self.is(i.wrapping_sub(1), "without") {
                    return Some((RuleForm::Limit, "at least"));
                }
            }
            let bound = self.any(
                i,
                &[
                    "below", "above", "under", "over", "exceed", "exceeds", "beyond",
                ],
            ) && self.number(i + 1);
            let kept = (i.saturating_sub(6)..i)
                .any(|k| self.any(k, &["keep", "stay", "stays", "remain", "remains", "be"]));
            let negated = (0..i).any(|k| self.negation(k)) && !self.any(i, &["under", "over"]);
            if bound && (negated || (kept && !history)) {
                return Some((
                    RuleForm::Limit,
                    self.named(i, &["below"], "below", "exceed"),
                ));
            }
            if self.is(i, "within") && self.number(i + 1) && !history {
                let unit = self.word(i + 2).is_some_and(is_time_unit)
                    || self
                        .raw(i + 1)
                        .bytes()
                        .last()
                        .is_some_and(|b| matches!(b, b'h' | b'd' | b's' | b'm'));
                if unit {
                    return Some((RuleForm::Limit, "within"));
                }
            }
            if self.any(
                i,
                &["cap", "capped", "caps", "limit", "limited", "throttle"],
            ) {
                let at = (i + 1..(i + 9).min(n)).find(|&k| self.any(k, &["at", "to", "of", "is"]));
                // "This change caps retries at 3": a description.
                let described = self.any(i, &["caps"]) && self.imperative().is_none();
                if let Some(k) = at
                    && self.number(k + 1)
                    && !history
                    && !described
                {
                    return Some((
                        RuleForm::Limit,
                        self.named(i, &["limit", "limited"], "limit", "cap"),
                    ));
                }
            }
            if self.is(i, "budget") {
                let at = (i + 1..(i + 3).min(n)).find(|&k| self.any(k, &["is", "of"]));
                if at.is_some_and(|k| self.number(k + 1)) && !history {
                    return Some((RuleForm::Limit, "budget"));
                }
            }
            if self.seq(i, &["at", "a", "time"])
                && (self.number(i.wrapping_sub(1)) || self.number(i.wrapping_sub(2)))
                || self.seq(i, &["at", "once"]) && (1..4).any(|d| self.number(i.wrapping_sub(d)))
                || self.seq(i, &["at", "the", "same", "time"]) && (0..i).any(|k| self.number(k))
            {
                return Some((RuleForm::Limit, "at a time"));
            }
            if self.any(i, &["keep", "stay", "stays", "remain", "remains"]) {
                let at = (i + 1..(i + 6).min(n)).find(|&k| self.is(k, "at"));
                if at.is_some_and(|k| self.number(k + 1)) {
                    return Some((RuleForm::Limit, "keep … at"));
                }
            }
            if self.is(i, "only")
                && (i + 1..(i + 7).min(n)).any(|k| self.number(k) && self.raw(k).ends_with('%'))
            {
                return Some((RuleForm::Limit, "only N%"));
            }
            // "Staged rollout starts at 1%", "the canary begins with 5% of
            // traffic".
            if self.any(i, &["starts", "start", "begins", "begin"])
                && self.any(i + 1, &["at", "with"])
                && self.number(i + 2)
                && self.raw(i + 2).ends_with('%')
                && !history
                && (0..n).any(|k| {
                    self.any(
                        k,
                        &[
                            "rollout", "rollouts", "canary", "canaries", "ramp", "exposure",
                            "traffic", "release", "launch",
                        ],
                    )
                })
            {
                return Some((RuleForm::Limit, "starts at"));
            }
            if self.is(i, "only") && self.find(i, "last").is_some_and(|k| self.number(k + 1)) {
                return Some((RuleForm::Limit, "only the last"));
            }
            // "One PR per service.", "2 deploys per day": a quota that
            // opens the clause.
            if i == self.head()
                && self.number(i)
                && !history
                && (i + 2..(i + 5).min(n)).any(|k| self.is(k, "per") && k + 1 < n)
                && !(i + 1..n).any(|k| {
                    self.any(k, &["is", "are", "was", "were", "has", "have"])
                        || self.word(k).is_some_and(is_past)
                })
            {
                return Some((RuleForm::Limit, "N per"));
            }
            if self.is(i, "only")
                && self.number(i + 1)
                && (i + 2..n).any(|k| {
                    self.any(k, &["per", "a", "each"])
                        && self.word(k + 1).is_some_and(|w| {
                            is_time_unit(w)
                                || in_table(
                                    &["batch", "change", "deploy", "pr", "release", "run"],
                                    w,
                                )
                        })
                })
            {
                return Some((RuleForm::Limit, "only N per"));
            }
        }
        None
    }

    /// "you may", "you can", "feel free", "is allowed", "are fine
    /// anywhere", "may be … during".
    pub(super) fn permission(&self) -> Cue {
        let cue = self.permission_cue()?;
        let n = self.len();
        let only = (0..n).any(|i| self.is(i, "only"));
        // Leave given to the agent by name ("you may restart db-staging-01
        // during business hours") is a carve-out whatever its time.
        let granted = (0..n).any(|i| {
            self.any(i, &["may", "can"])
                && self.any(i.wrapping_sub(1), &["you", "agents", "agent", "assistant"])
        });
        // "Maintenance is permitted on Sundays between 01:00 and 05:00",
        // "reindexing is only allowed at night": a window; "purging is
        // allowed only on .dlq queues": a scope.
        if granted && !only {
            return Some(cue);
        }
        if self.time_in(0, n) && !self.has("exception") {
            return Some((RuleForm::Window, cue.1));
        }
        if only {
            return Some((RuleForm::Scope, cue.1));
        }
        Some(cue)
    }

    pub(super) fn permission_cue(&self) -> Cue {
        for i in 0..self.len() {
            if self.any(i, &["may", "can"])
                && !self.is(i + 1, "not")
                && !self.seq(i + 1, &["or", "may"])
            {
                // "You can find the logs in …", "you may need to restart":
                // information or possibility, not leave.
                let informational = self.any(
                    i + 1,
                    &[
                        "also",
                        "be",
                        "check",
                        "configure",
                        "find",
                        "get",
                        "have",
                        "install",
                        "learn",
                        "need",
                        "see",
                        "try",
                        "use",
                        "view",
                        "want",
                    ],
                );
                let subject = self.any(i.wrapping_sub(1), &["you", "agents", "agent", "assistant"])
                    && !informational;
                let when = (i + 1..self.len()).any(|k| {
                    self.any(k, &["during", "anytime", "freely", "whenever"])
                        || self.seq(k, &["any", "time"])
                        || self.seq(k, &["without", "asking"])
                });
                if subject || when {
                    return Some((
                        RuleForm::CarveOut,
                        if self.is(i, "may") { "may" } else { "can" },
                    ));
                }
            }
            if self.seq(i, &["feel", "free"]) {
                return Some((RuleForm::CarveOut, "feel free"));
            }
            // "You're free to restart the dev pools".
            if self.is(i, "free")
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && (0..i).any(|k| self.any(k, &["you", "agents", "agent", "assistant"]))
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "free to"));
            }
            // A negation of the main clause, not of a relative one
            // ("anything that nobody queried … can go").
            let negated = (0..i)
                .take_while(|&k| {
                    !self.any(
                        k,
                        &[
                            "that", "which", "who", "whose", "if", "unless", "when", "where",
                        ],
                    )
                })
                .any(|k| self.negation(k));
            if self.any(i, &["may", "can"]) && !self.is(i + 1, "not") && !negated {
                // "Anything unused for 90 days can go", "branches older
                // than a month may be deleted": leave to remove.
                let go = self.is(i + 1, "go")
                    && (i + 2 >= self.len()
                        || self.clause_start(i + 2)
                        || self.any(i + 2, &["away", "too", "now", "as", "once", "after"]));
                let removed =
                    self.is(i + 1, "be") && self.word(i + 2).is_some_and(|w| in_table(REMOVALS, w));
                if go || removed {
                    return Some((RuleForm::CarveOut, "can go"));
                }
                // "Hotfixes may skip staging": leave to pass a rule by.
                if self.any(i + 1, &["skip", "bypass", "override", "exceed", "ignore"])
                    && (self.head()..i)
                        .any(|k| self.word(k).is_some_and(|w| in_table(CHANGE_NOUNS, w)))
                {
                    return Some((RuleForm::CarveOut, "may skip"));
                }
            }
            // "The ANALYTICS_DEV database is yours to play with", "staging
            // is fair game", "you have permission to restart workers".
            if self.is(i, "yours") && self.is(i + 1, "to") && !negated {
                return Some((RuleForm::CarveOut, "yours to"));
            }
            if self.seq(i, &["fair", "game"]) && !negated {
                return Some((RuleForm::CarveOut, "fair game"));
            }
            if self.is(i, "permission")
                && self.is(i + 1, "to")
                && self.any(
                    i.wrapping_sub(1),
                    &[
                        "gave", "given", "has", "have", "granted", "got", "with", "full",
                    ],
                )
                && !negated
            {
                return Some((RuleForm::CarveOut, "permission to"));
            }
            if self.any(i, &["allowed", "permitted"])
                && (self.any(i.wrapping_sub(1), &["is", "are", "be"])
                    || (self.any(
                        i.wrapping_sub(1),
                        &["only", "always", "also", "still", "generally", "usually"],
                    ) && self.any(i.wrapping_sub(2), &["is", "are", "be"])))
                && !self.is(i + 1, "not")
                && !(0..i).any(|k| self.negation(k) || self.is(k, "would"))
            {
                return Some((RuleForm::CarveOut, "allowed"));
            }
            if self.any(i, &["fine", "ok", "okay"])
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "fine to"));
            }
            // "Anything in /tmp/scratch is safe to delete", "the dev pool
            // is all yours", "do whatever you want in the sandbox".
            let removal = self.word(i + 2).is_some_and(|w| {
                in_table(
                    &[
                        "archive", "clean", "delete", "drop", "kill", "prune", "purge", "reboot",
                        "recreate", "remove", "restart", "truncate", "wipe",
                    ],
                    w,
                )
            });
            if self.is(i, "safe")
                && self.is(i + 1, "to")
                && removal
                && self.any(i.wrapping_sub(1), &["is", "are"])
                && !self.any(i.wrapping_sub(2), DESCRIPTIVE)
                && !negated
            {
                return Some((RuleForm::CarveOut, "safe to"));
            }
            if self.seq(i, &["all", "yours"]) && !negated {
                return Some((RuleForm::CarveOut, "yours to"));
            }
            if self.is(i, "whatever")
                && self.is(i + 1, "you")
                && self.any(i + 2, &["want", "like", "need"])
                && !negated
            {
                return Some((RuleForm::CarveOut, "whatever you want"));
            }
            if self.any(i, &["fine", "ok", "okay"])
                && self.any(i.wrapping_sub(1), &["is", "are"])
                && !self.any(i.wrapping_sub(2), DESCRIPTIVE)
                && (i >= 3 || self.any(i + 1, &["anywhere", "to"]))
            {
                return Some((RuleForm::CarveOut, "fine"));
            }
        }
        None
    }
}
