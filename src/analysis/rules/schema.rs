//! Schema rules: `inputSchema` and `outputSchema` must be valid JSON Schema
//! (checked against their meta-schema with the `jsonschema` crate), of type
//! `object` (MCP requires it), and list in `required` only names they define.

use serde_json::Value;

use super::{Sink, default_severity};
use crate::analysis::catalogue::ids;
use crate::analysis::normalize::{evidence_window, visible};
use crate::snapshot::{Snapshot, Target, TargetKind};

/// Longest error text quoted from the validator.
const MAX_ERROR_CHARS: usize = 300;

/// Checks every tool's schemas.
pub fn check(sink: &mut Sink<'_>, snapshot: &Snapshot) {
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
            Some(s) => one_schema(sink, &t, "inputSchema", s),
        }
        if let Some(s) = &tool.output_schema {
            one_schema(sink, &t, "outputSchema", s);
        }
    }
}

fn one_schema(sink: &mut Sink<'_>, t: &Target, field: &str, schema: &Value) {
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
    let valid = jsonschema::meta::validator_for(schema).is_ok_and(|v| v.is_valid(schema));
    if valid {
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

/// A short, visible rendering of a JSON value for evidence.
fn short(v: &Value) -> String {
    let s = v.to_string();
    evidence_window(&s, 0..s.len().min(MAX_ERROR_CHARS))
}
