//! Schema rules: `inputSchema` and `outputSchema` must be valid JSON Schema
//! (checked against their meta-schema with the `jsonschema` crate), of type
//! `object` (MCP requires it), and list in `required` only names they define.

use serde_json::Value;

use super::{Sink, default_severity};
use crate::analysis::FastMap;
use crate::analysis::catalogue::ids;
use crate::analysis::normalize::{evidence_window, visible};
use crate::snapshot::{Snapshot, Target, TargetKind};

/// Longest error text quoted from the validator.
const MAX_ERROR_CHARS: usize = 300;

/// Checks every tool's schemas.
pub fn check(sink: &mut Sink<'_>, snapshot: &Snapshot) {
    let mut validity = Validity::default();
    for tool in &snapshot.tools {
        let t = Target::new(TargetKind::Tool, &tool.name);
        match &tool.input_schema {
            None => sink.add(
                ids::SCH_NOT_OBJECT,
                default_severity(ids::SCH_NOT_OBJECT),
                &t,
                "inputSchema",
                "Tool has no inputSchema (MCP requires one)".into(),
                String::new(),
            ),
            Some(s) => one_schema(sink, &mut validity, &t, "inputSchema", s),
        }
        if let Some(s) = &tool.output_schema {
            one_schema(sink, &mut validity, &t, "outputSchema", s);
        }
    }
}

fn one_schema(
    sink: &mut Sink<'_>,
    validity: &mut Validity,
    t: &Target,
    field: &str,
    schema: &Value,
) {
    let Some(obj) = schema.as_object() else {
        sink.add(
            ids::SCH_NOT_OBJECT,
            default_severity(ids::SCH_NOT_OBJECT),
            t,
            field,
            "Schema is not a JSON object".into(),
            short(schema),
        );
        return;
    };
    let is_object = match obj.get("type") {
        Some(Value::String(s)) => s == "object",
        Some(Value::Array(a)) => a.iter().any(|x| x == "object"),
        _ => false,
    };
    if !is_object {
        sink.add(
            ids::SCH_NOT_OBJECT,
            default_severity(ids::SCH_NOT_OBJECT),
            t,
            &format!("{field}.type"),
            "Schema is not of type object (MCP requires it)".into(),
            short(obj.get("type").unwrap_or(&Value::Null)),
        );
    }
    // `is_valid` is the fast path; the error text is built only for invalid schemas.
    if validity.of(schema) {
        // Nothing to report.
    } else if let Err(e) = jsonschema::meta::validate(schema) {
        let text = format!("{e} at {}", e.instance_path());
        sink.add(
            ids::SCH_INVALID,
            default_severity(ids::SCH_INVALID),
            t,
            field,
            "Schema is not valid JSON Schema".into(),
            evidence_window(&text, 0..text.len().min(MAX_ERROR_CHARS)),
        );
    }
    if let Some(required) = obj.get("required").and_then(Value::as_array) {
        let props = obj.get("properties").and_then(Value::as_object);
        let missing: Vec<&str> = required
            .iter()
            .filter_map(Value::as_str)
            .filter(|r| props.is_none_or(|p| !p.contains_key(*r)))
            .collect();
        if !missing.is_empty() {
            sink.add(
                ids::SCH_REQUIRED,
                default_severity(ids::SCH_REQUIRED),
                t,
                &format!("{field}.required"),
                format!(
                    "{} required names are not defined in properties",
                    missing.len()
                ),
                visible(&missing.join(", ")),
            );
        }
    }
}

/// Meta-schema validity of the schemas of one snapshot, remembered by shape.
///
/// A server's tools repeat schema shapes — the same keywords and types,
/// different words — and meta-validation walks every keyword. Two schemas
/// that differ only in the text of annotations (`description`, `title`,
/// `$comment`) and of data (`default`, `examples`, `enum`, `const` values)
/// are equally valid: the meta-schemas of drafts 6 to 2020-12 ask those to
/// be strings, or arrays, and nothing of their content. So the validity
/// of such a shape is computed once. The shape is only taken where each
/// object's role (schema, or map of names to schemas) is known from the
/// keyword it sits under; anything else is hashed whole.
#[derive(Default)]
struct Validity {
    keys: ahash::RandomState,
    known: FastMap<u64, bool>,
}

impl Validity {
    fn of(&mut self, schema: &Value) -> bool {
        let key = shape_key(schema, &self.keys);
        if let Some(valid) = key.and_then(|k| self.known.get(&k)) {
            return *valid;
        }
        let valid = jsonschema::meta::validator_for(schema).is_ok_and(|v| v.is_valid(schema));
        if let Some(k) = key {
            self.known.insert(k, valid);
        }
        valid
    }
}

/// Dialects whose meta-schemas leave annotation and data content free (the
/// default, 2020-12, applies without `$schema`). Draft 4 (unique `enum`
/// items) and any other dialect are validated whole.
const SHAPED_DIALECTS: &[&str] = &[
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2020-12/schema",
];

/// Keywords whose value is one schema (or, for `items` and `dependencies`
/// in older drafts, an array of schemas or of names).
const SCHEMA_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords whose value is an array of schemas.
const SCHEMA_ARRAY_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to schemas.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Annotations whose string content the meta-schemas do not constrain.
const FREE_TEXT: &[&str] = &["description", "title", "$comment"];
/// Data keywords whose content the meta-schemas do not constrain.
const FREE_DATA: &[&str] = &["default", "examples", "enum", "const"];

/// Deepest nesting shaped; deeper schemas are validated whole.
const MAX_SHAPE_DEPTH: usize = 64;

/// The shape hash of `schema`, or `None` when it must be validated whole.
fn shape_key(schema: &Value, keys: &ahash::RandomState) -> Option<u64> {
    use std::hash::{BuildHasher, Hasher};
    if let Some(dialect) = schema.get("$schema") {
        let known = dialect
            .as_str()
            .is_some_and(|d| SHAPED_DIALECTS.contains(&d.strip_suffix('#').unwrap_or(d)));
        if !known {
            return None;
        }
    }
    let mut h = keys.build_hasher();
    shape_schema(schema, &mut h, 0)?;
    Some(h.finish())
}

/// Hashes a value in schema position.
fn shape_schema(v: &Value, h: &mut impl std::hash::Hasher, depth: usize) -> Option<()> {
    use std::hash::Hash;
    if depth > MAX_SHAPE_DEPTH {
        return None;
    }
    let Value::Object(map) = v else {
        return shape_whole(v, h, depth);
    };
    h.write_u8(b'{');
    h.write_usize(map.len());
    for (k, x) in map {
        k.hash(h);
        let k = k.as_str();
        if k == "$schema" && depth > 0 {
            // An embedded dialect switch: leave it to the validator.
            return None;
        }
        if FREE_TEXT.contains(&k) && x.is_string() {
            h.write_u8(b't');
        } else if FREE_DATA.contains(&k) {
            // Only the JSON type of the value can matter.
            h.write_u8(b'd');
            h.write_u8(type_tag(x));
        } else if let (true, Value::Array(items)) = (
            SCHEMA_KEYWORDS.contains(&k) || SCHEMA_ARRAY_KEYWORDS.contains(&k),
            x,
        ) {
            h.write_u8(b'[');
            h.write_usize(items.len());
            for item in items {
                shape_schema(item, h, depth + 1)?;
            }
        } else if SCHEMA_KEYWORDS.contains(&k) {
            shape_schema(x, h, depth + 1)?;
        } else if SCHEMA_MAP_KEYWORDS.contains(&k) {
            match x {
                Value::Object(members) => {
                    h.write_u8(b'<');
                    h.write_usize(members.len());
                    for (name, member) in members {
                        name.hash(h);
                        shape_schema(member, h, depth + 1)?;
                    }
                }
                _ => shape_whole(x, h, depth + 1)?,
            }
        } else {
            shape_whole(x, h, depth + 1)?;
        }
    }
    Some(())
}

/// Hashes a value whole (content and structure); `None` if it holds a
/// dialect switch, which the shape must not hide.
fn shape_whole(v: &Value, h: &mut impl std::hash::Hasher, depth: usize) -> Option<()> {
    use std::hash::Hash;
    if depth > MAX_SHAPE_DEPTH {
        return None;
    }
    h.write_u8(type_tag(v));
    match v {
        Value::Null => {}
        Value::Bool(b) => b.hash(h),
        Value::Number(n) => n.to_string().hash(h),
        Value::String(s) => s.hash(h),
        Value::Array(items) => {
            h.write_usize(items.len());
            for item in items {
                shape_whole(item, h, depth + 1)?;
            }
        }
        Value::Object(map) => {
            h.write_usize(map.len());
            for (k, x) in map {
                if k == "$schema" {
                    return None;
                }
                k.hash(h);
                shape_whole(x, h, depth + 1)?;
            }
        }
    }
    Some(())
}

fn type_tag(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

/// A short, visible rendering of a JSON value for evidence.
fn short(v: &Value) -> String {
    let s = v.to_string();
    evidence_window(&s, 0..s.len().min(MAX_ERROR_CHARS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(v: Value) -> Option<u64> {
        // One hasher for the whole test, as within one analysis.
        static KEYS: std::sync::LazyLock<ahash::RandomState> =
            std::sync::LazyLock::new(ahash::RandomState::new);
        shape_key(&v, &KEYS)
    }

    #[test]
    fn schemas_that_differ_only_in_text_share_a_shape() {
        let a = json!({"type": "object", "description": "Find issues", "properties": {
            "state": {"type": "string", "description": "Issue state", "enum": ["open", "closed"], "default": "open"}}});
        let b = json!({"type": "object", "description": "List files", "properties": {
            "state": {"type": "string", "description": "Which ones", "enum": ["all"], "default": "all"}}});
        assert!(key(a.clone()).is_some());
        assert_eq!(key(a), key(b));
    }

    #[test]
    fn anything_a_meta_schema_checks_changes_the_shape() {
        let base = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        for other in [
            json!({"type": "object", "properties": {"a": {"type": "strin"}}}),
            json!({"type": "object", "properties": {"b": {"type": "string"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}}),
            // The enum value must still be an array.
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "enum": "x"}),
        ] {
            assert_ne!(key(base.clone()), key(other.clone()), "{other}");
        }
        // A property *named* description is a schema, not an annotation.
        let named = |t: &str| json!({"type": "object", "properties": {"description": {"type": t}}});
        assert_ne!(key(named("string")), key(named("strin")));
    }

    #[test]
    fn other_dialects_are_validated_whole() {
        assert!(
            key(json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}))
                .is_none()
        );
        assert!(key(json!({"$schema": "https://example.com/custom", "type": "object"})).is_none());
        assert!(key(json!({"type": "object", "properties": {"a": {"$schema": "x"}}})).is_none());
        assert!(
            key(json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}))
                .is_some()
        );
    }

    #[test]
    fn remembered_validity_matches_the_validator() {
        let mut validity = Validity::default();
        let schemas = [
            json!({"type": "object", "properties": {"a": {"type": "string", "description": "one"}}}),
            json!({"type": "object", "properties": {"a": {"type": 5, "description": "one"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "description": "two"}}}),
            json!({"type": "object", "properties": {"a": {"type": 5, "description": "two"}}}),
        ];
        for s in &schemas {
            let direct = jsonschema::meta::is_valid(s);
            assert_eq!(validity.of(s), direct, "{s}");
        }
        assert_eq!(validity.known.len(), 2);
    }
}
