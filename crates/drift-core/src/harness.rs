//! The harness: the token budget and the session's length (docs/MODEL.md §2, §9).
//!
//! A [`Harness`] is data; when a round is due for it is [`Harness::is_due`].
//! Its nine fields are listed once, as [`HarnessField`], whose accessors let
//! validation, the file format, links and controls treat them uniformly;
//! their ranges, labels and defaults are in the settings registry
//! ([`crate::SETTINGS`]). The schedule of rounds is in the `schedule` module.

/// The harness's token budget and session length. All counts are tokens
/// except `trigger_percent`, `tail_turns` and `turns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Harness {
    /// The context window, `W`.
    pub window_tokens: u64,
    /// A round is due when the context exceeds this percent of the window (1..=100).
    pub trigger_percent: u32,
    /// The system prompt, `S` (may be 0).
    pub system_tokens: u64,
    /// The size of a turn without an entry in `turn_tokens`.
    pub tokens_per_turn: u64,
    /// How many newest turns a round keeps verbatim, `K`.
    pub tail_turns: u32,
    /// The size of the summary a round writes, `B`.
    pub summary_tokens: u64,
    /// The session length, `N`.
    pub turns: u32,
    /// A round is also due within this many tokens of the window (0: off).
    pub reserve_tokens: u64,
    /// The size of one user message, for a policy's user budget.
    pub user_message_tokens: u64,
}

impl Harness {
    /// The default `trigger_percent`.
    pub const DEFAULT_TRIGGER_PERCENT: u32 = 100;
    /// The default `user_message_tokens`.
    pub const DEFAULT_USER_MESSAGE_TOKENS: u64 = 200;

    /// This harness with `overrides` applied on top.
    #[must_use]
    pub fn with(&self, overrides: &HarnessOverrides) -> Harness {
        let mut out = *self;
        for field in HarnessField::ALL {
            if let Some(v) = field.overridden(overrides) {
                field.set(&mut out, v);
            }
        }
        out
    }

    /// The trigger threshold `W * T / 100` as the model uses it for pressure.
    pub fn trigger_threshold(&self) -> f64 {
        self.window_tokens as f64 * f64::from(self.trigger_percent) / 100.0
    }

    /// Whether a context of `size` tokens makes a round (or an overflow) due:
    /// above `trigger_percent` of the window, or within `reserve_tokens` of it.
    pub fn is_due(&self, size: u64) -> bool {
        let over_trigger = u128::from(size) * 100
            > u128::from(self.window_tokens) * u128::from(self.trigger_percent);
        let in_reserve = self.reserve_tokens > 0
            && u128::from(size) + u128::from(self.reserve_tokens) > u128::from(self.window_tokens);
        over_trigger || in_reserve
    }

    /// The largest context that is not yet due for a round: rounds are due
    /// above this many tokens.
    ///
    /// ```
    /// let mut h = drift_core::builtin("coding-day").unwrap().harness;
    /// h.window_tokens = 200_000;
    /// h.trigger_percent = 90;
    /// h.reserve_tokens = 0;
    /// assert_eq!(h.due_above(), 180_000);
    /// h.reserve_tokens = 33_000;
    /// assert_eq!(h.due_above(), 167_000);
    /// assert!(!h.is_due(h.due_above()) && h.is_due(h.due_above() + 1));
    /// ```
    pub fn due_above(&self) -> u64 {
        let trigger = u128::from(self.window_tokens) * u128::from(self.trigger_percent) / 100;
        let trigger = u64::try_from(trigger).unwrap_or(u64::MAX);
        if self.reserve_tokens > 0 {
            trigger.min(self.window_tokens.saturating_sub(self.reserve_tokens))
        } else {
            trigger
        }
    }
}

/// Harness fields a policy replaces; `None` keeps the scenario's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub struct HarnessOverrides {
    pub window_tokens: Option<u64>,
    pub trigger_percent: Option<u32>,
    pub system_tokens: Option<u64>,
    pub tokens_per_turn: Option<u64>,
    pub tail_turns: Option<u32>,
    pub summary_tokens: Option<u64>,
    pub turns: Option<u32>,
    pub reserve_tokens: Option<u64>,
    pub user_message_tokens: Option<u64>,
}

impl HarnessOverrides {
    /// Overrides nothing.
    pub const NONE: HarnessOverrides = HarnessOverrides {
        window_tokens: None,
        trigger_percent: None,
        system_tokens: None,
        tokens_per_turn: None,
        tail_turns: None,
        summary_tokens: None,
        turns: None,
        reserve_tokens: None,
        user_message_tokens: None,
    };

    /// `other`'s overrides on top of these.
    #[must_use]
    pub fn then(&self, other: &HarnessOverrides) -> HarnessOverrides {
        let mut out = *self;
        for field in HarnessField::ALL {
            if let Some(v) = field.overridden(other) {
                field.set_override(&mut out, Some(v));
            }
        }
        out
    }
}

/// Defines [`HarnessField`] and its accessors from one list: each variant,
/// the field it names in [`Harness`] and [`HarnessOverrides`], and the
/// field's type (`u64`, or `u32` for percents and turn counts).
macro_rules! harness_fields {
    ($($variant:ident => $field:ident: $ty:tt,)*) => {
        /// One field of [`Harness`] (and of [`HarnessOverrides`]), for code that
        /// treats them uniformly.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum HarnessField {
            $(
                #[doc = concat!("[`Harness::", stringify!($field), "`].")]
                $variant,
            )*
        }

        impl HarnessField {
            /// Every field, in the order of the scenario format.
            pub const ALL: [HarnessField; 9] = [$(HarnessField::$variant),*];

            /// The field's name in a scenario file's `harness` object.
            pub const fn name(self) -> &'static str {
                match self {
                    $(HarnessField::$variant => stringify!($field),)*
                }
            }

            /// The field's value in `h`.
            pub const fn get(self, h: &Harness) -> u64 {
                match self {
                    $(HarnessField::$variant => harness_fields!(@wide $ty, h.$field),)*
                }
            }

            /// Sets the field in `h`. A percent or turn count beyond `u32` is
            /// saturated (validation rejects it anyway).
            pub fn set(self, h: &mut Harness, v: u64) {
                match self {
                    $(HarnessField::$variant => h.$field = harness_fields!(@narrow $ty, v),)*
                }
            }

            /// The value `o` overrides the field with, if any.
            pub fn overridden(self, o: &HarnessOverrides) -> Option<u64> {
                match self {
                    $(HarnessField::$variant => o.$field.map(|v| harness_fields!(@wide $ty, v)),)*
                }
            }

            /// Sets (or with `None`, clears) the override of the field in `o`.
            pub fn set_override(self, o: &mut HarnessOverrides, v: Option<u64>) {
                match self {
                    $(HarnessField::$variant => {
                        o.$field = v.map(|v| harness_fields!(@narrow $ty, v));
                    })*
                }
            }
        }
    };
    (@wide u64, $v:expr) => {
        $v
    };
    (@wide u32, $v:expr) => {
        $v as u64
    };
    (@narrow u64, $v:expr) => {
        $v
    };
    (@narrow u32, $v:expr) => {
        u32::try_from($v).unwrap_or(u32::MAX)
    };
}

harness_fields! {
    WindowTokens => window_tokens: u64,
    TriggerPercent => trigger_percent: u32,
    SystemTokens => system_tokens: u64,
    TokensPerTurn => tokens_per_turn: u64,
    TailTurns => tail_turns: u32,
    SummaryTokens => summary_tokens: u64,
    Turns => turns: u32,
    ReserveTokens => reserve_tokens: u64,
    UserMessageTokens => user_message_tokens: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_back_what_it_sets() {
        let mut h = crate::builtin("payments-incident").unwrap().harness;
        let mut o = HarnessOverrides::NONE;
        for (i, field) in HarnessField::ALL.into_iter().enumerate() {
            let v = 7 + i as u64;
            field.set(&mut h, v);
            assert_eq!(field.get(&h), v, "{field:?}");
            field.set_override(&mut o, Some(v + 1));
            assert_eq!(field.overridden(&o), Some(v + 1), "{field:?}");
        }
        assert_eq!(h.with(&o), {
            let mut expect = h;
            for field in HarnessField::ALL {
                field.set(&mut expect, field.get(&h) + 1);
            }
            expect
        });
        let names: alloc::collections::BTreeSet<_> =
            HarnessField::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), 9);
    }

    #[test]
    fn later_overrides_win() {
        let a = HarnessOverrides {
            trigger_percent: Some(90),
            turns: Some(10),
            ..HarnessOverrides::NONE
        };
        let b = HarnessOverrides {
            trigger_percent: Some(80),
            ..HarnessOverrides::NONE
        };
        let both = a.then(&b);
        assert_eq!(both.trigger_percent, Some(80));
        assert_eq!(both.turns, Some(10));
        assert_eq!(both.window_tokens, None);
    }
}
