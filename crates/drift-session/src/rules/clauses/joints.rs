//! Where a sentence may be cut into clauses: a comma or an "and" that opens
//! a clause of its own (a modal, a subject and a verb ahead), read on the
//! bytes of the text.

pub(super) fn at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

/// The ASCII word (letters and apostrophes) starting at `i`, lowercased
/// into `buf`, and where it ends.
pub(super) fn word_at<'b>(
    bytes: &[u8],
    i: usize,
    end: usize,
    buf: &'b mut [u8; 16],
) -> (&'b str, usize) {
    let mut j = i;
    let mut n = 0;
    while j < end {
        let b = at(bytes, j);
        if !(b.is_ascii_alphabetic() || b == b'\'') {
            break;
        }
        if let Some(slot) = buf.get_mut(n) {
            *slot = b.to_ascii_lowercase();
            n += 1;
        }
        j += 1;
    }
    let w = buf
        .get(..n)
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or("");
    (w, j)
}

/// What may follow ", " to start a new clause.
pub(super) fn clause_after_comma(bytes: &[u8], i: usize, end: usize) -> bool {
    let mut b1 = [0u8; 16];
    let (w1, e1) = word_at(bytes, i, end, &mut b1);
    let mut b2 = [0u8; 16];
    let (w2, e2) = word_at(bytes, e1 + 1, end, &mut b2);
    let mut b3 = [0u8; 16];
    let (w3, _) = word_at(bytes, e2 + 1, end, &mut b3);
    let digit = |k: usize| at(bytes, k).is_ascii_digit() || at(bytes, k) == b'$';
    match w1 {
        "never" | "always" | "don't" | "dont" | "it's" | "they're" | "that's" => true,
        // "deploys only after 18:00, max 3 pods at once".
        "max" | "maximum" => digit(e1 + 1) || (w2 == "of" && digit(e2 + 1)),
        "at" if w2 == "most" => digit(e2 + 1),
        "up" if w2 == "to" => digit(e2 + 1),
        "it" | "they" => matches!(w2, "is" | "are"),
        "do" => w2 == "not",
        "no" => {
            !w2.is_empty()
                && !matches!(
                    w2,
                    "problem" | "worries" | "idea" | "exceptions" | "exception" | "matter"
                )
        }
        "and" | "but" | "or" => match w2 {
            "never" | "always" | "don't" | "no" | "only" | "leave" | "keep" => true,
            "do" => w3 == "not",
            "i" | "you" | "we" => matches!(
                w3,
                "should" | "must" | "need" | "may" | "can't" | "cannot" | "have" | "shouldn't"
            ),
            // "…the offline eval first, and NDCG@10 must not drop": a new
            // subject with a modal of its own.
            _ => w1 == "and" && modal_ahead(bytes, e1 + 1, end),
        },
        _ => false,
    }
}

/// Modals and rule words that give a clause after ", and" a subject of its
/// own ("…, and NDCG must not drop", "…, and tenant acme is excluded").
pub(super) const MODALS: &[&str] = &[
    "can't",
    "cannot",
    "excluded",
    "exempt",
    "forbidden",
    "must",
    "mustn't",
    "never",
    "prohibited",
    "shall",
    "should",
    "shouldn't",
    "won't",
];

/// Whether a modal comes within the next few words from `i`, before any
/// punctuation: ", and NDCG@10 must not drop …".
pub(super) fn modal_ahead(bytes: &[u8], i: usize, end: usize) -> bool {
    let mut k = i;
    for n in 0..5 {
        while k < end && at(bytes, k) == b' ' {
            k += 1;
        }
        let start = k;
        while k < end && !matches!(at(bytes, k), b' ' | b',' | b';' | b':' | b'.') {
            k += 1;
        }
        let mut buf = [0u8; 16];
        let (w, e) = word_at(bytes, start, k, &mut buf);
        if n > 0 && e == k && super::super::words::in_table(MODALS, w) {
            return true;
        }
        if matches!(at(bytes, k), b',' | b';' | b':' | b'.') || start == k {
            return false;
        }
    }
    false
}

/// What may follow " and " or " but " to start a new clause.
pub(super) fn clause_after_and(bytes: &[u8], i: usize, end: usize) -> bool {
    let mut b1 = [0u8; 16];
    let (w1, e1) = word_at(bytes, i, end, &mut b1);
    let mut b2 = [0u8; 16];
    let (w2, _) = word_at(bytes, e1 + 1, end, &mut b2);
    match w1 {
        "never" | "always" | "don't" | "leave" | "keep" | "avoid" => true,
        "do" => w2 == "not",
        "make" => w2 == "sure",
        "wait" | "that" | "to" => true,
        _ => false,
    }
}
