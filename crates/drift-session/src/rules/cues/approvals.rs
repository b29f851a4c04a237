//! Approvals in the main clause ("needs sign-off from", "wait for my OK"),
//! time windows and freezes, and orderings ("before you X", "only after").

use super::*;

impl Clause<'_, '_> {
    /// Which tokens are in a subordinate part ("before you ask for
    /// review", "until the DBA has checked"): an approval's cue must be in
    /// the main clause.
    pub(super) fn subordinate(&self, i: usize) -> bool {
        (0..i)
            .rev()
            .take_while(|&k| !self.clause_start(k + 1) || k + 1 > i)
            .any(|k| {
                self.any(
                    k,
                    &["before", "until", "after", "if", "unless", "once", "when"],
                ) && (k + 1..=i).all(|j| !self.clause_start(j))
            })
    }

    /// "needs sign-off from", "requires approval", "must be reviewed by",
    /// "wait for my OK", "ask X before", "loop X in".
    pub(super) fn approval(&self) -> Cue {
        let n = self.len();
        // "You have my approval to restart billing-node-4 once …": an
        // approval given is a permission.
        for i in 2..n {
            if self.any(i, &["approval", "blessing", "go-ahead"])
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && self.any(i - 1, &["my", "our"])
                && self.any(i - 2, &["have", "has", "got", "given", "granted", "with"])
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "permission to"));
            }
        }
        let frame = (0..n).any(|i| {
            self.any(
                i,
                &[
                    "need",
                    "needs",
                    "require",
                    "requires",
                    "required",
                    "must",
                    "should",
                    "shall",
                    "wait",
                    "without",
                    "get",
                    "goes",
                    "through",
                    "ask",
                    "asking",
                    "acknowledge",
                    "loop",
                    "want",
                    "wants",
                ],
            ) || (self.is(i, "for") && self.any(i + 1, &["approval", "review", "sign"]))
        });
        let h = self.head();
        // "No sign-off needed for dev restarts", "restarts don't need
        // approval": a gate lifted, which is leave.
        for i in 0..n {
            let end = if self.any(i, &["approval", "approvals", "review", "permission"])
                || self.raw(i).eq_ignore_ascii_case("sign-off")
                || self.raw(i) == "OK"
            {
                i + 1
            } else if self.seq(i, &["sign", "off"]) {
                i + 2
            } else {
                continue;
            };
            let needless = (i.saturating_sub(4)..i).any(|k| {
                self.is(k, "not") && self.any(k + 1, &["need", "needs", "require", "requires"])
            });
            let none = self.is(i.wrapping_sub(1), "no")
                && self.any(end, &["needed", "required", "necessary"]);
            if needless || none {
                return Some((RuleForm::CarveOut, "no approval needed"));
            }
        }
        for i in 0..n {
            if self.subordinate(i) && i != h {
                continue;
            }
            // "wants every migration reviewed by Priya": a participle the
            // wish takes, not a past.
            let wished = (i.saturating_sub(5)..i).any(|k| {
                self.any(
                    k,
                    &[
                        "want", "wants", "wanted", "need", "needs", "require", "requires", "get",
                        "gets",
                    ],
                )
            });
            let past = self.any(i.wrapping_sub(1), &["was", "were", "has", "have", "had"])
                || (self.any(i, &["approved", "reviewed", "signed", "acknowledged"])
                    && !self.any(i.wrapping_sub(1), &["be", "been", "is", "are"])
                    && !wished);
            let cue = if self.any(
                i,
                &["approval", "approvals", "approve", "approved", "approves"],
            ) {
                Some("approval")
            } else if self.any(i, &["sign-off", "signoff"])
                || (self.any(i, &["sign", "signed", "signs"]) && self.is(i + 1, "off"))
            {
                Some("sign-off")
            } else if self.any(
                i,
                &["review", "reviews", "reviewed", "reviewer", "reviewers"],
            ) {
                Some("review")
            } else if self.seq(i, &["thumbs", "up"])
                || self.raw(i).eq_ignore_ascii_case("thumbs-up")
            {
                Some("thumbs-up")
            } else if self.raw(i) == "OK"
                && self.any(
                    i.wrapping_sub(1),
                    &[
                        "my", "his", "her", "their", "an", "explicit", "the", "written", "our",
                    ],
                )
            {
                Some("OK")
            } else if self.raw(i) == "+1"
                && self.any(
                    i.wrapping_sub(1),
                    &["a", "an", "the", "your", "his", "her", "their"],
                )
            {
                Some("+1")
            } else if (self.seq(i, &["go", "ahead"]) && i != h)
                || self.raw(i).eq_ignore_ascii_case("go-ahead")
            {
                Some("go-ahead")
            } else if self.any(i, &["lgtm", "consent", "permission", "acknowledge", "ack"]) {
                Some("acknowledge")
            } else if self.any(i, &["second", "another", "two", "2"])
                && self.any(
                    i + 1,
                    &[
                        "human",
                        "humans",
                        "person",
                        "people",
                        "pair",
                        "engineer",
                        "engineers",
                        "keyholders",
                        "approvers",
                        "reviewers",
                        "signatures",
                        "eyes",
                    ],
                )
            {
                Some("a second human")
            } else if (self.is(i, "loop") && self.find(i + 1, "in").is_some_and(|k| k <= i + 4))
                || (i == h
                    && self.any(i, &["tag", "ping", "cc", "notify"])
                    && self.any(i + 1, &["me", "us"])
                    && self.any(i + 2, &["on", "about", "for", "in"])
                    && self.any(i + 3, &["anything", "any", "every", "all", "each"]))
            {
                // "loop Dana in", "tag me on anything that changes IAM".
                Some("loop in")
            } else if self.any(i, &["escalate", "defer", "hand"])
                && (i + 1..(i + 4).min(n)).any(|k| {
                    self.is(k, "to")
                        && (self.any(k + 1, &["me", "us", "someone", "legal", "security"])
                            || self.any(
                                k + 2,
                                &[
                                    "human", "person", "lead", "manager", "engineer", "approver",
                                    "reviewer",
                                ],
                            ))
                })
            {
                Some("escalate to a human")
            } else if self.is(i, "asking") && self.is(i.wrapping_sub(1), "without") {
                Some("without asking")
            } else if self.is(i, "without")
                && (self.any(i + 1, &["me", "us", "supervision", "oversight"])
                    || (self.any(i + 1, &["a", "an", "someone"])
                        && self.any(i + 2, &["human", "person", "reviewer", "approver", "lead"])))
            {
                Some(if self.any(i + 1, &["me", "us"]) {
                    "without me"
                } else {
                    "without an approver"
                })
            } else if self.is(i, "ask")
                && i == h
                && self.find_any(i, &["before", "first"]).is_some()
            {
                Some("ask before")
            } else if self.seq(i, &["check", "with"]) && i == h {
                Some("check with")
            } else {
                None
            };
            let Some(cue) = cue else {
                continue;
            };
            if past && !matches!(cue, "ask before" | "check with") {
                continue;
            }
            let present = (self.is(i, "approves") || self.seq(i, &["signs", "off"])) && i > h;
            if frame || i == h || present || cue == "escalate to a human" {
                return Some((RuleForm::Approval, cue));
            }
        }
        None
    }

    /// The freeze cue: "frozen", "is a … freeze", "freeze until"; with
    /// whether it names a time, and whether it heads what follows.
    pub(super) fn freeze(&self) -> Option<(usize, bool)> {
        for i in 0..self.len() {
            let Some(w) = self.word(i) else { continue };
            let lower_is = |p: &str| {
                w.len() >= p.len() && w.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes())
            };
            if !(lower_is("frozen") || lower_is("freeze")) || lower_is("freezer") {
                continue;
            }
            let history = self.any(i.wrapping_sub(1), &["was", "were", "been", "lifted"])
                || self.any(
                    i + 1,
                    &[
                        "was",
                        "were",
                        "lifted",
                        "ended",
                        "exception",
                        "exceptions",
                        "ends",
                    ],
                );
            if history {
                continue;
            }
            let frozen = lower_is("frozen");
            let framed = (frozen
                && (self.any(
                    i.wrapping_sub(1),
                    &["is", "are", "stay", "stays", "remain", "remains"],
                ) || self.is(i + 1, "until")))
                || (!frozen
                    && (self.any(i + 1, &["until", "through", "in", "on"])
                        || (0..i)
                            .rev()
                            .take(4)
                            .any(|k| self.any(k, &["is", "are", "under", "in"]))));
            if framed {
                let head = !frozen && (0..i).rev().take(4).any(|k| self.any(k, &["is", "are"]));
                return Some((i, head));
            }
        }
        None
    }

    /// Clock times, days, "business hours", freezes, change windows.
    pub(super) fn window(&self) -> Cue {
        let n = self.len();
        if let Some((i, _)) = self.freeze() {
            let timed = self.time_in(0, n);
            let cue = if self
                .word(i)
                .is_some_and(|w| w.to_ascii_lowercase().starts_with("frozen"))
            {
                "frozen"
            } else {
                "freeze"
            };
            return Some((
                if timed {
                    RuleForm::Window
                } else {
                    RuleForm::Scope
                },
                cue,
            ));
        }
        if !self.time_in(0, n) {
            return None;
        }
        // "Deploys are blocked until 2026-06-02", "merges are paused until
        // Monday": a freeze by another name.
        if let Some(i) = self.find_any(0, HALTED)
            && self.any(
                i.wrapping_sub(1),
                &["is", "are", "remain", "remains", "stay", "stays", "be"],
            )
            && self.any(i + 1, &["until", "till", "through", "for"])
        {
            return Some((RuleForm::Window, "blocked until"));
        }
        if let Some(i) = self.find(0, "window")
            && (self.any(i + 1, &["is", "are"]) || i <= 3)
        {
            return Some((RuleForm::Window, "window"));
        }
        // "Quiet hours are 22:00 to 07:00", "the blackout period is …".
        if let Some(i) = self.find_any(0, &["hours", "period", "blackout"])
            && self.any(i + 1, &["is", "are"])
            && self.time_in(i + 2, n)
        {
            return Some((RuleForm::Window, "hours"));
        }
        let cue = [
            "between", "during", "until", "outside", "only", "before", "after",
        ]
        .into_iter()
        .find(|w| self.has(w));
        // "only" frames a time it stands beside: "only between 09:00 and
        // 17:00", "Tuesday to Thursday only", "business hours only".
        let only_time = (0..n).any(|i| {
            self.is(i, "only")
                && (self.time_in(i + 1, i + 2)
                    || (self.any(
                        i + 1,
                        &[
                            "between", "during", "on", "before", "after", "until", "in", "outside",
                        ],
                    ) && self.time_in(i + 2, i + 4))
                    || self.time_in(i.saturating_sub(2), i)
                    || (i + 1..(i + 6).min(n)).any(|k| {
                        self.any(
                            k,
                            &["on", "during", "between", "at", "after", "before", "until"],
                        ) && self.time_in(k + 1, k + 3)
                            && self.entity(k + 1) != Some(EntityKind::Date)
                    }))
        });
        // "never deployed on Fridays" is history, not a window.
        let negated = (0..n).any(|i| self.negation(i) && !self.history_after(i));
        let framed = negated
            || only_time
            || self.has("outside")
            || (cue.is_some()
                && !self.has("only")
                && (self.imperative().is_some() || self.modal_in(0, n)));
        if framed {
            return Some((RuleForm::Window, cue.unwrap_or("time window")));
        }
        None
    }

    /// "before you X", "X first", "first …, then …", "only after", "wait
    /// for", "once X, Y", "without a saved plan", "N hours ahead".
    pub(super) fn ordering(&self) -> Cue {
        let n = self.len();
        let h = self.head();
        for i in 0..n {
            if self.any(i, &["before"]) || self.seq(i, &["prior", "to"]) {
                if self.time_follows(i + 1) {
                    continue;
                }
                let directive = if i == h {
                    let main = self.next_clause(i);
                    main < n && self.directive(main, n)
                } else {
                    self.directive(h, i) || self.any(h, &["always", "never"])
                };
                if directive {
                    return Some((RuleForm::Ordering, "before"));
                }
            }
            if self.seq(i, &["only", "after"]) || self.seq(i, &["not", "until"]) {
                return Some((RuleForm::Ordering, "only after"));
            }
            if self.is(i, "wait")
                && !(i > 0 && self.negation(i - 1))
                && (self.any(i + 1, &["for", "until"])
                    || self.seq(i + 1, &["at", "least"])
                    || self.number(i + 1))
            {
                return Some((RuleForm::Ordering, "wait for"));
            }
            if let Some(mut after) = self.after_at_least(i, n)
                && after.any(|k| self.any(k, ADVANCE))
            {
                return Some((RuleForm::Ordering, "ahead"));
            }
            if self.is(i, "once")
                && !self.any(i.wrapping_sub(1), &["at", "than"])
                && !self.any(i + 1, &["a", "an", "per", "every", "more"])
                && i > h
                && self.directive(h, i)
            {
                return Some((RuleForm::Ordering, "once"));
            }
            if self.is(i, "once") && i == h {
                let main = self.next_clause(i);
                if main < n && self.directive(main, n) {
                    return Some((RuleForm::Ordering, "once"));
                }
            }
            if self.is(i, "without")
                && (i + 1..(i + 4).min(n)).any(|k| self.word(k).is_some_and(|w| in_table(STEPS, w)))
                && (self.negated() || self.directive(h, i))
            {
                return Some((RuleForm::Ordering, "without"));
            }
        }
        // "X first", "first X, then Y".
        let last = (0..n)
            .rev()
            .find(|&i| self.word(i).is_some() || self.entity(i).is_some());
        let first_last = last.is_some_and(|i| {
            self.any(i, &["first", "beforehand", "afterwards", "afterward"])
                || self.seq(i.wrapping_sub(1), &["in", "advance"])
        });
        let first_then = self.is(h, "first") && self.find(h + 1, "then").is_some();
        // "Route 10% to it first and hold for an hour", "run with --check
        // first, then …".
        let first_comma = (h + 2..n).any(|i| {
            self.any(i, &["first", "beforehand"])
                && (self.any(i + 1, &["then", "and"]) || self.clause_start(i + 1))
        });
        if (first_last || first_comma) && (self.directive(h, n) || self.imperative().is_some())
            || first_then
        {
            return Some((RuleForm::Ordering, "first"));
        }
        None
    }
}
