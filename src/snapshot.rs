//! The Snapshot contract (docs/DESIGN.md §6): what one crawl of one MCP server yields.
//!
//! These are plain data types shared by `discovery` (which produces them) and
//! `analysis` (which reads them). Field names are exactly the MCP result
//! fields; anything a server sends that we do not model is kept in `extra`, so
//! a Snapshot round-trips without loss.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Everything a server declared in one crawl.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// The negotiated protocol version: the one a modern server accepted on
    /// `server/discover`, or the one an older server answered `initialize` with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// `supportedVersions` from `server/discover` (modern servers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supported_versions: Option<Vec<String>>,
    /// `serverInfo` from the `initialize` result, or a modern server's
    /// `_meta["io.modelcontextprotocol/serverInfo"]` from `server/discover`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_info: Option<Implementation>,
    /// `capabilities` from the `initialize` result, verbatim.
    #[serde(default)]
    pub capabilities: Map<String, Value>,
    /// `instructions` from the `initialize` result: text a host may put in the model's context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Every tool of every `tools/list` page, in order.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Every resource of every `resources/list` page, in order.
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// Every template of every `resources/templates/list` page, in order.
    #[serde(default)]
    pub resource_templates: Vec<ResourceTemplate>,
    /// Every prompt of every `prompts/list` page, in order.
    #[serde(default)]
    pub prompts: Vec<Prompt>,
    /// How the crawl went; absent in an offline snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl: Option<CrawlInfo>,
    /// Unknown top-level fields, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `Implementation` in the MCP schema (`serverInfo`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    /// Programmatic name of the server.
    #[serde(default)]
    pub name: String,
    /// The server's own version string.
    #[serde(default)]
    pub version: String,
    /// Human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Unknown fields (`websiteUrl`, `icons`, …), kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tool as listed by `tools/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The tool's name, exactly as sent.
    #[serde(default)]
    pub name: String,
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description shown to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// JSON Schema of structured results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints (`readOnlyHint`, `destructiveHint`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
    /// Protocol-reserved metadata.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
    /// Unknown fields, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A resource as listed by `resources/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource URI.
    #[serde(default)]
    pub uri: String,
    /// Programmatic name.
    #[serde(default)]
    pub name: String,
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description shown to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type of the content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Unknown fields (`size`, `annotations`, `_meta`, …), kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A resource template as listed by `resources/templates/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// RFC 6570 URI template.
    #[serde(default)]
    pub uri_template: String,
    /// Programmatic name.
    #[serde(default)]
    pub name: String,
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description shown to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type of the content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Unknown fields, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A prompt as listed by `prompts/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// Programmatic name.
    #[serde(default)]
    pub name: String,
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description shown to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Arguments the prompt accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Unknown fields, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One argument of a prompt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptArgument {
    /// Argument name.
    #[serde(default)]
    pub name: String,
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description shown to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the argument must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Unknown fields, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// How a crawl went: transport, era, pages per list, duration and anomalies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrawlInfo {
    /// `streamable-http` or `sse`.
    #[serde(default)]
    pub transport: String,
    /// `modern` (revision 2026-07-28 and later: `server/discover`, per-request
    /// `_meta`) or `legacy` (the `initialize` handshake); empty in snapshots
    /// made before eras existed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub era: String,
    /// The caching hints (`ttlMs`, `cacheScope`) of each list and of
    /// `server/discover` (key `discover`), as a modern server sent them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cache: BTreeMap<String, CacheHint>,
    /// How the crawl was authorised, when the server asked for OAuth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<AuthInfo>,
    /// Pages fetched per list (`tools`, `resources`, `resourceTemplates`, `prompts`).
    #[serde(default)]
    pub pages: BTreeMap<String, u32>,
    /// Wall time of the whole crawl.
    #[serde(default)]
    pub duration_ms: u64,
    /// Anomalies and bounds hit, in the order they happened.
    #[serde(default)]
    pub errors: Vec<CrawlError>,
    /// Declared lists (`tools`, `resources`, `resourceTemplates`, `prompts`)
    /// that could not be read to their last page. A crawl that leaves one
    /// unread has failed: what was not read was not scanned, so `gatehouse
    /// scan` exits 2 and the registry marks the version `scan_failed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<String>,
    /// For a package server (`transport` `stdio`): what was installed and
    /// how it ran in the sandbox. An additive field of the contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<PackageInfo>,
}

/// What the package sandbox installed and ran (`crawl.package`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageInfo {
    /// `npm` or `pypi`.
    pub registry_type: String,
    /// The package name.
    pub identifier: String,
    /// The version server.json asked for.
    pub version: String,
    /// The version the registry delivered.
    #[serde(default)]
    pub resolved_version: String,
    /// The registry's integrity hash of the package (npm `sha512-…`, PyPI `sha256=…`).
    #[serde(default)]
    pub integrity: String,
    /// How many other packages were installed with it.
    #[serde(default)]
    pub dependencies: u64,
    /// How long the install took (near zero when it came from the cache).
    #[serde(default)]
    pub install_ms: u64,
    /// Whether the install came from the cache.
    #[serde(default)]
    pub cached: bool,
    /// How long the sandboxed crawl took, start to kill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl_ms: Option<u64>,
}

/// The caching hints of one cacheable result (MCP 2026-07-28, Caching §Cacheable Model).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheHint {
    /// The smallest `ttlMs` over the list's pages: how long the whole list may be
    /// considered fresh. Absent when no page carried a valid one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// `public` or `private`, as the first page said (every page must agree).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<String>,
}

/// The OAuth side of a crawl: what the server asked for and who issued the token.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthInfo {
    /// The scopes the server's challenge or its protected resource metadata named.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The authorisation server's issuer identifier, when a token was obtained.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
}

/// One anomaly recorded during a crawl; the analysis turns each into a `protocol` finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrawlError {
    /// Stable machine code, one of [`crawl_codes`].
    pub code: String,
    /// What happened, for people.
    pub message: String,
    /// The capability concerned, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
}

/// Stable values of [`CrawlError::code`].
pub mod crawl_codes {
    /// The server could not be reached or the transport failed.
    pub const TRANSPORT: &str = "transport";
    /// `initialize` failed or never answered.
    pub const INITIALIZE: &str = "initialize";
    /// The server answered with a protocol version we do not support.
    pub const PROTOCOL_VERSION: &str = "protocol_version";
    /// A declared category's list request failed.
    pub const LIST_FAILED: &str = "list_failed";
    /// A list works although its category was not declared.
    pub const UNDECLARED_LIST: &str = "undeclared_list";
    /// An item is not valid per the MCP schema (and was dropped).
    pub const INVALID_ITEM: &str = "invalid_item";
    /// Two items of one list share a name (or URI).
    pub const DUPLICATE_NAME: &str = "duplicate_name";
    /// A name outside the specification's character set.
    pub const INVALID_NAME: &str = "invalid_name";
    /// A crawl bound was hit (timeout, deadline, bytes, pages, items, cursor, depth).
    pub const BOUND: &str = "bound";
    /// A response that is not valid JSON-RPC.
    pub const INVALID_RESPONSE: &str = "invalid_response";
    /// A result whose `resultType` is not `complete` where only a complete
    /// result makes sense (a list); an absent one counts as `complete`.
    pub const RESULT_TYPE: &str = "result_type";
    /// Invalid caching hints (`ttlMs`, `cacheScope`) on a modern result; absent
    /// ones are not recorded (the specification gives clients a default).
    pub const CACHE_HINT: &str = "cache_hint";
    /// An icon whose `src` is not an `https:` or `data:` URI (it is dropped).
    pub const INVALID_ICON: &str = "invalid_icon";
    /// The server asked for OAuth and no token could be obtained.
    pub const AUTH: &str = "auth";
    /// A message repeats a key inside one object, so parsers disagree on what it says.
    pub const DUPLICATE_KEY: &str = "duplicate_key";
    /// `gatehouse call` only (never in a crawl's snapshot): the server answered
    /// `tools/call` with an error status or a JSON-RPC error, or declared no tools.
    pub const CALL_FAILED: &str = "call_failed";
}

/// Which capability a finding or anomaly is about (docs/DESIGN.md §6 `target`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Target {
    /// `server`, `tool`, `resource`, `resource_template` or `prompt`.
    pub kind: TargetKind,
    /// The capability's name exactly as the server sent it; empty for `server`.
    pub name: String,
}

impl Target {
    /// The server as a whole.
    pub fn server() -> Self {
        Target {
            kind: TargetKind::Server,
            name: String::new(),
        }
    }
    /// A capability of the given kind and name.
    pub fn new(kind: TargetKind, name: impl Into<String>) -> Self {
        Target {
            kind,
            name: name.into(),
        }
    }
}

/// The kinds of capability a target can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// The server itself (instructions, serverInfo, crawl).
    Server,
    /// A tool.
    Tool,
    /// A resource.
    Resource,
    /// A resource template.
    ResourceTemplate,
    /// A prompt.
    Prompt,
}

impl TargetKind {
    /// The wire name (`resource_template`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            TargetKind::Server => "server",
            TargetKind::Tool => "tool",
            TargetKind::Resource => "resource",
            TargetKind::ResourceTemplate => "resource_template",
            TargetKind::Prompt => "prompt",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_round_trips_unknown_fields() {
        let raw = serde_json::json!({
            "protocolVersion": "2025-06-18",
            "serverInfo": {"name": "s", "version": "1", "websiteUrl": "https://x"},
            "capabilities": {"tools": {"listChanged": true}},
            "tools": [{"name": "t", "inputSchema": {"type": "object"}, "icons": []}],
            "resources": [{"uri": "file:///a", "name": "a", "size": 3}],
            "resourceTemplates": [{"uriTemplate": "file:///{p}", "name": "p"}],
            "prompts": [{"name": "p", "arguments": [{"name": "x", "required": true}]}],
            "vendor": 1
        });
        let snap: Snapshot = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(snap.tools[0].extra["icons"], serde_json::json!([]));
        assert_eq!(serde_json::to_value(&snap).unwrap(), raw);
    }
}
