//! RFC 8785 JSON Canonicalization Scheme (JCS), written straight from
//! `serde_json` values into a buffer.
//!
//! Pins are JCS; the general `serde_json_canonicalizer` re-parses every object
//! key to sort it, which made pinning 200,000 tools take seconds. This writer
//! does the same job for the only inputs pins have (JSON values and a few
//! known top-level fields) and is checked against that crate in the tests.
//!
//! The rules (RFC 8785 §3.2): no whitespace; strings with the minimal JSON
//! escapes (`\"`, `\\`, `\b \f \n \r \t`, other controls as lowercase
//! `\u00xx`; everything else literal); numbers as ECMAScript prints doubles;
//! object members sorted by the UTF-16 code units of their names.

use std::cmp::Ordering;
use std::io::{self, Write};

use serde_json::{Number, Value};

/// One member value of an object being written.
pub enum Member<'a> {
    /// A JSON string.
    Str(&'a str),
    /// Any JSON value.
    Json(&'a Value),
}

/// Writes `value` in canonical form.
pub fn write_value(out: &mut Vec<u8>, value: &Value) -> io::Result<()> {
    match value {
        Value::Null => out.write_all(b"null"),
        Value::Bool(true) => out.write_all(b"true"),
        Value::Bool(false) => out.write_all(b"false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, item)?;
            }
            out.push(b']');
            Ok(())
        }
        Value::Object(map) => {
            let mut members: Vec<(&str, Member<'_>)> = map
                .iter()
                .map(|(k, v)| (k.as_str(), Member::Json(v)))
                .collect();
            write_object(out, &mut members)
        }
    }
}

/// Writes an object from its members, sorting them first.
pub fn write_object(out: &mut Vec<u8>, members: &mut [(&str, Member<'_>)]) -> io::Result<()> {
    members.sort_by(|a, b| utf16_order(a.0, b.0));
    out.push(b'{');
    for (i, (name, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(out, name)?;
        out.push(b':');
        match value {
            Member::Str(s) => write_string(out, s)?,
            Member::Json(v) => write_value(out, v)?,
        }
    }
    out.push(b'}');
    Ok(())
}

/// RFC 8785 §3.2.3: member names compare as arrays of UTF-16 code units.
/// UTF-8 byte order agrees except between U+E000–U+FFFF and astral
/// characters, so the cheap comparison decides unless both are non-ASCII.
fn utf16_order(a: &str, b: &str) -> Ordering {
    if a.is_ascii() || b.is_ascii() {
        a.as_bytes().cmp(b.as_bytes())
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}

/// RFC 8785 §3.2.2.2: JSON's minimal escapes, which are exactly `serde_json`'s.
fn write_string(out: &mut Vec<u8>, s: &str) -> io::Result<()> {
    serde_json::to_writer(out, s).map_err(io::Error::other)
}

/// RFC 8785 §3.2.2.3: numbers as ECMAScript `Number.prototype.toString` prints
/// the IEEE 754 double. Integers up to 2^53 are exact doubles and print as
/// their digits; anything else goes through the double.
fn write_number(out: &mut Vec<u8>, n: &Number) -> io::Result<()> {
    const EXACT: u64 = 1 << 53;
    if let Some(u) = n.as_u64().filter(|u| *u <= EXACT) {
        return write!(out, "{u}");
    }
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        return write!(out, "{i}");
    }
    // Without serde_json's `arbitrary_precision` every number has an f64 form.
    let f = n.as_f64().unwrap_or(f64::NAN);
    if !f.is_finite() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "JSON numbers are finite",
        ));
    }
    out.write_all(ryu_js::Buffer::new().format_finite(f).as_bytes())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn canonical(value: &Value) -> String {
        let mut out = Vec::new();
        write_value(&mut out, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn output_matches_the_reference_canonicalizer() {
        let samples = [
            json!({"b": [1, 2.5, -0.0, 1e21, 1e-7, 123456789012345680000.0], "a": null, "c": true}),
            json!({"\u{e000}": 1, "\u{10000}": 2, "é": 3, "z": 4, "A": 5, "": 6}),
            json!({"s": "quote\" backslash\\ nl\n tab\t ctl\u{1f} del\u{7f} ls\u{2028} emoji😀 é"}),
            json!([
                9007199254740993u64,
                -9007199254740993i64,
                18446744073709551615u64,
                0,
                -1
            ]),
            json!({"nested": {"y": {"b": 1, "a": [{"d": 1, "c": 2}]}, "x": []}}),
            serde_json::from_str(r#"{"n": 1.0, "m": 0.1, "k": 100e-2, "big": 1E+30}"#).unwrap(),
        ];
        for sample in samples {
            let reference = serde_json_canonicalizer::to_string(&sample).unwrap();

            assert_eq!(canonical(&sample), reference, "for {sample}");
        }
    }

    #[test]
    fn the_rfc_8785_number_examples_are_written_as_specified() {
        // RFC 8785 appendix B, a selection of IEEE 754 doubles.
        let cases = [
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (4.5, "4.5"),
            (-0.0, "0"),
        ];
        for (value, expected) in cases {
            assert_eq!(canonical(&json!(value)), expected);
        }
    }
}
