//! JSON-RPC 2.0 framing: building requests, parsing hostile bytes, picking our response.
//!
//! Parsing starts with a byte scan for nesting depth: serde_json's own
//! recursion limit (128) is a stack guard, not our bound, and a 100,000-deep
//! document should be refused in one linear pass before any tree is built.

use serde_json::{Value, json};

use super::http::{Fault, Meter};

/// A request object for `method` with `params` (omitted when `None`).
pub(crate) fn request(id: u64, method: &str, params: Option<Value>) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(params) = params {
        message["params"] = params;
    }
    message
}

/// A notification object (no `id`, so no answer).
pub(crate) fn notification(method: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method})
}

/// What a byte scan learns about a JSON text before it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Nesting went deeper than the bound (the scan stopped there).
    pub too_deep: bool,
    /// About how many values parsing would build: containers, elements and members.
    pub values: u64,
}

/// Scans `bytes` for nesting depth and value count, stopping early past `max_depth`.
///
/// Brackets, commas and colons inside strings do not count; escapes are
/// honoured so `"\""` does not end a string early. Invalid JSON is left for the
/// parser to reject.
pub(crate) fn shape(bytes: &[u8], max_depth: usize) -> Shape {
    let mut depth = 0usize;
    let mut values = 1u64;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                values += 1;
                depth += 1;
                if depth > max_depth {
                    return Shape {
                        too_deep: true,
                        values,
                    };
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' | b':' => values += 1,
            _ => {}
        }
    }
    Shape {
        too_deep: false,
        values,
    }
}

/// Parses one message, refusing documents nested deeper than `max_depth` and
/// counting its values against the crawl's budget before anything is built.
///
/// A message with a repeated object key still parses (the last value wins, as
/// in most clients), but the key's JSON Pointer is pushed onto `duplicates`:
/// another client may read the first value, so the reviewer must be told.
pub(crate) fn parse(
    bytes: &[u8],
    max_depth: usize,
    meter: &mut Meter,
    duplicates: &mut Vec<String>,
) -> Result<Value, Fault> {
    let shape = shape(bytes, max_depth);
    if shape.too_deep {
        return Err(Fault::Bound(format!(
            "JSON nested deeper than {max_depth} levels"
        )));
    }
    meter.take_values(shape.values)?;
    let parsed = crate::strict_json::parse(bytes)
        .map_err(|e| Fault::Invalid(format!("not valid JSON: {e}")))?;
    duplicates.extend(parsed.duplicate);
    Ok(parsed.value)
}

/// The JSON-RPC error object of an error-status body, whatever its `id` (a
/// server that rejects a request before reading it answers with `id: null`).
pub(crate) fn error_of(message: Value) -> Option<Fault> {
    let error = message.get("error")?;
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return None;
    }
    let code = error.get("code").and_then(Value::as_i64)?;
    let text = error.get("message").and_then(Value::as_str).unwrap_or("");
    Some(Fault::Rpc {
        code,
        message: text.to_string(),
        data: error.get("data").cloned(),
    })
}

/// Finds the answer to request `id` in a message (an object or a batch array).
///
/// `None` when the message is something else (a notification, a server
/// request, another id), which on an SSE stream is simply skipped.
pub(crate) fn answer_to(message: Value, id: u64) -> Option<Result<Value, Fault>> {
    match message {
        Value::Array(batch) => batch.into_iter().find_map(|m| answer_to(m, id)),
        Value::Object(mut object) => {
            if object.get("id").and_then(Value::as_u64) != Some(id) || object.contains_key("method")
            {
                return None;
            }
            if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
                return Some(Err(Fault::Invalid(
                    "the response is not JSON-RPC 2.0".into(),
                )));
            }
            if let Some(error) = object.remove("error") {
                let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let data = error.get("data").cloned();
                return Some(Err(Fault::Rpc {
                    code,
                    message,
                    data,
                }));
            }
            match object.remove("result") {
                Some(result @ Value::Object(_)) => Some(Ok(result)),
                Some(_) => Some(Err(Fault::Invalid("the result is not an object".into()))),
                None => Some(Err(Fault::Invalid(
                    "the response has neither result nor error".into(),
                ))),
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_thousand_deep_document_is_refused_before_parsing() {
        let deep = "[".repeat(100_000);
        let result = parse(deep.as_bytes(), 64, &mut roomy_meter(), &mut Vec::new());
        assert!(matches!(result, Err(Fault::Bound(_))));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_as_depth() {
        let text = r#"{"a": "[[[[[[\"[[[[", "b": [[1]]}"#;
        assert!(!shape(text.as_bytes(), 3).too_deep);
        assert!(shape(text.as_bytes(), 2).too_deep);
    }

    fn roomy_meter() -> Meter {
        Meter {
            used: 0,
            max_crawl: u64::MAX,
            max_message: u64::MAX,
            values: 0,
            max_values: u64::MAX,
        }
    }

    #[test]
    fn a_duplicate_key_is_reported_and_the_last_value_kept() {
        let text =
            br#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "name": "b"}]}}"#;
        let mut duplicates = Vec::new();
        let message = parse(text, 64, &mut roomy_meter(), &mut duplicates).unwrap();
        assert_eq!(duplicates, vec!["/result/tools/0/name".to_string()]);
        assert_eq!(message["result"]["tools"][0]["name"], "b");
    }

    #[test]
    fn values_are_counted_outside_strings_only() {
        let text = r#"{"a": [1, 2, {"b": "x,y:z"}], "c": null}"#;
        // One for the document, one per bracket opened, comma and colon: an
        // over-estimate of the values built, never an under-estimate.
        assert_eq!(shape(text.as_bytes(), 64).values, 10);
    }

    #[test]
    fn a_wide_array_over_the_value_budget_is_refused_before_parsing() {
        let wide = format!("[{}0]", "0,".repeat(1000));
        let mut meter = Meter {
            max_values: 500,
            ..roomy_meter()
        };
        assert!(matches!(
            parse(wide.as_bytes(), 64, &mut meter, &mut Vec::new()),
            Err(Fault::Bound(_))
        ));
    }

    #[test]
    fn the_answer_is_found_in_a_batch_and_others_are_skipped() {
        let batch = json!([
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {}},
            {"jsonrpc": "2.0", "id": 7, "result": {"tools": []}}
        ]);
        assert_eq!(answer_to(batch, 7).unwrap().unwrap(), json!({"tools": []}));
        let other = json!({"jsonrpc": "2.0", "id": 8, "result": {}});
        assert!(answer_to(other, 7).is_none());
    }

    #[test]
    fn an_error_answer_becomes_an_rpc_fault() {
        let error =
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "nope"}});
        assert_eq!(
            answer_to(error, 1).unwrap(),
            Err(Fault::Rpc {
                code: -32601,
                message: "nope".into(),
                data: None,
            })
        );
    }
}
