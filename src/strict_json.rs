//! One meaning per JSON document: parsing that notices duplicate object keys.
//!
//! RFC 8259 §4 says member names "SHOULD be unique" and leaves the meaning of
//! a document with duplicates to each parser: some keep the first value, most
//! the last, some refuse. A document that means one thing to Gatehouse's
//! validator and another to a client's parser is an attack (issue 11: a
//! second `name` or `url` that the validator sees and a first-key reader does
//! not). So every JSON text Gatehouse takes from outside goes through
//! [`parse`], which builds the same [`Value`] as `serde_json` (the last value
//! wins) and reports the JSON Pointer (RFC 6901) of the first repeated key.
//! Callers decide: `POST /v0/publish` and the admin API refuse, the crawler
//! records an anomaly.
//!
//! Keys are compared after unescaping, so `"a"` and `"\u0061"` are the same key,
//! as they are to every parser.
//!
//! This module is a leaf like `snapshot`: `discovery` and `registry` both use it.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Longest pointer reported; a hostile document can have keys of any length.
const MAX_POINTER: usize = 300;

/// A parsed document and the first duplicate key found in it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The document as `serde_json` would build it (for a repeated key, the last value).
    pub value: Value,
    /// JSON Pointer of the first repeated member (`/remotes/0/url`), bounded in length.
    pub duplicate: Option<String>,
}

/// Parses one JSON text (trailing whitespace only), noting the first duplicate key.
pub fn parse(bytes: &[u8]) -> Result<Parsed, serde_json::Error> {
    let mut path = Vec::new();
    let mut duplicate = None;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Walk {
        path: &mut path,
        duplicate: &mut duplicate,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(Parsed { value, duplicate })
}

/// The JSON Pointer of the first duplicate key of a valid JSON text; `None`
/// when every key is unique or the text is not JSON (the caller's own parse reports that).
pub fn first_duplicate(bytes: &[u8]) -> Option<String> {
    parse(bytes).ok().and_then(|p| p.duplicate)
}

/// RFC 6901 pointer of `path`, cut at [`MAX_POINTER`] bytes on a character boundary.
fn pointer(path: &[String]) -> String {
    let mut out = String::new();
    for token in path {
        out.push('/');
        out.push_str(&token.replace('~', "~0").replace('/', "~1"));
        if out.len() > MAX_POINTER {
            let mut cut = MAX_POINTER;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
            break;
        }
    }
    out
}

/// A value being parsed at `path`.
struct Walk<'a> {
    path: &'a mut Vec<String>,
    duplicate: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            self.path.push(items.len().to_string());
            let next = seq.next_element_seed(Walk {
                path: &mut *self.path,
                duplicate: &mut *self.duplicate,
            });
            self.path.pop();
            match next? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            self.path.push(key.clone());
            if !seen.insert(key.clone()) && self.duplicate.is_none() {
                *self.duplicate = Some(pointer(self.path));
            }
            let value = map.next_value_seed(Walk {
                path: &mut *self.path,
                duplicate: &mut *self.duplicate,
            });
            self.path.pop();
            object.insert(key, value?);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_with_unique_keys_parses_as_serde_json_would() {
        let text = br#"{"a": [1, -2, 3.5, "x", null, true], "b": {"c": {}}}"#;
        let parsed = parse(text).unwrap();
        assert_eq!(parsed.value, serde_json::from_slice::<Value>(text).unwrap());
        assert_eq!(parsed.duplicate, None);
    }

    #[test]
    fn the_first_duplicate_is_named_by_its_pointer() {
        let text = br#"{"name": "a", "remotes": [{"url": "x", "url": "y"}], "name": "b"}"#;
        let parsed = parse(text).unwrap();
        assert_eq!(parsed.duplicate.as_deref(), Some("/remotes/0/url"));
        // The value is the one most parsers build: the last wins.
        assert_eq!(parsed.value["name"], "b");
    }

    #[test]
    fn escaped_keys_are_the_same_key_and_pointers_escape_slashes() {
        assert_eq!(
            first_duplicate(br#"{"a": 1, "\u0061": 2}"#).as_deref(),
            Some("/a")
        );
        assert_eq!(
            first_duplicate(br#"{"x": {"a/b~": 1, "a/b~": 2}}"#).as_deref(),
            Some("/x/a~1b~0")
        );
    }

    #[test]
    fn long_pointers_are_bounded_and_invalid_json_is_an_error() {
        let key = "k".repeat(5000);
        let text = format!(r#"{{"{key}": 1, "{key}": 2}}"#);
        let pointer = first_duplicate(text.as_bytes()).unwrap();
        assert!(pointer.len() <= MAX_POINTER + 3);
        assert!(parse(b"{\"a\": 1} trailing").is_err());
        assert!(parse(b"{\"a\": ").is_err());
    }
}
