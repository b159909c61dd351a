//! The gateway's MCP server side: one JSON-RPC message in, one answer out,
//! whatever the transport (`http`, `stdio`).
//!
//! Both protocol eras are served. A request whose `params._meta` names
//! `io.modelcontextprotocol/protocolVersion` is a 2026-07-28 request (Basic
//! §Per-request protocol fields): no handshake, `server/discover` answers the
//! capabilities, results carry `resultType` and list results `ttlMs` and
//! `cacheScope` (Caching §Cacheable Results). Otherwise the 2025-11-25
//! lifecycle applies: `initialize`, then requests.
//!
//! `tools/call`, `prompts/get` and `resources/read` are the security boundary
//! (the lists are a courtesy): each is forwarded only for a name the caller's
//! audience exposes, with arguments that satisfy the pinned schema; anything
//! else is refused with a JSON-RPC error and never reaches an upstream. Each
//! decision is a structured event (`gatehouse::gateway::decision`) and a metric.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};

use super::catalog::Catalog;
use super::{Audience, Gateway};
use crate::discovery::{MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS, SessionError};

/// Items per page of the gateway's own lists.
pub const PAGE_SIZE: usize = 100;
/// `ttlMs` of the gateway's list results: clients may reuse a list this long
/// (changes are announced anyway).
const LIST_TTL_MS: u64 = 60_000;
/// Longest error text relayed from an upstream.
const MAX_RELAYED_MESSAGE: usize = 1024;

/// JSON-RPC error codes used here.
pub mod codes {
    /// The method does not exist.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid params (an unknown tool, arguments that fail the schema).
    pub const INVALID_PARAMS: i64 = -32602;
    /// An internal error (the upstream failed).
    pub const INTERNAL_ERROR: i64 = -32603;
    /// Not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// `UnsupportedProtocolVersionError` (2026-07-28, Basic §Error Codes).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// `_meta` key of the protocol version of a modern request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key naming the server in a modern result.
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Who is asking: a client's name (for logs) and the audience it sees.
#[derive(Clone)]
pub struct Caller {
    /// The name logged for the client.
    pub client: String,
    /// The audience.
    pub audience: Arc<Audience>,
}

/// A JSON-RPC error response to `id`.
pub fn error(id: Value, code: i64, message: impl Into<String>, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message.into()});
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The protocol era of a request: `Some(version)` for a 2026-07-28 one.
pub fn modern_version(message: &Value) -> Option<&str> {
    message
        .get("params")?
        .get("_meta")?
        .get(META_PROTOCOL_VERSION)?
        .as_str()
}

/// What the gateway declares (both eras): every list, each with `listChanged`.
pub fn capabilities() -> Value {
    json!({
        "tools": {"listChanged": true},
        "prompts": {"listChanged": true},
        "resources": {"listChanged": true},
    })
}

fn server_info() -> Value {
    json!({"name": "gatehouse-gateway", "title": "Gatehouse gateway", "version": env!("CARGO_PKG_VERSION")})
}

const INSTRUCTIONS: &str = "This endpoint exposes only the capabilities a Gatehouse registry approved for your audience, and only while they match what was approved.";

/// Answers one JSON-RPC message; `None` for a notification or a response
/// (nothing is sent back for those).
pub async fn handle(gateway: &Gateway, caller: &Caller, message: Value) -> Option<Value> {
    let Value::Object(object) = &message else {
        return Some(error(
            Value::Null,
            codes::INVALID_REQUEST,
            "not a JSON-RPC request object",
            None,
        ));
    };
    let Some(id) = object.get("id").cloned() else {
        return None; // a notification: `notifications/initialized`, `notifications/cancelled`, …
    };
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return Some(error(
            Value::Null,
            codes::INVALID_REQUEST,
            "the id must be a string or an integer",
            None,
        ));
    }
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        // A response to a request we never sent: ignored.
        return None;
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(error(id, codes::INVALID_REQUEST, "not JSON-RPC 2.0", None));
    }
    let params = object.get("params").cloned().unwrap_or(json!({}));
    if !params.is_object() {
        return Some(error(
            id,
            codes::INVALID_PARAMS,
            "params must be an object",
            None,
        ));
    }
    let modern = match modern_version(&message) {
        Some(version) if MODERN_PROTOCOL_VERSIONS.contains(&version) => Some(version.to_string()),
        Some(_) => {
            return Some(error(
                id,
                codes::UNSUPPORTED_PROTOCOL_VERSION,
                "unsupported protocol version",
                Some(json!({"supported": supported_versions()})),
            ));
        }
        None => None,
    };
    let answer = match method {
        "initialize" if modern.is_none() => Ok(initialize(&params)),
        "server/discover" => Ok(discover()),
        "ping" => Ok(json!({})),
        "tools/list" => list(&caller.audience.catalog(), Listing::Tools, &params),
        "prompts/list" => list(&caller.audience.catalog(), Listing::Prompts, &params),
        "resources/list" => list(&caller.audience.catalog(), Listing::Resources, &params),
        // Templates cannot be pinned by the allowlist format, so none is exposed.
        "resources/templates/list" => Ok(json!({"resourceTemplates": []})),
        "tools/call" => call_tool(gateway, caller, &params).await,
        "prompts/get" => get_prompt(gateway, caller, &params).await,
        "resources/read" => read_resource(gateway, caller, &params).await,
        "logging/setLevel" if modern.is_none() => Ok(json!({})),
        _ => Err(Refusal::new(
            codes::METHOD_NOT_FOUND,
            format!("method not found: {}", printable(method, 128)),
        )),
    };
    Some(match answer {
        Ok(mut value) => {
            if modern.is_some()
                && let Value::Object(map) = &mut value
            {
                map.entry("resultType").or_insert(json!("complete"));
                if method.ends_with("/list") {
                    map.insert("ttlMs".into(), json!(LIST_TTL_MS));
                    map.insert("cacheScope".into(), json!("private"));
                }
                let meta = map.entry("_meta").or_insert_with(|| json!({}));
                if let Value::Object(meta) = meta {
                    meta.insert(META_SERVER_INFO.into(), server_info());
                }
            }
            result(id, value)
        }
        Err(refusal) => error(id, refusal.code, refusal.message, refusal.data),
    })
}

/// Every protocol version the gateway speaks, newest first.
pub fn supported_versions() -> Vec<&'static str> {
    MODERN_PROTOCOL_VERSIONS
        .iter()
        .chain(SUPPORTED_PROTOCOL_VERSIONS)
        .copied()
        .collect()
}

/// A refused request.
struct Refusal {
    code: i64,
    message: String,
    data: Option<Value>,
}

impl Refusal {
    fn new(code: i64, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// `initialize` (2025-11-25, Lifecycle §Initialization): the client's version
/// when we speak it, else our newest of that era.
fn initialize(params: &Value) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = asked
        .filter(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(v))
        .unwrap_or(SUPPORTED_PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": capabilities(),
        "serverInfo": server_info(),
        "instructions": INSTRUCTIONS,
    })
}

/// `server/discover` (2026-07-28, server/discover §Data Types).
fn discover() -> Value {
    json!({
        "supportedVersions": supported_versions(),
        "capabilities": capabilities(),
        "instructions": INSTRUCTIONS,
        "ttlMs": LIST_TTL_MS,
        "cacheScope": "private",
    })
}

#[derive(Clone, Copy)]
enum Listing {
    Tools,
    Prompts,
    Resources,
}

impl Listing {
    fn key(self) -> &'static str {
        match self {
            Listing::Tools => "tools",
            Listing::Prompts => "prompts",
            Listing::Resources => "resources",
        }
    }
}

/// One page of a list; the cursor is opaque to clients (base64url of the list
/// and the offset) and checked when it comes back.
fn list(catalog: &Catalog, listing: Listing, params: &Value) -> Result<Value, Refusal> {
    let items: Vec<&Value> = match listing {
        Listing::Tools => catalog.tools.iter().map(|t| &t.definition).collect(),
        Listing::Prompts => catalog.prompts.iter().map(|p| &p.definition).collect(),
        Listing::Resources => catalog.resources.iter().map(|r| &r.definition).collect(),
    };
    let offset = match params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(Value::String(cursor)) => decode_cursor(listing.key(), cursor)
            .ok_or_else(|| Refusal::new(codes::INVALID_PARAMS, "invalid cursor"))?,
        Some(_) => return Err(Refusal::new(codes::INVALID_PARAMS, "invalid cursor")),
    };
    let page: Vec<Value> = items
        .iter()
        .skip(offset)
        .take(PAGE_SIZE)
        .map(|v| (*v).clone())
        .collect();
    let mut answer = Map::new();
    answer.insert(listing.key().into(), Value::Array(page));
    if offset + PAGE_SIZE < items.len() {
        answer.insert(
            "nextCursor".into(),
            json!(encode_cursor(listing.key(), offset + PAGE_SIZE)),
        );
    }
    Ok(Value::Object(answer))
}

fn encode_cursor(list: &str, offset: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("gh1:{list}:{offset}"))
}

fn decode_cursor(list: &str, cursor: &str) -> Option<usize> {
    if cursor.len() > 128 {
        return None;
    }
    let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let rest = text
        .strip_prefix("gh1:")?
        .strip_prefix(list)?
        .strip_prefix(':')?;
    rest.parse().ok()
}

/// Logs and counts one forwarding decision.
fn decide(
    gateway: &Gateway,
    caller: &Caller,
    method: &str,
    server: &str,
    name: &str,
    allowed: bool,
    reason: &str,
) {
    gateway.decisions.count(method, allowed, reason);
    tracing::info!(
        target: "gatehouse::gateway::decision",
        client = %caller.client,
        audience = %caller.audience.name,
        method,
        server,
        name = %printable(name, 256),
        allowed,
        reason,
        "call decision"
    );
}

/// Text from a client or an upstream, bounded and with control characters
/// escaped, for messages and logs.
fn printable(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

fn name_param<'a>(params: &'a Value, key: &str) -> Result<&'a str, Refusal> {
    params.get(key).and_then(Value::as_str).ok_or_else(|| {
        Refusal::new(
            codes::INVALID_PARAMS,
            format!("params.{key} must be a string"),
        )
    })
}

/// `tools/call`: only an exposed tool, only with arguments its pinned
/// `inputSchema` accepts.
async fn call_tool(gateway: &Gateway, caller: &Caller, params: &Value) -> Result<Value, Refusal> {
    const METHOD: &str = "tools/call";
    let name = name_param(params, "name")?;
    let catalog = caller.audience.catalog();
    let Some(tool) = catalog.tool(name) else {
        decide(gateway, caller, METHOD, "", name, false, "not_exposed");
        return Err(Refusal::new(
            codes::INVALID_PARAMS,
            format!("Unknown tool: {}", printable(name, 128)),
        ));
    };
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(value @ Value::Object(_)) => value.clone(),
        Some(_) => {
            decide(
                gateway,
                caller,
                METHOD,
                &tool.server,
                name,
                false,
                "invalid_arguments",
            );
            return Err(Refusal::new(
                codes::INVALID_PARAMS,
                "arguments must be an object",
            ));
        }
    };
    let Some(validator) = &tool.validator else {
        decide(
            gateway,
            caller,
            METHOD,
            &tool.server,
            name,
            false,
            "schema_unusable",
        );
        return Err(Refusal::new(
            codes::INVALID_PARAMS,
            "the approved inputSchema of this tool cannot be used to check arguments; the call is refused",
        ));
    };
    let problems: Vec<String> = validator
        .iter_errors(&arguments)
        .take(3)
        .map(|e| format!("{}: {}", e.instance_path(), printable(&e.to_string(), 200)))
        .collect();
    if !problems.is_empty() {
        decide(
            gateway,
            caller,
            METHOD,
            &tool.server,
            name,
            false,
            "invalid_arguments",
        );
        return Err(Refusal {
            code: codes::INVALID_PARAMS,
            message: format!(
                "Invalid arguments for tool {}: {}",
                printable(name, 128),
                problems.join("; ")
            ),
            data: None,
        });
    }
    let forwarded = json!({"name": tool.upstream_name, "arguments": arguments});
    forward(gateway, caller, METHOD, &tool.server, name, forwarded).await
}

/// `prompts/get`: only an exposed prompt, only with the arguments it
/// declared (strings), every required one present.
async fn get_prompt(gateway: &Gateway, caller: &Caller, params: &Value) -> Result<Value, Refusal> {
    const METHOD: &str = "prompts/get";
    let name = name_param(params, "name")?;
    let catalog = caller.audience.catalog();
    let Some(prompt) = catalog.prompt(name) else {
        decide(gateway, caller, METHOD, "", name, false, "not_exposed");
        return Err(Refusal::new(
            codes::INVALID_PARAMS,
            format!("Unknown prompt: {}", printable(name, 128)),
        ));
    };
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => Map::from_iter([("".to_string(), Value::Null)]),
    };
    let mut problems = Vec::new();
    for (key, value) in &arguments {
        if !prompt.arguments.iter().any(|(n, _)| n == key) {
            problems.push(format!("unknown argument {}", printable(key, 64)));
        } else if !value.is_string() {
            problems.push(format!("argument {} must be a string", printable(key, 64)));
        }
    }
    for (required, _) in prompt.arguments.iter().filter(|(_, r)| *r) {
        if !arguments.contains_key(required) {
            problems.push(format!(
                "missing required argument {}",
                printable(required, 64)
            ));
        }
    }
    if !problems.is_empty() {
        decide(
            gateway,
            caller,
            METHOD,
            &prompt.server,
            name,
            false,
            "invalid_arguments",
        );
        return Err(Refusal::new(
            codes::INVALID_PARAMS,
            format!(
                "Invalid arguments for prompt {}: {}",
                printable(name, 128),
                problems.join("; ")
            ),
        ));
    }
    let forwarded = json!({"name": prompt.upstream_name, "arguments": arguments});
    forward(gateway, caller, METHOD, &prompt.server, name, forwarded).await
}

/// `resources/read`: only an exposed resource's exact URI.
async fn read_resource(
    gateway: &Gateway,
    caller: &Caller,
    params: &Value,
) -> Result<Value, Refusal> {
    const METHOD: &str = "resources/read";
    let uri = name_param(params, "uri")?;
    let catalog = caller.audience.catalog();
    let Some(resource) = catalog.resource(uri) else {
        decide(gateway, caller, METHOD, "", uri, false, "not_exposed");
        // 2026-07-28 changed "resource not found" to Invalid Params (changelog, minor change 6).
        return Err(Refusal::new(
            codes::INVALID_PARAMS,
            format!("Resource not found: {}", printable(uri, 256)),
        ));
    };
    let forwarded = json!({"uri": resource.uri});
    forward(gateway, caller, METHOD, &resource.server, uri, forwarded).await
}

/// Sends an allowed request to its upstream and relays the answer.
async fn forward(
    gateway: &Gateway,
    caller: &Caller,
    method: &str,
    server: &str,
    name: &str,
    params: Value,
) -> Result<Value, Refusal> {
    let Some(upstream) = caller.audience.upstream(server).await else {
        decide(gateway, caller, method, server, name, false, "not_exposed");
        return Err(Refusal::new(
            codes::INVALID_PARAMS,
            format!("Unknown: {}", printable(name, 128)),
        ));
    };
    decide(gateway, caller, method, server, name, true, "exposed");
    match upstream.forward(method, params).await {
        Ok(mut answer) => {
            if let Value::Object(map) = &mut answer {
                // The upstream's own modern bookkeeping is not the gateway's answer.
                map.remove("resultType");
                map.remove("ttlMs");
                map.remove("cacheScope");
            }
            Ok(answer)
        }
        Err(SessionError::Rpc(e)) => {
            gateway.decisions.count(method, true, "upstream_error");
            Err(Refusal {
                code: e.code,
                message: printable(&e.message, MAX_RELAYED_MESSAGE),
                data: None,
            })
        }
        Err(SessionError::Failed(failure)) => {
            gateway.decisions.count(method, true, "upstream_failed");
            tracing::warn!(server, method, error = %failure.message, "forwarded request failed");
            Err(Refusal::new(
                codes::INTERNAL_ERROR,
                format!("the upstream server {server} failed to answer"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_names_its_list_and_only_that_list_accepts_it() {
        let cursor = encode_cursor("tools", 100);

        assert_eq!(decode_cursor("tools", &cursor), Some(100));
        assert_eq!(decode_cursor("prompts", &cursor), None);
        assert_eq!(decode_cursor("tools", "not-a-cursor"), None);
    }

    #[test]
    fn hostile_names_are_escaped_and_cut_in_messages() {
        let shown = printable("evil\u{1b}[8m\nname", 6);

        assert!(!shown.contains('\u{1b}'));
        assert!(shown.ends_with('…'));
    }
}
