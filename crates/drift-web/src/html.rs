//! Text into HTML: the page renders some static reports as markup, and
//! every text in them (ids and texts come from files users import) is
//! escaped here.

use drift_core::Outcome;

/// The class of an outcome's badge in the page's stylesheet (the word is
/// always shown too: colour is never the only signal).
pub const fn outcome_class(o: Outcome) -> &'static str {
    match o {
        Outcome::Governed => "outcome governed",
        Outcome::WeaklyGoverned => "outcome weakly",
        Outcome::Ungoverned => "outcome ungoverned",
        Outcome::Misbound => "outcome misbound",
        Outcome::Refused => "outcome refused",
        Outcome::NotReached => "outcome not-reached",
    }
}

/// `text` with `& < > " '` escaped, safe in element content and in quoted
/// attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("a<b>&\"c\"'d'"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;"
        );
        assert_eq!(escape("plain · text"), "plain · text");
    }
}
