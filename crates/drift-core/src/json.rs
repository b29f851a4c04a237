//! A JSON document as the scenario reader walks it: what a
//! `serde_json::Value` holds (the same strings, numbers and nesting, a
//! repeated key's last value), built in one pass of serde_json's parser with
//! strings borrowed from the text wherever they have no escapes, and each
//! object one vector in the file's order. A scenario of thousands of facts
//! reads in a fraction of the time and memory a `Value` takes to build and
//! drop: no `String` per key, no tree per object.
//!
//! Only the order of an object's keys differs from a `Value`'s (which sorts
//! them), and with it which of two mistakes a reader meets first; so the
//! scenario reader reads a document that fails from a `Value`
//! ([`Json::from_value`]) to name the same mistake as ever.

use alloc::borrow::{Cow, ToOwned};
use alloc::vec::Vec;

use serde_json::{Map, Number, Value};

/// One JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    /// A whole number of 0 or more.
    Unsigned(u64),
    /// A negative whole number.
    Negative(i64),
    /// Any other number (always finite).
    Float(f64),
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// In the file's order (a `Value`'s key order when read from one); a
    /// repeated key's last value is the one that counts.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

impl<'a> Json<'a> {
    /// The document `text` holds (serde_json's parser and its errors).
    #[cfg(all(test, feature = "streamed-read"))]
    pub(crate) fn parse(text: &'a str) -> Result<Json<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// `value`, viewed the same way.
    pub(crate) fn from_value(value: &'a Value) -> Json<'a> {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => Json::Unsigned(u),
                (None, Some(i)) => Json::Negative(i),
                _ => n.as_f64().map_or(Json::Null, Json::Float),
            },
            Value::String(s) => Json::Str(Cow::Borrowed(s)),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            // In a `Map`'s order: by key, each key once.
            Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// As a `serde_json::Value` (for messages that quote what a file said).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Unsigned(u) => Value::Number(Number::from(*u)),
            Json::Negative(i) => Value::Number(Number::from(*i)),
            Json::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.as_ref().to_owned()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(entries) => {
                // Inserted one by one (a repeated key's last value stays):
                // collecting would sort, and cost the pages a sort's code.
                let mut map = Map::new();
                for (k, v) in entries {
                    map.insert(k.as_ref().to_owned(), v.to_value());
                }
                Value::Object(map)
            }
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Unsigned(u) => Some(*u),
            _ => None,
        }
    }

    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Unsigned(u) => Some(*u as f64),
            Json::Negative(i) => Some(*i as f64),
            Json::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// An object's entries, in order (see [`Json::Object`]).
    pub(crate) fn as_object(&self) -> Option<&[(Cow<'a, str>, Json<'a>)]> {
        match self {
            Json::Object(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value of `key` in an object, its last if repeated (`None` for
    /// anything else).
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        get(self.as_object()?, key)
    }
}

/// The value of `key` among an object's `entries`, its last if repeated.
pub(crate) fn get<'v, 'a>(
    entries: &'v [(Cow<'a, str>, Json<'a>)],
    key: &str,
) -> Option<&'v Json<'a>> {
    entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Building a [`Json`] straight from serde_json's parser, for the scenario
/// reader's one-pass reading (feature `streamed-read`).
#[cfg(feature = "streamed-read")]
mod de {
    use super::*;
    use alloc::string::String;
    use core::fmt;
    use serde::Deserialize;
    use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

    impl<'de> Deserialize<'de> for Json<'de> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_any(JsonVisitor)
        }
    }

    struct JsonVisitor;

    impl<'de> Visitor<'de> for JsonVisitor {
        type Value = Json<'de>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any valid JSON value")
        }

        fn visit_bool<E>(self, v: bool) -> Result<Json<'de>, E> {
            Ok(Json::Bool(v))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Json<'de>, E> {
            Ok(match u64::try_from(v) {
                Ok(u) => Json::Unsigned(u),
                Err(_) => Json::Negative(v),
            })
        }

        fn visit_u64<E>(self, v: u64) -> Result<Json<'de>, E> {
            Ok(Json::Unsigned(v))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Json<'de>, E> {
            Ok(if v.is_finite() {
                Json::Float(v)
            } else {
                Json::Null
            })
        }

        fn visit_str<E>(self, v: &str) -> Result<Json<'de>, E> {
            Ok(Json::Str(Cow::Owned(v.to_owned())))
        }

        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Json<'de>, E> {
            Ok(Json::Str(Cow::Borrowed(v)))
        }

        fn visit_string<E>(self, v: String) -> Result<Json<'de>, E> {
            Ok(Json::Str(Cow::Owned(v)))
        }

        fn visit_none<E>(self) -> Result<Json<'de>, E> {
            Ok(Json::Null)
        }

        fn visit_unit<E>(self) -> Result<Json<'de>, E> {
            Ok(Json::Null)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
            Json::deserialize(d)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(Json::Array(items))
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
            let mut entries: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
            while let Some(key) = map.next_key_seed(Key)? {
                let value = map.next_value()?;
                entries.push((key, value));
            }
            Ok(Json::Object(entries))
        }
    }

    /// An object key, borrowed from the text when it has no escapes (a seed
    /// for `MapAccess::next_key_seed`).
    pub(crate) struct Key;

    impl<'de> DeserializeSeed<'de> for Key {
        type Value = Cow<'de, str>;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl<'de> Visitor<'de> for Key {
        type Value = Cow<'de, str>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string key")
        }

        fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Owned(v.to_owned()))
        }

        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Borrowed(v))
        }

        fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Owned(v))
        }
    }
}

#[cfg(feature = "streamed-read")]
pub(crate) use de::Key;

#[cfg(all(test, feature = "streamed-read"))]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    /// Every way a file can say something, read both ways.
    const SAMPLES: &[&str] = &[
        r#"{"b": 1, "a": [true, false, null], "c": {"z": -3, "y": 2.5, "x": "q\"uote"}}"#,
        r#"{"k": 1, "k": 2, "j": {"k": "first", "k": "last"}}"#,
        r#"[0, -0, 1e3, 18446744073709551615, -9223372036854775808, 0.1, 1.0, 1e-300]"#,
        r#""plain""#,
        r#""esc\u00e9aped""#,
        r#"{"\u0066ormat": "x", "format": "y"}"#,
        "null",
        "[]",
        "{}",
    ];

    #[test]
    fn reads_what_a_value_reads() {
        for text in SAMPLES {
            let value: Value = serde_json::from_str(text).unwrap();
            let json = Json::parse(text).unwrap();
            assert_eq!(json.to_value(), value, "{text}");
            assert_eq!(json.to_value().to_string(), value.to_string(), "{text}");
            assert_eq!(Json::from_value(&value).to_value(), value, "{text}");
        }
    }

    #[test]
    fn keeps_the_last_of_a_repeated_key_and_finds_keys() {
        let text = r#"{"k": 1, "a": 0, "k": 2}"#;
        let json = Json::parse(text).unwrap();
        assert_eq!(json.get("k"), Some(&Json::Unsigned(2)));
        assert_eq!(json.get("a"), Some(&Json::Unsigned(0)));
        assert_eq!(json.get("b"), None);
        let keys = |json: &Json<'_>| -> Vec<String> {
            let entries = json.as_object().unwrap();
            entries.iter().map(|(k, _)| k.to_string()).collect()
        };
        assert_eq!(keys(&json), ["k", "a", "k"]);
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(keys(&Json::from_value(&value)), ["a", "k"]);
        assert_eq!(Json::from_value(&value).get("k"), Some(&Json::Unsigned(2)));
        assert!(matches!(
            Json::parse(r#"{"plain": "x"}"#)
                .unwrap()
                .as_object()
                .unwrap()[0]
                .0,
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn fails_where_a_value_fails_with_the_same_message() {
        for text in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "1e999",
            "tru",
            "[1] 2",
            "\"\\x\"",
        ] {
            let value = serde_json::from_str::<Value>(text).unwrap_err();
            let json = Json::parse(text).unwrap_err();
            assert_eq!(json.to_string(), value.to_string(), "{text}");
        }
    }
}
