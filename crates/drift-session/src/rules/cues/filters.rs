//! What a clause is dropped as before any cue is read: an idiom, the
//! speaker's own plan or state, a question that is not a polite request.

use super::*;

impl Clause<'_, '_> {
    /// "never mind", "don't worry", "no problem", "not only".
    pub(super) fn idiom(&self) -> bool {
        let h = self.head();
        // "Always happy to pair", "never a dull moment": a mood, not a rule.
        if self.any(h, &["always", "never"]) && self.word(h + 1).is_some_and(|w| in_table(MOODS, w))
        {
            return true;
        }
        // "Never seen Redis do that before", "never had a problem with
        // it": experience, told without a subject.
        if self.is(h, "never") && self.past_after(h) {
            return true;
        }
        (0..self.len()).any(|i| {
            self.seq(i, &["never", "mind"])
                || self.seq(i, &["do", "not", "worry"])
                || self.seq(i, &["no", "problem"])
                || self.seq(i, &["no", "worries"])
                || self.seq(i, &["not", "sure"])
                || self.seq(i, &["not", "only"])
                || self.seq(i, &["used", "to"])
                || (self.is(i, "no") && self.clause_start(i + 1))
                // A login banner: "Unauthorized access is prohibited",
                // "authorized users only".
                || (self.any(i, &["unauthorized", "unauthorised", "authorized", "authorised"])
                    && self.any(i + 1, &["access", "use", "users", "personnel", "persons"]))
        })
    }

    /// The speaker's own plan or state: "I'll …", "we're at …", "I don't
    /// think …", "let me …".
    pub(super) fn plan(&self, ctx: Ctx) -> bool {
        let h = self.head();
        // What a reporting frame reports is the operator's, not the
        // speaker's plan ("the operator said we can use up to 4 GPUs").
        if self.framed {
            return false;
        }
        if self.seq(h, &["let", "me"]) {
            return true;
        }
        if ctx.assistant {
            if self.word(h).is_some_and(|w| {
                w.len() > 5 && w.to_ascii_lowercase().ends_with("ing") && !self.is(h, "nothing")
            }) {
                return true;
            }
            if self.has("would") || self.raw(h).eq_ignore_ascii_case("let's") {
                return true;
            }
        }
        let reach = if ctx.assistant {
            self.len()
        } else {
            self.len().min(h + 4)
        };
        for i in 0..reach {
            if !self.any(i, &["i", "we"]) || (i > h + 3 && !self.clause_start(i)) {
                continue;
            }
            // The model's own "I must check …", "I need to …": a plan,
            // unless it recaps the operator's rules.
            if ctx.assistant
                && !ctx.recap
                && self.any(i + 1, &["must", "should", "need", "have", "will", "shall"])
                && !self.is(i + 2, "not")
            {
                return true;
            }
            // "We're not allowed to touch X", "we have to run the smoke
            // tests first", "we can only deploy to staging": the team's
            // rule, which takes in the agent, not the speaker's plan (the
            // model's own "I have to …" stays one).
            if (!ctx.assistant || ctx.recap) && self.bound(i) {
                return false;
            }
            let raw = self.raw(i);
            let contracted = raw.len() > 1 && raw.contains(['\'', '\u{2019}']);
            if contracted {
                let d = raw.ends_with('d') || raw.ends_with('D');
                if d && self.any(i + 1, &["like", "prefer", "rather"]) {
                    return false;
                }
                return true;
            }
            if self.seq(i + 1, &["want", "you"]) || self.seq(i + 1, &["need", "you"]) {
                return false;
            }
            let restriction =
                self.any(i + 1, &["can", "may", "must", "should"]) && self.is(i + 2, "not");
            if !restriction && self.word(i + 1).is_some_and(|w| in_table(PLAN_VERBS, w)) {
                return true;
            }
            if self.seq(i + 1, &["do", "not"])
                && self.any(
                    i + 3,
                    &["think", "know", "believe", "see", "remember", "mind"],
                )
            {
                return true;
            }
            if ctx.assistant && (self.is(i + 1, "need") || self.is(i + 1, "want")) {
                return true;
            }
            if self.word(i + 1).is_some_and(is_past) {
                return true;
            }
        }
        false
    }

    /// After "I" or "we" at `i`, a rule that binds the speaker's side:
    /// "('re) (not) allowed to", "('re) supposed to", "have to", "can
    /// only", "may only", "can't <act>".
    pub(super) fn bound(&self, i: usize) -> bool {
        let mut k = i + 1;
        if self.any(k, &["are", "am", "were"]) {
            k += 1;
        }
        if self.is(k, "not") {
            k += 1;
        }
        if self.any(
            k,
            &["allowed", "permitted", "supposed", "required", "expected"],
        ) && self.is(k + 1, "to")
        {
            return true;
        }
        // "I have to leave early" is the speaker's own.
        let team = self.is(i, "we");
        // "We have to figure out why" is a task; "we have to run the smoke
        // tests before every deploy" a rule with a cue of its own.
        let cued = (i + 3..self.len()).any(|k| {
            self.any(
                k,
                &[
                    "before", "first", "always", "never", "every", "each", "only", "after",
                    "until", "without", "approval", "review",
                ],
            )
        });
        if team && self.any(i + 1, &["have", "has"]) && self.is(i + 2, "to") && cued {
            return true;
        }
        if team
            && self.any(i + 1, &["can", "may", "must"])
            && self.is(i + 2, "only")
            && self.verb_at(i + 3).is_some()
        {
            return true;
        }
        self.is(i, "we")
            && self.is(i + 1, "can")
            && self.is(i + 2, "not")
            && self.verb_at(i + 3).is_some()
            && !self.any(i + 3, &["get", "go", "make", "do", "find", "see", "tell"])
    }

    /// "Could you please …", "can you …", "would you …", "please …".
    pub(super) fn polite_request(&self) -> bool {
        let h = self.head();
        self.is(0, "please")
            || (self.any(h, &["could", "can", "would", "will"]) && self.is(h + 1, "you"))
    }
}
