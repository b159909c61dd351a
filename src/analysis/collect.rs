//! One pass over a Snapshot that yields every string a client could put
//! before a model, with the capability it belongs to and its field path
//! (DESIGN.md §6 `field`): instructions, serverInfo, names, titles,
//! descriptions, every string and property name inside `inputSchema` and
//! `outputSchema`, annotations, prompt arguments and resource URIs.

use serde_json::Value;

use crate::snapshot::{Snapshot, Target, TargetKind};

/// What kind of string a field holds; rules pick the kinds they apply to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// A capability's or argument's name.
    Name,
    /// Prose: descriptions, titles, instructions, schema strings, annotations.
    Prose,
    /// A property name inside a schema.
    SchemaKey,
    /// A URI or URI template.
    Uri,
}

/// One string of the snapshot.
#[derive(Debug, Clone)]
pub struct TextField<'a> {
    /// The capability it belongs to.
    pub target: Target,
    /// Path inside the capability (`description`, `inputSchema.properties.x.description`).
    pub field: String,
    /// The string itself, exactly as sent.
    pub text: &'a str,
    /// What kind of string it is.
    pub kind: FieldKind,
}

/// Deepest schema nesting walked; deeper content is not analysed (the crawl
/// bounds nesting too, this keeps an offline snapshot from recursing forever).
const MAX_DEPTH: usize = 64;

/// Schema keys whose values are not shown to a model (icons are data URIs).
const SKIPPED_KEYS: &[&str] = &["icons"];

/// Collects every text field of a snapshot.
pub fn collect(snapshot: &Snapshot) -> Vec<TextField<'_>> {
    let mut out = Vec::new();
    let server = Target::server();
    if let Some(instructions) = &snapshot.instructions {
        push(
            &mut out,
            &server,
            "instructions".into(),
            instructions,
            FieldKind::Prose,
        );
    }
    if let Some(info) = &snapshot.server_info {
        push(
            &mut out,
            &server,
            "serverInfo.name".into(),
            &info.name,
            FieldKind::Name,
        );
        if let Some(t) = &info.title {
            push(
                &mut out,
                &server,
                "serverInfo.title".into(),
                t,
                FieldKind::Prose,
            );
        }
        for (k, v) in &info.extra {
            if !SKIPPED_KEYS.contains(&k.as_str()) {
                walk(
                    &mut out,
                    &server,
                    &key_path("serverInfo", k),
                    v,
                    FieldKind::Prose,
                    0,
                );
            }
        }
    }
    for tool in &snapshot.tools {
        let t = Target::new(TargetKind::Tool, &tool.name);
        push(&mut out, &t, "name".into(), &tool.name, FieldKind::Name);
        opt(&mut out, &t, "title", tool.title.as_deref());
        opt(&mut out, &t, "description", tool.description.as_deref());
        for (key, schema) in [
            ("inputSchema", &tool.input_schema),
            ("outputSchema", &tool.output_schema),
        ] {
            if let Some(s) = schema {
                walk(&mut out, &t, key, s, FieldKind::Prose, 0);
            }
        }
        if let Some(a) = &tool.annotations {
            walk(&mut out, &t, "annotations", a, FieldKind::Prose, 0);
        }
    }
    for r in &snapshot.resources {
        let t = Target::new(TargetKind::Resource, &r.name);
        push(&mut out, &t, "uri".into(), &r.uri, FieldKind::Uri);
        push(&mut out, &t, "name".into(), &r.name, FieldKind::Name);
        opt(&mut out, &t, "title", r.title.as_deref());
        opt(&mut out, &t, "description", r.description.as_deref());
    }
    for r in &snapshot.resource_templates {
        let t = Target::new(TargetKind::ResourceTemplate, &r.name);
        push(
            &mut out,
            &t,
            "uriTemplate".into(),
            &r.uri_template,
            FieldKind::Uri,
        );
        push(&mut out, &t, "name".into(), &r.name, FieldKind::Name);
        opt(&mut out, &t, "title", r.title.as_deref());
        opt(&mut out, &t, "description", r.description.as_deref());
    }
    for p in &snapshot.prompts {
        let t = Target::new(TargetKind::Prompt, &p.name);
        push(&mut out, &t, "name".into(), &p.name, FieldKind::Name);
        opt(&mut out, &t, "title", p.title.as_deref());
        opt(&mut out, &t, "description", p.description.as_deref());
        for (i, a) in p.arguments.iter().flatten().enumerate() {
            push(
                &mut out,
                &t,
                format!("arguments[{i}].name"),
                &a.name,
                FieldKind::Name,
            );
            if let Some(title) = &a.title {
                push(
                    &mut out,
                    &t,
                    format!("arguments[{i}].title"),
                    title,
                    FieldKind::Prose,
                );
            }
            if let Some(d) = &a.description {
                push(
                    &mut out,
                    &t,
                    format!("arguments[{i}].description"),
                    d,
                    FieldKind::Prose,
                );
            }
        }
    }
    out
}

fn push<'a>(
    out: &mut Vec<TextField<'a>>,
    target: &Target,
    field: String,
    text: &'a str,
    kind: FieldKind,
) {
    if !text.is_empty() {
        out.push(TextField {
            target: target.clone(),
            field,
            text,
            kind,
        });
    }
}

fn opt<'a>(out: &mut Vec<TextField<'a>>, target: &Target, field: &str, text: Option<&'a str>) {
    if let Some(t) = text {
        push(out, target, field.into(), t, FieldKind::Prose);
    }
}

/// Appends an object key to a path: `a.b` for identifier-like keys, else
/// `a["key with spaces"]` (JSON-escaped) so that every path is unambiguous.
pub fn key_path(path: &str, key: &str) -> String {
    let simple = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '$'));
    if simple {
        format!("{path}.{key}")
    } else {
        format!("{path}[{}]", Value::String(key.to_string()))
    }
}

/// Walks a JSON value, collecting every string and every object key.
fn walk<'a>(
    out: &mut Vec<TextField<'a>>,
    target: &Target,
    path: &str,
    v: &'a Value,
    kind: FieldKind,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::String(s) => push(out, target, path.to_string(), s, kind),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(out, target, &format!("{path}[{i}]"), item, kind, depth + 1);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                if SKIPPED_KEYS.contains(&k.as_str()) {
                    continue;
                }
                let p = key_path(path, k);
                // Property names are chosen by the server and shown to the
                // model as argument names, so they are analysed too.
                if is_property_map(path) {
                    push(out, target, p.clone(), k, FieldKind::SchemaKey);
                }
                walk(out, target, &p, item, kind, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether the object at `path` maps names to schemas (`properties` and friends).
fn is_property_map(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    path.len() > last.len()
        && [
            "properties",
            "patternProperties",
            "$defs",
            "definitions",
            "dependentSchemas",
        ]
        .contains(&last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_string_and_property_name_is_collected_with_its_path() {
        let snap: Snapshot = serde_json::from_value(serde_json::json!({
            "tools": [{"name": "t", "description": "d", "inputSchema": {
                "type": "object",
                "$comment": "c",
                "properties": {"notes": {"type": "string", "description": "n", "default": "x",
                    "enum": ["e1"], "examples": ["ex"]}}}}]
        }))
        .unwrap();
        let fields: Vec<String> = collect(&snap)
            .into_iter()
            .map(|f| format!("{}={}", f.field, f.text))
            .collect();
        for want in [
            "name=t",
            "description=d",
            "inputSchema.$comment=c",
            "inputSchema.properties.notes=notes",
            "inputSchema.properties.notes.description=n",
            "inputSchema.properties.notes.default=x",
            "inputSchema.properties.notes.enum[0]=e1",
            "inputSchema.properties.notes.examples[0]=ex",
        ] {
            assert!(
                fields.contains(&want.to_string()),
                "missing {want} in {fields:?}"
            );
        }
    }

    #[test]
    fn odd_keys_are_quoted_in_paths() {
        assert_eq!(key_path("a", "b c"), "a[\"b c\"]");
        assert_eq!(key_path("a", "b_c"), "a.b_c");
    }

    #[test]
    fn prompt_arguments_and_resource_uris_are_collected() {
        let snap: Snapshot = serde_json::from_value(serde_json::json!({
            "prompts": [{"name": "p", "arguments": [{"name": "a", "description": "ad"}]}],
            "resources": [{"uri": "file:///x", "name": "r"}],
            "instructions": "i"
        }))
        .unwrap();
        let fields: Vec<String> = collect(&snap).into_iter().map(|f| f.field).collect();
        assert!(fields.contains(&"arguments[0].description".to_string()));
        assert!(fields.contains(&"uri".to_string()));
        assert!(fields.contains(&"instructions".to_string()));
    }
}
