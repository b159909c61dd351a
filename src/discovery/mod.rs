//! MCP client: transports, lifecycle, pagination, bounds and SSRF guard → Snapshot.
//!
//! [`crawl`] connects to one remote MCP server as a client, works out which
//! protocol era it speaks (MCP 2026-07-28, Versioning §Backward Compatibility
//! with Initialization-Based Versions: a `server/discover` probe first, the
//! `initialize` handshake of 2025-11-25 and earlier as the fallback), lists
//! every category the server declared, page by page, and returns what it found
//! as a [`Snapshot`] (DESIGN.md §6, §8). It never calls a tool, reads a
//! resource or gets a prompt. [`call_tool`] is the one exception, and a
//! separate entry point: it calls the one tool its caller names (`gatehouse
//! call`, the gateway), over the same transports, eras, policy, bounds and
//! credentials as a crawl. A server behind OAuth is crawled with a token
//! from the client-credentials grant when [`CrawlOptions::oauth`] is set
//! (`oauth.rs`). [`crawl_stdio`] does the same with a server started as a
//! child process, over stdio (`stdio.rs`), and [`crawl_prepared`] with a
//! command its caller prepared (the package sandbox's `bwrap`), whose whole
//! process group is killed at the end. [`fetch_document`] (`document.rs`)
//! fetches one small document from an origin under the same network policy
//! (the Server Card and challenge of remote-URL ownership).
//!
//! # Why not rmcp's client
//!
//! The official Rust SDK `rmcp` is used for the fixture *servers* in the test
//! suite, not here. Its client transports (rmcp 3.x) run on reqwest 0.13 with
//! their own connection set-up and read message bodies and SSE streams whole,
//! so they can enforce neither the SSRF check on the connected address
//! (including redirects) nor the per-message and per-crawl byte bounds while
//! reading, nor the JSON depth bound before parsing. Those are the point of a
//! scanner that talks to hostile servers, and the client side of the protocol
//! we need is small (initialize, one notification, four list methods, and
//! `tools/call` for [`call_tool`]), so it is
//! written here: `http.rs` (guarded client, byte meter), `sse.rs` (bounded
//! SSE parser), `jsonrpc.rs` (framing, depth check), `transport.rs` (Streamable
//! HTTP and legacy HTTP+SSE), `crawler.rs` (lifecycle, pagination, validation).
//!
//! # `Err` versus `Ok` with recorded errors
//!
//! [`crawl`] returns `Err(CrawlFailure)` only when nothing usable was learnt:
//! the URL or the network policy refused the connection, the server could not
//! be reached, or `initialize` did not produce a result (error status, timeout,
//! bound, invalid answer). The job queue retries those, except when
//! [`CrawlFailure::retryable`] is false (the URL, a header or the network
//! policy refused the crawl: the same request would be refused again). As soon as an
//! `initialize` result is in hand the answer is `Ok(snapshot)`: an unsupported
//! protocol version, a failing list or a bound hit mid-crawl is recorded in
//! `snapshot.crawl.errors` (codes from [`crate::snapshot::crawl_codes`]) and
//! everything collected so far is kept, for the analysis to report as
//! `protocol` findings.

mod client_assertion;
mod crawler;
mod document;
mod http;
mod jsonrpc;
mod oauth;
mod policy;
mod sse;
mod stdio;
mod transport;

use std::time::Duration;

pub use client_assertion::key_algorithm;
pub use document::{Document, fetch_document};
pub use policy::{Cidr, NetPolicy};

use crate::snapshot::Snapshot;

/// Which transport to speak.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TransportChoice {
    /// Streamable HTTP, falling back to HTTP+SSE when `initialize` gets a 4xx
    /// (the specification's backwards-compatibility procedure).
    #[default]
    Auto,
    /// Streamable HTTP only.
    StreamableHttp,
    /// Legacy HTTP+SSE only.
    Sse,
}

impl TransportChoice {
    /// The `--transport` spelling: `auto`, `streamable-http` or `sse`.
    pub fn as_str(self) -> &'static str {
        match self {
            TransportChoice::Auto => "auto",
            TransportChoice::StreamableHttp => "streamable-http",
            TransportChoice::Sse => "sse",
        }
    }
}

/// Which protocol era to speak (MCP 2026-07-28, Versioning §Terminology).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EraChoice {
    /// Probe with `server/discover`; fall back to `initialize` for older servers.
    #[default]
    Auto,
    /// Only the modern revision: no `initialize` fallback.
    Modern,
    /// Only the `initialize` handshake (no probe).
    Legacy,
}

/// How the scanner authenticates to an authorisation server's token endpoint
/// (RFC 6749 §2.3, RFC 7523 §2.2 for `private_key_jwt`).
#[derive(Clone, PartialEq, Eq)]
pub enum ClientAuth {
    /// A client secret, sent as `client_secret_basic` or `client_secret_post`
    /// as the authorisation server's metadata allows.
    Secret(String),
    /// A PKCS#8 PEM private key signing a `private_key_jwt` client assertion.
    PrivateKey(String),
}

/// OAuth client credentials for one server (`client_credentials` grant).
#[derive(Clone, PartialEq, Eq)]
pub struct OAuthCredentials {
    /// The client id registered with the authorisation server.
    pub client_id: String,
    /// The secret or key that authenticates it.
    pub auth: ClientAuth,
    /// The issuer these credentials belong to, when known: they are never sent
    /// to another authorisation server (2026-07-28, Authorization, credentials
    /// are bound to the issuer that issued them).
    pub issuer: Option<String>,
}

impl std::fmt::Debug for OAuthCredentials {
    // The secret or key never reaches a log line, even through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.auth {
            ClientAuth::Secret(_) => "secret",
            ClientAuth::PrivateKey(_) => "private key",
        };
        f.debug_struct("OAuthCredentials")
            .field("client_id", &self.client_id)
            .field("auth", &format_args!("<{kind} redacted>"))
            .field("issuer", &self.issuer)
            .finish()
    }
}

/// The bounds of one crawl; hitting any of them ends the crawl with a recorded `bound` error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlLimits {
    /// Longest wait for one complete answer, body included (default 10 s).
    pub request_timeout: Duration,
    /// Longest whole crawl, from the first connection to the last list (default 60 s).
    pub deadline: Duration,
    /// Largest JSON-RPC message: one body, or one SSE event (default 4 MiB).
    pub max_message_bytes: u64,
    /// Most bytes read from the server in the whole crawl (default 32 MiB).
    pub max_crawl_bytes: u64,
    /// Most pages fetched for one list (default 200).
    pub max_pages: u32,
    /// Most items kept for one list (default 10,000).
    pub max_items: usize,
    /// Deepest JSON nesting accepted (default 64).
    pub max_depth: usize,
    /// Most JSON values (containers, elements, members) parsed in the whole
    /// crawl (default 1,000,000). The byte bounds alone do not bound memory:
    /// `0,` is two bytes on the wire and a 32-byte value once parsed, so 32 MiB
    /// of small values would take hundreds of megabytes. At some 50 to 100 bytes
    /// a parsed value this keeps a crawl's JSON under about 100 MB, while a
    /// 10,000-tool server needs well under half of it.
    pub max_json_values: u64,
    /// Most HTTP redirects followed per request (default 3).
    pub max_redirects: usize,
}

impl Default for CrawlLimits {
    fn default() -> Self {
        CrawlLimits {
            request_timeout: Duration::from_secs(10),
            deadline: Duration::from_secs(60),
            max_message_bytes: 4 << 20,
            max_crawl_bytes: 32 << 20,
            max_pages: 200,
            max_items: 10_000,
            max_depth: 64,
            max_json_values: 1_000_000,
            max_redirects: 3,
        }
    }
}

/// Who a crawl says it is: the `clientInfo` of `initialize` (2025-11-25,
/// Lifecycle §Initialization) or of the `io.modelcontextprotocol/clientInfo`
/// `_meta` key (2026-07-28, Basic §Per-request protocol fields), and the client
/// capabilities it declares. The default is the scanner itself, declaring
/// none; a bait-and-switch crawl (`monitor::identities`) poses as other clients.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientIdentity {
    /// `clientInfo.name`.
    pub name: String,
    /// `clientInfo.title`, if any.
    pub title: Option<String>,
    /// `clientInfo.version`.
    pub version: String,
    /// The declared client capabilities (an object).
    pub capabilities: serde_json::Value,
}

impl Default for ClientIdentity {
    fn default() -> ClientIdentity {
        ClientIdentity {
            name: "gatehouse".into(),
            title: Some("Gatehouse scanner".into()),
            version: env!("CARGO_PKG_VERSION").into(),
            capabilities: serde_json::json!({}),
        }
    }
}

/// Everything a crawl needs besides the URL.
#[derive(Clone, Default)]
pub struct CrawlOptions {
    /// Transport selection.
    pub transport: TransportChoice,
    /// Protocol era selection.
    pub era: EraChoice,
    /// OAuth client credentials, used when the server answers 401.
    pub oauth: Option<OAuthCredentials>,
    /// Extra headers sent with every request (e.g. `Authorization`); the
    /// protocol's own headers cannot be overridden.
    pub headers: Vec<(String, String)>,
    /// Address policy (SSRF guard).
    pub network: NetPolicy,
    /// Print progress on stderr.
    pub progress: bool,
    /// The crawl's bounds.
    pub limits: CrawlLimits,
    /// Who the crawl says it is (default: the scanner, no capabilities).
    pub client: ClientIdentity,
}

impl std::fmt::Debug for CrawlOptions {
    // Header values may be stored crawl secrets: `{:?}` shows their names only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("CrawlOptions")
            .field("transport", &self.transport)
            .field("era", &self.era)
            .field("oauth", &self.oauth)
            .field("headers", &format_args!("{headers:?} (values redacted)"))
            .field("network", &self.network)
            .field("progress", &self.progress)
            .field("limits", &self.limits)
            .field("client", &self.client)
            .finish()
    }
}

/// A crawl that produced no snapshot at all (see the module documentation for when).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct CrawlFailure {
    /// What failed, one of [`crate::snapshot::crawl_codes`] (`transport`, `initialize`, `bound`, …).
    pub code: &'static str,
    /// What happened, for people (server text in it is quoted, never raw).
    pub message: String,
    /// Whether trying again later may succeed: false when the URL, a header or
    /// the network policy refused the crawl, true for network and server failures.
    pub retryable: bool,
    /// For a server that requires OAuth (`code` = `auth`): the scopes it asked
    /// for and the issuer, recorded in the failed scan's snapshot.
    pub auth: Option<crate::snapshot::AuthInfo>,
}

impl CrawlFailure {
    /// Whether the URL, a header or the network policy refused the request
    /// (before it was sent, or on a resolved address or redirect): what the
    /// caller asked for is not allowed, rather than the server having failed.
    pub fn refused(&self) -> bool {
        !self.retryable && self.code == crate::snapshot::crawl_codes::TRANSPORT
    }
}

/// The protocol version offered in `initialize`.
pub const OFFERED_PROTOCOL_VERSION: &str = "2025-11-25";

/// Protocol versions accepted in a server's `initialize` answer (the legacy era).
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] =
    &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Modern protocol versions (per-request `_meta`, no handshake), newest first;
/// `server/discover` is probed at the first.
pub const MODERN_PROTOCOL_VERSIONS: &[&str] = &["2026-07-28"];

/// Crawls one server: the era probe, `initialize` and `notifications/initialized`
/// for an older server, then every declared list through every page, within
/// `options.limits`.
pub async fn crawl(url: &str, options: &CrawlOptions) -> Result<Snapshot, CrawlFailure> {
    crawler::run(url, options).await
}

/// Crawls a server started as `command` (program and arguments) over stdio,
/// with the same era probe, lists and bounds as [`crawl`]; the process is
/// killed when the crawl ends. `options.transport`, `headers` and `oauth` do
/// not apply.
pub async fn crawl_stdio(
    command: &[String],
    options: &CrawlOptions,
) -> Result<Snapshot, CrawlFailure> {
    crawler::run_stdio(command, options).await
}

/// Crawls a server started by `command`, a process its caller prepared (the
/// package sandbox: `bwrap` with its limits), over stdio like [`crawl_stdio`].
/// The command is started as the leader of its own process group, and the
/// whole group is killed when the crawl ends, whatever the server did.
pub async fn crawl_prepared(
    command: tokio::process::Command,
    options: &CrawlOptions,
) -> Result<Snapshot, CrawlFailure> {
    crawler::run_prepared(command, options).await
}

/// Calls the tool `name` of the server at `url` with `arguments` and returns the
/// `CallToolResult` object as the server sent it. The conversation is opened as
/// for [`crawl`] (era probe, `initialize` and `notifications/initialized` for an
/// older server, the session closed at the end), with the same headers, OAuth
/// credentials, network policy and bounds (`options.limits`: the call is one
/// request under `request_timeout`). Only a server that declared `tools` is
/// called, and only the tool named; nothing is listed. An SSE response that
/// ends before the answer is resumed with `Last-Event-ID` after the server's
/// `retry` delay (MCP 2025-11-25, basic/transports.mdx §Resumability and
/// Redelivery). A result with `isError: true` is a result (the tool ran and
/// failed); an error answer is an `Err` with code `call_failed`.
pub async fn call_tool(
    url: &str,
    name: &str,
    arguments: Option<serde_json::Map<String, serde_json::Value>>,
    options: &CrawlOptions,
) -> Result<serde_json::Value, CrawlFailure> {
    crawler::call(url, name, arguments, options).await
}

/// A JSON-RPC error a server answered a forwarded request with, kept to be
/// passed on (its text is the server's: data, bounded by the message bound).
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The server's message.
    pub message: String,
    /// The error's `data` member.
    pub data: Option<serde_json::Value>,
}

/// Why a forwarded request has no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SessionError {
    /// The server answered with a JSON-RPC error.
    #[error("JSON-RPC error {}: {:?}", .0.code, .0.message)]
    Rpc(RpcError),
    /// The exchange failed (transport, bound, invalid answer); the session
    /// should not be used again.
    #[error("{0}")]
    Failed(CrawlFailure),
}

/// A conversation with one server kept open for requests a user explicitly
/// made through the gateway: `tools/call`, `prompts/get`, `resources/read`
/// (`crawler::FORWARDED_METHODS`), one at a time, each under the crawl's
/// bounds, network policy, headers and credentials. A crawl never uses it.
pub struct Session {
    held: crawler::Held,
}

impl Session {
    /// Opens a conversation with the server at `url` (era probe; `initialize`
    /// and `notifications/initialized` for an older server).
    pub async fn open(url: &str, options: &CrawlOptions) -> Result<Session, CrawlFailure> {
        Ok(Session {
            held: crawler::Held::open(url, options).await?,
        })
    }

    /// Opens a conversation with a server started by `command` over stdio
    /// (the package sandbox: `bwrap` with its limits), as [`crawl_prepared`]
    /// starts it; the process group is killed when the session ends.
    pub async fn open_prepared(
        command: tokio::process::Command,
        options: &CrawlOptions,
    ) -> Result<Session, CrawlFailure> {
        Ok(Session {
            held: crawler::Held::open_prepared(command, options).await?,
        })
    }

    /// The capabilities the server declared when the conversation opened.
    pub fn capabilities(&self) -> &serde_json::Value {
        self.held.capabilities()
    }

    /// `modern` (2026-07-28) or `legacy` (`initialize`).
    pub fn era(&self) -> &'static str {
        self.held.era()
    }

    /// Forwards `method` (one of `tools/call`, `prompts/get`, `resources/read`)
    /// with `params` and returns the server's complete result.
    pub async fn request(
        &mut self,
        method: &str,
        params: Option<serde_json::Value>,
    ) -> Result<serde_json::Value, SessionError> {
        self.held
            .request(method, params)
            .await
            .map_err(|e| match e {
                Ok((code, message, data)) => SessionError::Rpc(RpcError {
                    code,
                    message,
                    data,
                }),
                Err(failure) => SessionError::Failed(failure),
            })
    }

    /// Turns the conversation into the server's change-notification stream.
    pub async fn listen(self) -> Result<Notifications, CrawlFailure> {
        Ok(Notifications {
            listening: self.held.listen().await?,
        })
    }

    /// Ends the conversation.
    pub async fn close(self) {
        self.held.close().await;
    }
}

/// A server's change notifications: the `subscriptions/listen` stream at
/// 2026-07-28, the session's GET stream before it.
pub struct Notifications {
    listening: crawler::Listening,
}

impl Notifications {
    /// The method of the next notification (`notifications/tools/list_changed`, …);
    /// `Ok(None)` when the server closed the stream.
    pub async fn next(&mut self) -> Result<Option<String>, CrawlFailure> {
        self.listening.next().await
    }

    /// The reconnection delay the server asked for with an SSE `retry` line,
    /// if any (MCP 2025-11-25, Transports §Resumability and Redelivery; the
    /// HTML Living Standard's SSE `retry` field).
    pub fn retry(&self) -> Option<Duration> {
        self.listening.retry_ms().map(Duration::from_millis)
    }

    /// Closes the stream.
    pub async fn close(self) {
        self.listening.close().await;
    }
}
