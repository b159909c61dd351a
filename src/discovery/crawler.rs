//! The crawl itself: era negotiation, lifecycle, pagination, bounds and item validation.
//!
//! Order of events:
//! 1. The era probe (MCP 2026-07-28, Versioning §Backward Compatibility with
//!    Initialization-Based Versions, and Streamable HTTP §Backward
//!    Compatibility): `server/discover` at the newest modern version, with the
//!    `_meta` keys of Basic §Per-request protocol fields. A `DiscoverResult`
//!    naming a version we speak makes the crawl modern. An
//!    `UnsupportedProtocolVersion` error (-32022) is positive evidence of a
//!    modern server: one retry at a mutually supported modern version, and no
//!    fallback when the server names only versions we do not speak. Anything
//!    else (another error, a 4xx without a modern error body, silence until
//!    the request timeout) means an older server. A network failure is no era
//!    verdict and ends the crawl. The same policy as the official Python SDK's
//!    `negotiate_auto`: only positive modern evidence prevents the fallback.
//! 2. Older servers (2025-11-25, "Lifecycle"): `initialize` offering
//!    [`OFFERED_PROTOCOL_VERSION`] with `clientInfo`; in `auto` transport mode a
//!    4xx answer switches to the legacy HTTP+SSE transport. The answer's
//!    `protocolVersion` must be one we support; otherwise the crawl stops with
//!    a `protocol_version` error (the result is still kept). Then
//!    `notifications/initialized`.
//! 3. Only the declared categories: `tools/list`; `resources/list` and
//!    `resources/templates/list`; `prompts/list` — each followed through
//!    `nextCursor`, passed back as the opaque string it is. Modern results must
//!    say `resultType: "complete"` (2026-07-28 changelog, major change 8) and
//!    carry `ttlMs`/`cacheScope` (Caching §Cacheable Results).
//! 4. The session, if any, is closed (DELETE for Streamable HTTP).
//!
//! A 401 from the server, in either era, starts the OAuth flow of `oauth.rs`
//! when credentials were given, and the request is sent once more with the token.
//!
//! [`call`] (`gatehouse call`, and the gateway to come) goes through steps 1,
//! 2 and 4 in the same way and sends one `tools/call`, of the tool its caller
//! named, in place of step 3. A crawl never does.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::http::{Fault, Meter, check_url, guarded_client};
use super::oauth::{self, OAuthState};
use super::stdio::StdioPipe;
use super::transport::{Link, Transport};
use super::{
    CrawlFailure, CrawlLimits, CrawlOptions, EraChoice, MODERN_PROTOCOL_VERSIONS,
    OFFERED_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, TransportChoice,
};
use crate::snapshot::{
    AuthInfo, CacheHint, CrawlError, CrawlInfo, Implementation, Prompt, Resource, ResourceTemplate,
    Snapshot, Target, TargetKind, Tool, crawl_codes,
};

/// The one method that runs server code: sent by [`call`] only, never by a crawl.
const TOOLS_CALL: &str = "tools/call";

/// `UnsupportedProtocolVersionError` (MCP 2026-07-28, Basic §Error Codes).
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The `_meta` keys every modern request carries (2026-07-28, Basic §_meta).
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// Where a modern server names itself, in a result's `_meta`.
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Most `supportedVersions` entries kept, and the longest one: the list is
/// echoed into the snapshot, so a hostile server cannot make it huge.
const MAX_SUPPORTED_VERSIONS: usize = 32;
const MAX_VERSION_LEN: usize = 64;

/// Most icons kept per item, and the longest icon `src` kept (a `data:` URI
/// may be long, but not a message's worth).
const MAX_ICONS: usize = 16;
const MAX_ICON_SRC: usize = 64 << 10;

/// How long closing the session may take, even after the deadline: the DELETE
/// is a courtesy to the server and must not hold a scan up.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Headers the protocol sets itself; a caller's header must not replace them.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "content-length",
    "host",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "transfer-encoding",
];

/// The Snapshot's own top-level keys (DESIGN.md §6).
const SNAPSHOT_FIELDS: &[&str] = &[
    "protocolVersion",
    "serverInfo",
    "capabilities",
    "instructions",
    "supportedVersions",
    "tools",
    "resources",
    "resourceTemplates",
    "prompts",
    "crawl",
];

/// One list method of the protocol and where its items go.
struct ListSpec {
    method: &'static str,
    /// The array's key in the result, also the key in `crawl.pages`.
    key: &'static str,
}

const TOOLS: ListSpec = ListSpec {
    method: "tools/list",
    key: "tools",
};
const RESOURCES: ListSpec = ListSpec {
    method: "resources/list",
    key: "resources",
};
const TEMPLATES: ListSpec = ListSpec {
    method: "resources/templates/list",
    key: "resourceTemplates",
};
const PROMPTS: ListSpec = ListSpec {
    method: "prompts/list",
    key: "prompts",
};

/// How a list ended, and whether the crawl goes on.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    /// Read to its last page; go on with the next list.
    Next,
    /// This list failed (an error answer, an invalid page); go on with the next list.
    Failed,
    /// A bound or the transport failed: stop and keep what was collected.
    Stop,
}

/// State of one crawl in progress.
struct Crawler {
    link: Link,
    limits: CrawlLimits,
    deadline: Instant,
    next_id: u64,
    progress: bool,
    /// The command in progress lines: `scan` or `call`.
    label: &'static str,
    /// Who the crawler says it is (`clientInfo`) and what it declares.
    client: super::ClientIdentity,
    errors: Vec<CrawlError>,
    pages: BTreeMap<String, u32>,
    /// `crawl.cache`: the caching hints of each modern list.
    cache: BTreeMap<String, CacheHint>,
    /// `crawl.transport`, set once a transport answered `initialize`.
    transport_name: &'static str,
    /// The OAuth flow's state; `None` when no credentials were given and the
    /// server never asked.
    oauth: OAuthState,
    /// Declared lists not read to the end (`crawl.unread`).
    unread: Vec<String>,
    /// The server process when crawling over stdio (shared by the probe and
    /// the transport after it).
    stdio: Option<std::sync::Arc<tokio::sync::Mutex<StdioPipe>>>,
}

/// What opened the conversation with the server.
enum Opening {
    /// A modern server's `DiscoverResult`, at the negotiated version.
    Modern { discover: Value, version: String },
    /// An older server's `initialize` result.
    Legacy(Value),
}

/// What the `server/discover` probe says about the server.
enum Probe {
    /// It speaks `version` of the modern era; the transport talks to it (boxed:
    /// a transport is large beside the other variant).
    Modern(Box<Transport>, Value, String),
    /// It is an older server: fall back to `initialize`.
    Legacy,
}

/// Runs one crawl (the body of [`super::crawl`]).
pub(crate) async fn run(url: &str, options: &CrawlOptions) -> Result<Snapshot, CrawlFailure> {
    run_on(checked_url(url, options)?, None, options).await
}

/// `url` parsed and judged by the network policy before anything is sent.
fn checked_url(url: &str, options: &CrawlOptions) -> Result<Url, CrawlFailure> {
    let url = Url::parse(url)
        .map_err(|e| final_failure(crawl_codes::TRANSPORT, format!("invalid URL: {e}")))?;
    check_url(&url, &options.network).map_err(|e| final_failure(crawl_codes::TRANSPORT, e))?;
    Ok(url)
}

/// Calls one tool (the body of [`super::call_tool`]): the same era probe and
/// opening as a crawl, the same session, headers, credentials, policy and
/// bounds, then `tools/call` and nothing else — no list, no other tool.
///
/// An older server may end the call's SSE stream before the response (after a
/// priming event with an `id` and a `retry`): `Transport::request` then waits
/// the `retry` delay and resumes with a GET carrying `Last-Event-ID`, on which
/// the server redelivers the response (MCP 2025-11-25, basic/transports.mdx
/// §Resumability and Redelivery) — the resumption a list's stream gets. At
/// 2026-07-28 a broken stream is neither resumed nor, for a call, re-issued.
pub(crate) async fn call(
    url: &str,
    tool: &str,
    arguments: Option<serde_json::Map<String, Value>>,
    options: &CrawlOptions,
) -> Result<Value, CrawlFailure> {
    let url = checked_url(url, options)?;
    let started = Instant::now();
    let mut crawler = Crawler::new(&url, None, options, "call")?;
    let (mut transport, opening) = crawler.open(url.clone(), options).await?;
    let outcome = crawler
        .call_tool(&mut transport, opening, tool, arguments)
        .await;
    crawler.close(transport).await;
    // The host only, as for a crawl; the tool's arguments and result are not logged.
    tracing::info!(
        host = url.host_str().unwrap_or_default(),
        transport = crawler.transport_name,
        ok = outcome.is_ok(),
        bytes = crawler.link.meter.used,
        duration_ms = started.elapsed().as_millis() as u64,
        "tool call finished"
    );
    outcome
}

/// Runs one crawl of a server process over stdio (the body of [`super::crawl_stdio`]).
pub(crate) async fn run_stdio(
    command: &[String],
    options: &CrawlOptions,
) -> Result<Snapshot, CrawlFailure> {
    let pipe = StdioPipe::spawn(command).map_err(|e| final_failure(crawl_codes::TRANSPORT, e))?;
    run_pipe(pipe, options).await
}

/// The crawl of a server started by a command its caller prepared (the
/// package sandbox), the process group killed at the end.
pub(crate) async fn run_prepared(
    command: tokio::process::Command,
    options: &CrawlOptions,
) -> Result<Snapshot, CrawlFailure> {
    let pipe = StdioPipe::spawn_prepared(command, true)
        .map_err(|e| final_failure(crawl_codes::TRANSPORT, e))?;
    run_pipe(pipe, options).await
}

/// The crawl over an already started process.
async fn run_pipe(pipe: StdioPipe, options: &CrawlOptions) -> Result<Snapshot, CrawlFailure> {
    let (url, options) = stdio_target(options);
    run_on(url, Some(pipe), &options).await
}

/// The target and options of a conversation over a process's stdio. No
/// network: the URL only names the target in messages, and no header or
/// credential is sent anywhere.
fn stdio_target(options: &CrawlOptions) -> (Url, CrawlOptions) {
    let options = CrawlOptions {
        headers: Vec::new(),
        oauth: None,
        transport: TransportChoice::Auto,
        ..options.clone()
    };
    (
        Url::parse("stdio://local/").expect("a constant URL"),
        options,
    )
}

/// The crawl of `url`, or of `pipe` when given.
async fn run_on(
    url: Url,
    pipe: Option<StdioPipe>,
    options: &CrawlOptions,
) -> Result<Snapshot, CrawlFailure> {
    let started = Instant::now();
    let url_host = url.host_str().unwrap_or_default().to_string();
    let mut crawler = Crawler::new(&url, pipe, options, "scan")?;

    let (mut transport, opening) = crawler.open(url.clone(), options).await?;
    let era = match opening {
        Opening::Modern { .. } => "modern",
        Opening::Legacy(_) => "legacy",
    };
    let (mut snapshot, version_ok) = match opening {
        Opening::Modern { discover, version } => {
            let snapshot = crawler.absorb_discover(discover, version);
            (snapshot, true)
        }
        Opening::Legacy(init) => {
            let snapshot = crawler.absorb_initialize(init);
            let ok = snapshot
                .protocol_version
                .as_deref()
                .is_some_and(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v));
            (snapshot, ok)
        }
    };
    if !version_ok {
        crawler.record(
            crawl_codes::PROTOCOL_VERSION,
            format!(
                "the server answered initialize with protocol version {:?}; supported: {}",
                snapshot.protocol_version.as_deref().unwrap_or("(none)"),
                SUPPORTED_PROTOCOL_VERSIONS.join(", ")
            ),
            None,
        );
        // Nothing declared was listed: none of it was scanned.
        crawler.unread = declared_lists(&snapshot)
            .iter()
            .map(|spec| spec.key.to_string())
            .collect();
    } else {
        if era == "legacy" {
            transport
                .set_protocol_version(snapshot.protocol_version.as_deref().unwrap_or_default());
        }
        crawler.list_declared(&mut transport, &mut snapshot).await;
    }
    crawler.close(transport).await;

    // The host only: a URL's path or query may carry a publisher's token.
    tracing::info!(
        host = url_host.as_str(),
        transport = crawler.transport_name,
        era,
        tools = snapshot.tools.len(),
        resources = snapshot.resources.len(),
        resource_templates = snapshot.resource_templates.len(),
        prompts = snapshot.prompts.len(),
        errors = crawler.errors.len(),
        bytes = crawler.link.meter.used,
        duration_ms = started.elapsed().as_millis() as u64,
        "crawl finished"
    );
    snapshot.crawl = Some(CrawlInfo {
        transport: crawler.transport_name.to_string(),
        era: era.to_string(),
        cache: std::mem::take(&mut crawler.cache),
        auth: crawler.oauth.info(),
        pages: std::mem::take(&mut crawler.pages),
        duration_ms: started.elapsed().as_millis().try_into().unwrap_or(u64::MAX),
        errors: std::mem::take(&mut crawler.errors),
        unread: std::mem::take(&mut crawler.unread),
        package: None,
    });
    Ok(snapshot)
}

impl Crawler {
    /// A crawler for `url` (or `pipe`) with the caller's headers, credentials,
    /// policy and bounds; `label` names the command in progress lines.
    fn new(
        url: &Url,
        pipe: Option<StdioPipe>,
        options: &CrawlOptions,
        label: &'static str,
    ) -> Result<Crawler, CrawlFailure> {
        let limits = options.limits.clone();
        let headers = header_map(&options.headers)?;
        let client = guarded_client(
            &options.network,
            limits.request_timeout,
            limits.max_redirects,
            // Credentials or caller headers must not follow a redirect elsewhere.
            !options.headers.is_empty() || options.oauth.is_some(),
        )
        .map_err(|e| failure(crawl_codes::TRANSPORT, e))?;
        Ok(Crawler {
            link: Link {
                client,
                policy: options.network.clone(),
                headers,
                meter: Meter {
                    used: 0,
                    max_crawl: limits.max_crawl_bytes,
                    max_message: limits.max_message_bytes,
                    values: 0,
                    max_values: limits.max_json_values,
                },
                max_depth: limits.max_depth,
                origin: url.origin(),
                bearer: None,
                duplicate_keys: Vec::new(),
            },
            deadline: Instant::now() + limits.deadline,
            limits,
            next_id: 0,
            progress: options.progress,
            label,
            client: options.client.clone(),
            errors: Vec::new(),
            pages: BTreeMap::new(),
            cache: BTreeMap::new(),
            transport_name: "",
            oauth: OAuthState::new(options.oauth.clone(), url.clone()),
            unread: Vec::new(),
            stdio: pipe.map(|p| std::sync::Arc::new(tokio::sync::Mutex::new(p))),
        })
    }
}

/// A failure that may not recur (network, server).
fn failure(code: &'static str, message: impl Into<String>) -> CrawlFailure {
    CrawlFailure {
        code,
        message: message.into(),
        retryable: true,
        auth: None,
    }
}

/// A failure that the same request will meet again (bad URL, header or policy).
fn final_failure(code: &'static str, message: impl Into<String>) -> CrawlFailure {
    CrawlFailure {
        retryable: false,
        ..failure(code, message)
    }
}

/// The caller's headers, refusing malformed ones and those the protocol owns.
fn header_map(headers: &[(String, String)]) -> Result<HeaderMap, CrawlFailure> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let bad =
            |why: &str| final_failure(crawl_codes::TRANSPORT, format!("header {name:?}: {why}"));
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| bad("not a valid header name"))?;
        if RESERVED_HEADERS.contains(&name.as_str()) {
            return Err(bad("set by the protocol, cannot be overridden"));
        }
        let value =
            HeaderValue::from_str(value.trim()).map_err(|_| bad("not a valid header value"))?;
        map.append(name, value);
    }
    Ok(map)
}

/// The code a failed exchange is recorded under when no more specific one applies.
fn code_of(fault: &Fault) -> &'static str {
    match fault {
        Fault::Bound(_) => crawl_codes::BOUND,
        Fault::Transport(_) | Fault::Refused(_) => crawl_codes::TRANSPORT,
        Fault::Invalid(_) => crawl_codes::INVALID_RESPONSE,
        Fault::Status(_) | Fault::Rpc { .. } => crawl_codes::LIST_FAILED,
        Fault::Unauthorized { .. } => crawl_codes::AUTH,
        Fault::StreamEnded => crawl_codes::INVALID_RESPONSE,
    }
}

/// The `_meta` of a modern request (2026-07-28, Basic §Per-request protocol
/// fields): protocol version, client info, and the client's capabilities —
/// by default none, since a crawler answers no server requests (a
/// bait-and-switch crawl declares what the client it poses as declares).
fn request_meta(version: &str, client: &super::ClientIdentity) -> Value {
    json!({
        META_PROTOCOL_VERSION: version,
        META_CLIENT_INFO: client_info(client),
        META_CLIENT_CAPABILITIES: client.capabilities,
    })
}

/// `clientInfo` of both eras.
fn client_info(client: &super::ClientIdentity) -> Value {
    let mut info = json!({"name": client.name, "version": client.version});
    if let Some(title) = &client.title {
        info["title"] = json!(title);
    }
    info
}

/// `params` with the modern `_meta` merged in (a caller's `_meta` is replaced).
fn with_meta(params: Option<Value>, version: &str, client: &super::ClientIdentity) -> Value {
    let mut params = match params {
        Some(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    params.insert("_meta".into(), request_meta(version, client));
    Value::Object(params)
}

/// The versions an `UnsupportedProtocolVersion` error's `data.supported` names,
/// when it is a list of strings (otherwise the error is not actionable).
fn supported_of(data: Option<&Value>) -> Option<Vec<String>> {
    let list = data?.get("supported")?.as_array()?;
    list.iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// The newest modern version both sides speak.
fn mutual_modern(supported: &[String]) -> Option<&'static str> {
    MODERN_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|v| supported.iter().any(|s| s == v))
}

/// Text from the server, cut for a message: it is data, never shown raw.
fn cut(text: &str, max: usize) -> String {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

impl Crawler {
    fn say(&self, what: std::fmt::Arguments<'_>) {
        // Only our own words reach the terminal: server text could carry escape sequences.
        if self.progress {
            eprintln!("gatehouse {}: {what}", self.label);
        }
    }

    fn record(&mut self, code: &str, message: String, target: Option<Target>) {
        tracing::debug!(code, message = message.as_str(), "crawl anomaly");
        self.errors.push(CrawlError {
            code: code.to_string(),
            message,
            target,
        });
    }

    /// Sends one request on `transport`, bounded in time.
    async fn request(
        &mut self,
        transport: &mut Transport,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, Fault> {
        let params = match transport.modern_version() {
            Some(version) => Some(with_meta(params, version, &self.client)),
            None => params,
        };
        let mut authorised = false;
        let mut reissued = false;
        loop {
            self.refresh_token_if_due().await?;
            self.next_id += 1;
            let id = self.next_id;
            let timeout = self.limits.request_timeout;
            let exchange = transport.request(&mut self.link, id, method, params.clone());
            let answer = bounded_at(
                method,
                timeout,
                self.deadline,
                self.limits.deadline,
                exchange,
            )
            .await;
            for pointer in std::mem::take(&mut self.link.duplicate_keys) {
                self.record(
                    crawl_codes::DUPLICATE_KEY,
                    format!(
                        "{method}: the answer repeats the key at {pointer}; clients that keep the first value see something else than was scanned"
                    ),
                    None,
                );
            }
            match answer {
                // 2026-07-28, Streamable HTTP §Receiving Messages: a broken response
                // stream loses the request; it is re-issued once under a new id —
                // except a tool call, which may have run: running it twice is
                // not the caller's to risk.
                Err(Fault::StreamEnded)
                    if transport.modern_version().is_some()
                        && !reissued
                        && method != TOOLS_CALL =>
                {
                    reissued = true;
                }
                // A 401: obtain a token (or a fresh one) and send the request once more.
                Err(Fault::Unauthorized { challenge }) if !authorised => {
                    authorised = true;
                    self.authorise(&challenge).await?;
                }
                answer => return answer,
            }
        }
    }

    /// Runs the OAuth flow for a 401's challenge and installs the bearer token;
    /// without credentials the fault comes back with what the server asked for.
    async fn authorise(&mut self, challenge: &str) -> Result<(), Fault> {
        self.say(format_args!(
            "the server requires OAuth: discovering its metadata"
        ));
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        let timeout = self.limits.request_timeout;
        let flow = oauth::authorise(&mut self.oauth, &mut self.link, challenge, timeout);
        let bearer = match tokio::time::timeout(remaining, flow).await {
            Ok(result) => result?,
            Err(_) => {
                return Err(Fault::Bound(format!(
                    "the crawl deadline of {} s passed during the OAuth flow",
                    self.limits.deadline.as_secs_f64()
                )));
            }
        };
        self.link.bearer = Some(bearer);
        Ok(())
    }

    /// Obtains a new token before the current one expires (the flow is known by then).
    async fn refresh_token_if_due(&mut self) -> Result<(), Fault> {
        if !self.oauth.due() {
            return Ok(());
        }
        self.say(format_args!("the OAuth token expires: obtaining a new one"));
        let timeout = self.limits.request_timeout;
        let bearer = oauth::refresh(&mut self.oauth, &mut self.link, timeout).await?;
        self.link.bearer = Some(bearer);
        Ok(())
    }

    /// Finds the server's era and opens the conversation: the `server/discover`
    /// probe, then `initialize` when the server is an older one.
    async fn open(
        &mut self,
        url: Url,
        options: &CrawlOptions,
    ) -> Result<(Transport, Opening), CrawlFailure> {
        // The legacy HTTP+SSE transport predates the modern era: no probe there.
        if options.transport != TransportChoice::Sse && options.era != EraChoice::Legacy {
            match self.probe(&url).await? {
                Probe::Modern(transport, discover, version) => {
                    let transport = *transport;
                    self.transport_name = transport.name();
                    return Ok((transport, Opening::Modern { discover, version }));
                }
                Probe::Legacy if options.era == EraChoice::Modern => {
                    return Err(failure(
                        crawl_codes::INITIALIZE,
                        "server/discover: the server does not speak the modern protocol \
                         (2026-07-28) and --era modern forbids the initialize fallback",
                    ));
                }
                Probe::Legacy => {}
            }
        }
        let (transport, init) = self.initialize(url, options.transport).await?;
        Ok((transport, Opening::Legacy(init)))
    }

    /// The `server/discover` probe (see the module documentation for the policy).
    async fn probe(&mut self, url: &Url) -> Result<Probe, CrawlFailure> {
        let mut version = MODERN_PROTOCOL_VERSIONS[0];
        for attempt in 0..2 {
            self.say(format_args!("server/discover at {version}"));
            let mut transport = match &self.stdio {
                Some(pipe) => Transport::stdio(pipe.clone(), Some(version)),
                None => Transport::modern(url.clone(), version),
            };
            match self.request(&mut transport, "server/discover", None).await {
                Ok(result) => {
                    let supported = result
                        .get("supportedVersions")
                        .and_then(Value::as_array)
                        .map(|list| {
                            list.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_string)
                                .collect::<Vec<_>>()
                        })
                        .unwrap_or_default();
                    if supported.iter().any(|v| v == version) {
                        return Ok(Probe::Modern(
                            Box::new(transport),
                            result,
                            version.to_string(),
                        ));
                    }
                    match mutual_modern(&supported) {
                        Some(other) if attempt == 0 => version = other,
                        // A discover answer naming no modern version we speak is a
                        // legacy advertisement (some SDKs' stateful defaults do this).
                        _ => return Ok(Probe::Legacy),
                    }
                }
                Err(Fault::Rpc {
                    code: UNSUPPORTED_PROTOCOL_VERSION,
                    data,
                    ..
                }) => {
                    let supported = supported_of(data.as_ref());
                    if let Some(other) = supported.as_deref().and_then(mutual_modern)
                        && attempt == 0
                    {
                        version = other;
                        continue;
                    }
                    let legacy_too = supported.as_ref().is_none_or(|list| {
                        list.iter()
                            .any(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v.as_str()))
                    });
                    if legacy_too {
                        return Ok(Probe::Legacy);
                    }
                    // A modern server speaking only versions we do not: falling back
                    // to initialize would only meet another refusal.
                    let named: Vec<String> = supported
                        .unwrap_or_default()
                        .iter()
                        .take(MAX_SUPPORTED_VERSIONS)
                        .map(|v| format!("{:?}", cut(v, MAX_VERSION_LEN)))
                        .collect();
                    return Err(final_failure(
                        crawl_codes::PROTOCOL_VERSION,
                        format!(
                            "server/discover: the server supports only protocol versions {}; \
                             the scanner speaks {} and {}",
                            named.join(", "),
                            MODERN_PROTOCOL_VERSIONS.join(", "),
                            SUPPORTED_PROTOCOL_VERSIONS.join(", ")
                        ),
                    ));
                }
                // A network failure or a refused address is no era verdict.
                Err(fault @ (Fault::Transport(_) | Fault::Refused(_))) => {
                    return Err(init_failure("server/discover", &fault));
                }
                Err(Fault::Unauthorized { challenge }) => {
                    return Err(self.auth_failure(&challenge));
                }
                Err(fault) => {
                    self.say(format_args!(
                        "server/discover: {fault}; trying the initialize handshake"
                    ));
                    return Ok(Probe::Legacy);
                }
            }
        }
        Ok(Probe::Legacy)
    }

    /// The failure of a crawl the server would not allow without a token.
    fn auth_failure(&self, challenge: &str) -> CrawlFailure {
        let scopes = self.oauth.scopes_asked(challenge);
        let scopes = if scopes.is_empty() {
            String::new()
        } else {
            format!(" (scopes asked for: {})", scopes.join(" "))
        };
        let message = match self.oauth.failure() {
            Some(why) => {
                format!("the server requires OAuth and no token was obtained: {why}{scopes}")
            }
            None => format!("the server requires OAuth; add crawl credentials{scopes}"),
        };
        CrawlFailure {
            auth: Some(AuthInfo {
                scopes: self.oauth.scopes_asked(challenge),
                issuer: self.oauth.info().and_then(|i| i.issuer),
            }),
            ..final_failure(crawl_codes::AUTH, message)
        }
    }

    /// Opens the transport and performs `initialize` (the legacy era).
    async fn initialize(
        &mut self,
        url: Url,
        choice: TransportChoice,
    ) -> Result<(Transport, Value), CrawlFailure> {
        let params = json!({
            "protocolVersion": OFFERED_PROTOCOL_VERSION,
            "capabilities": self.client.capabilities,
            "clientInfo": client_info(&self.client),
        });
        self.say(format_args!("initialize (transport {})", choice.as_str()));
        if choice != TransportChoice::Sse {
            let mut transport = match &self.stdio {
                Some(pipe) => Transport::stdio(pipe.clone(), None),
                None => Transport::streamable(url.clone()),
            };
            match self
                .request(&mut transport, "initialize", Some(params.clone()))
                .await
            {
                Ok(result) => {
                    self.transport_name = transport.name();
                    return Ok((transport, result));
                }
                // Spec 2025-11-25, Transports §Backwards Compatibility: a 4xx to the
                // initialize POST means an old server; try the HTTP+SSE GET next.
                Err(Fault::Status(status))
                    if choice == TransportChoice::Auto && (400..500).contains(&status) =>
                {
                    self.say(format_args!("HTTP {status}: trying the HTTP+SSE transport"));
                }
                Err(Fault::Unauthorized { challenge }) => return Err(self.auth_failure(&challenge)),
                Err(fault) => return Err(init_failure("initialize", &fault)),
            }
        }
        let timeout = self.limits.request_timeout;
        let opened = {
            let link = &mut self.link;
            bounded_at(
                "the SSE stream",
                timeout,
                self.deadline,
                self.limits.deadline,
                Transport::open_legacy(link, url),
            )
            .await
        };
        let mut transport = opened.map_err(|f| self.open_failure(&f))?;
        let result = self
            .request(&mut transport, "initialize", Some(params))
            .await
            .map_err(|f| self.open_failure(&f))?;
        self.transport_name = transport.name();
        Ok((transport, result))
    }

    /// [`init_failure`] for the legacy opening, a 401 explained as such.
    fn open_failure(&self, fault: &Fault) -> CrawlFailure {
        match fault {
            Fault::Unauthorized { challenge } => self.auth_failure(challenge),
            _ => init_failure("initialize", fault),
        }
    }

    /// Takes the fields of a `DiscoverResult` (2026-07-28, server/discover §Data
    /// Types) into a new snapshot at the negotiated `version`.
    fn absorb_discover(&mut self, discover: Value, version: String) -> Snapshot {
        let Value::Object(mut discover) = discover else {
            unreachable!("answer_to only returns objects")
        };
        let mut snapshot = Snapshot {
            protocol_version: Some(version),
            ..Snapshot::default()
        };
        self.check_result_type("server/discover", discover.get("resultType"));
        if let Some(hint) = self.cache_hint("server/discover", &discover, None) {
            self.cache.insert("discover".into(), hint);
        }
        discover.remove("resultType");
        discover.remove("ttlMs");
        discover.remove("cacheScope");
        if let Some(Value::Array(list)) = discover.remove("supportedVersions") {
            if list.len() > MAX_SUPPORTED_VERSIONS {
                self.record(
                    crawl_codes::INVALID_RESPONSE,
                    format!(
                        "supportedVersions names {} versions; the first {MAX_SUPPORTED_VERSIONS} were kept",
                        list.len()
                    ),
                    None,
                );
            }
            let kept = list
                .iter()
                .take(MAX_SUPPORTED_VERSIONS)
                .filter_map(Value::as_str)
                .map(|v| cut(v, MAX_VERSION_LEN))
                .collect();
            snapshot.supported_versions = Some(kept);
        }
        // serverInfo is optional in the modern era (a SHOULD) and only for display.
        let info = discover
            .get_mut("_meta")
            .and_then(Value::as_object_mut)
            .and_then(|meta| meta.remove(META_SERVER_INFO));
        if let Some(info) = info {
            match serde_json::from_value::<Implementation>(info) {
                Ok(info) => snapshot.server_info = Some(info),
                Err(e) => self.record(
                    crawl_codes::INVALID_RESPONSE,
                    format!("serverInfo is invalid: {e}"),
                    None,
                ),
            }
        }
        if discover
            .get("_meta")
            .and_then(Value::as_object)
            .is_some_and(serde_json::Map::is_empty)
        {
            discover.remove("_meta");
        }
        self.absorb_common(discover, snapshot, "the server/discover result")
    }

    /// Takes the fields of an `initialize` result into a new snapshot.
    fn absorb_initialize(&mut self, init: Value) -> Snapshot {
        let Value::Object(mut init) = init else {
            unreachable!("answer_to only returns objects")
        };
        let mut snapshot = Snapshot::default();
        // A missing or non-string version is left absent; the caller records it as unsupported.
        if let Some(Value::String(version)) = init.remove("protocolVersion") {
            snapshot.protocol_version = Some(version);
        }
        match init
            .remove("serverInfo")
            .map(serde_json::from_value::<Implementation>)
        {
            Some(Ok(info)) => snapshot.server_info = Some(info),
            Some(Err(e)) => self.record(
                crawl_codes::INVALID_RESPONSE,
                format!("serverInfo is invalid: {e}"),
                None,
            ),
            None => self.record(
                crawl_codes::INVALID_RESPONSE,
                "the initialize result has no serverInfo".into(),
                None,
            ),
        }
        self.absorb_common(init, snapshot, "the initialize result")
    }

    /// The fields both openings share: capabilities, instructions, icons, the rest.
    fn absorb_common(
        &mut self,
        mut init: serde_json::Map<String, Value>,
        mut snapshot: Snapshot,
        what: &str,
    ) -> Snapshot {
        if let Some(info) = snapshot.server_info.as_mut() {
            self.check_icons(&mut info.extra, &Target::server());
        }
        match init.remove("capabilities") {
            Some(Value::Object(capabilities)) => snapshot.capabilities = capabilities,
            _ => self.record(
                crawl_codes::INVALID_RESPONSE,
                format!("{what} has no capabilities object"),
                None,
            ),
        }
        match init.remove("instructions") {
            Some(Value::String(text)) => snapshot.instructions = Some(text),
            None | Some(Value::Null) => {}
            Some(_) => self.record(
                crawl_codes::INVALID_RESPONSE,
                "instructions is not a string".into(),
                None,
            ),
        }
        // Whatever else the server put in its result (`_meta`, vendor fields) is
        // kept, except keys that name a Snapshot field: flattened beside the real
        // field they would serialise as a second `tools` (say) for a reader to
        // pick instead of the crawled one.
        init.retain(|key, _| !SNAPSHOT_FIELDS.contains(&key.as_str()));
        snapshot.extra = init;
        snapshot
    }

    /// Sends `notifications/initialized` and lists every declared category.
    async fn list_declared(&mut self, transport: &mut Transport, snapshot: &mut Snapshot) {
        let notified = self.initialized(transport).await;
        let plan = declared_lists(snapshot);
        if let Err(fault) = notified {
            self.record(
                code_of(&fault),
                format!("notifications/initialized: {fault}"),
                None,
            );
            self.unread = plan.iter().map(|spec| spec.key.to_string()).collect();
            return;
        }
        let modern = transport.modern_version().is_some();
        let mut stopped = false;
        for spec in plan {
            if stopped {
                // Never asked for: unread just as surely as a list that failed.
                self.unread.push(spec.key.to_string());
                continue;
            }
            let mut raw = Vec::new();
            let flow = self.list(transport, &spec, &mut raw, modern).await;
            self.keep(&spec, raw, snapshot);
            if flow != Flow::Next {
                self.unread.push(spec.key.to_string());
            }
            stopped = flow == Flow::Stop;
        }
    }

    /// Completes an opening for a conversation that goes on past it: an older
    /// server's version check and `notifications/initialized`; the server's
    /// `capabilities` (an empty object when it declared none).
    async fn finish_opening(
        &mut self,
        transport: &mut Transport,
        opening: Opening,
    ) -> Result<Value, CrawlFailure> {
        let capabilities = match opening {
            Opening::Modern { discover, .. } => discover.get("capabilities").cloned(),
            Opening::Legacy(init) => {
                let version = init.get("protocolVersion").and_then(Value::as_str);
                match version {
                    Some(v) if SUPPORTED_PROTOCOL_VERSIONS.contains(&v) => {
                        transport.set_protocol_version(v);
                    }
                    _ => {
                        return Err(failure(
                            crawl_codes::PROTOCOL_VERSION,
                            format!(
                                "the server answered initialize with protocol version {:?}; supported: {}",
                                version.map_or("(none)".into(), |v| cut(v, MAX_VERSION_LEN)),
                                SUPPORTED_PROTOCOL_VERSIONS.join(", ")
                            ),
                        ));
                    }
                }
                if let Err(fault) = self.initialized(transport).await {
                    return Err(self.call_failure("notifications/initialized", fault));
                }
                init.get("capabilities").cloned()
            }
        };
        Ok(capabilities
            .filter(Value::is_object)
            .unwrap_or_else(|| json!({})))
    }

    /// The body of [`call`] once the conversation is open: [`Crawler::finish_opening`],
    /// the `tools` capability (2025-11-25, Server Features/Tools §Capabilities),
    /// then `tools/call`.
    async fn call_tool(
        &mut self,
        transport: &mut Transport,
        opening: Opening,
        tool: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> Result<Value, CrawlFailure> {
        let capabilities = Some(self.finish_opening(transport, opening).await?);
        let declared = capabilities
            .as_ref()
            .and_then(|c| c.get("tools"))
            .is_some_and(Value::is_object);
        if !declared {
            return Err(failure(
                crawl_codes::CALL_FAILED,
                "the server declared no tools capability; tools/call was not sent",
            ));
        }
        self.say(format_args!("tools/call"));
        let mut params = serde_json::Map::new();
        params.insert("name".into(), Value::String(tool.to_string()));
        if let Some(arguments) = arguments {
            params.insert("arguments".into(), Value::Object(arguments));
        }
        let result = match self
            .request(transport, TOOLS_CALL, Some(Value::Object(params)))
            .await
        {
            Ok(result) => result,
            Err(fault) => return Err(self.call_failure(TOOLS_CALL, fault)),
        };
        complete_result(TOOLS_CALL, result)
    }

    /// The failure of a call whose `step` went wrong with `fault`.
    fn call_failure(&self, step: &str, fault: Fault) -> CrawlFailure {
        let message = format!("{step}: {fault}");
        match fault {
            Fault::Unauthorized { challenge } => self.auth_failure(&challenge),
            Fault::Bound(_) => failure(crawl_codes::BOUND, message),
            Fault::Transport(_) => failure(crawl_codes::TRANSPORT, message),
            Fault::Refused(_) => final_failure(crawl_codes::TRANSPORT, message),
            Fault::Invalid(_) | Fault::StreamEnded => {
                failure(crawl_codes::INVALID_RESPONSE, message)
            }
            Fault::Status(_) | Fault::Rpc { .. } => failure(crawl_codes::CALL_FAILED, message),
        }
    }

    /// Completes an older server's handshake with `notifications/initialized`;
    /// the modern era has none (2026-07-28 changelog, major change 2).
    async fn initialized(&mut self, transport: &mut Transport) -> Result<(), Fault> {
        if transport.modern_version().is_some() {
            return Ok(());
        }
        let timeout = self.limits.request_timeout;
        let link = &mut self.link;
        let send = transport.notify(link, "notifications/initialized");
        bounded_at(
            "notifications/initialized",
            timeout,
            self.deadline,
            self.limits.deadline,
            send,
        )
        .await
    }

    /// Fetches every page of one list into `out`.
    async fn list(
        &mut self,
        transport: &mut Transport,
        spec: &ListSpec,
        out: &mut Vec<Value>,
        modern: bool,
    ) -> Flow {
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        let mut pages = 0u32;
        let mut hint: Option<CacheHint> = None;
        loop {
            if pages >= self.limits.max_pages {
                let message = format!("{}: more than {} pages", spec.method, self.limits.max_pages);
                self.record(crawl_codes::BOUND, message, None);
                return Flow::Stop;
            }
            self.say(format_args!(
                "{} page {} ({} items so far)",
                spec.method,
                pages + 1,
                out.len()
            ));
            let params = cursor.take().map(|c| json!({ "cursor": c }));
            let result = match self.request(transport, spec.method, params).await {
                Ok(result) => result,
                Err(fault) => {
                    self.record(code_of(&fault), format!("{}: {fault}", spec.method), None);
                    return match fault {
                        Fault::Bound(_) | Fault::Transport(_) | Fault::Refused(_) => Flow::Stop,
                        // The `resources` capability does not promise templates:
                        // "method not found" there means there are none to read.
                        Fault::Rpc { code: -32601, .. } if spec.key == TEMPLATES.key => Flow::Next,
                        _ => Flow::Failed,
                    };
                }
            };
            pages += 1;
            self.pages.insert(spec.key.to_string(), pages);
            let Value::Object(mut result) = result else {
                unreachable!("answer_to only returns objects")
            };
            if !self.check_result_type(spec.method, result.get("resultType")) {
                return Flow::Next;
            }
            if modern && let Some(page_hint) = self.cache_hint(spec.method, &result, hint.as_ref())
            {
                let merged = match hint.take() {
                    None => page_hint,
                    Some(before) => CacheHint {
                        ttl_ms: match (before.ttl_ms, page_hint.ttl_ms) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (a, b) => a.or(b),
                        },
                        cache_scope: before.cache_scope.or(page_hint.cache_scope),
                    },
                };
                self.cache.insert(spec.key.to_string(), merged.clone());
                hint = Some(merged);
            }
            let Some(Value::Array(items)) = result.remove(spec.key) else {
                let message = format!("{}: the result has no {:?} array", spec.method, spec.key);
                self.record(crawl_codes::INVALID_RESPONSE, message, None);
                return Flow::Failed;
            };
            for item in items {
                if out.len() >= self.limits.max_items {
                    let message =
                        format!("{}: more than {} items", spec.method, self.limits.max_items);
                    self.record(crawl_codes::BOUND, message, None);
                    return Flow::Stop;
                }
                out.push(item);
            }
            match result.remove("nextCursor") {
                None | Some(Value::Null) => return Flow::Next,
                Some(Value::String(next)) => {
                    // A cursor seen before would loop forever: stop at the first repeat.
                    if !seen.insert(next.clone()) {
                        let message = format!(
                            "{}: the server repeated a cursor after page {pages}",
                            spec.method
                        );
                        self.record(crawl_codes::BOUND, message, None);
                        return Flow::Stop;
                    }
                    cursor = Some(next);
                }
                Some(_) => {
                    let message = format!("{}: nextCursor is not a string", spec.method);
                    self.record(crawl_codes::INVALID_RESPONSE, message, None);
                    return Flow::Failed;
                }
            }
        }
    }

    /// Validates the raw items of one list and stores the valid ones in the snapshot.
    fn keep(&mut self, spec: &ListSpec, raw: Vec<Value>, snapshot: &mut Snapshot) {
        match spec.key {
            "tools" => {
                snapshot.tools = self.validate(
                    raw,
                    TargetKind::Tool,
                    &["name"],
                    Some("inputSchema"),
                    |t: &Tool| &t.name,
                )
            }
            "resources" => {
                snapshot.resources = self.validate(
                    raw,
                    TargetKind::Resource,
                    &["uri", "name"],
                    None,
                    |r: &Resource| &r.uri,
                )
            }
            "resourceTemplates" => {
                snapshot.resource_templates = self.validate(
                    raw,
                    TargetKind::ResourceTemplate,
                    &["uriTemplate", "name"],
                    None,
                    |r: &ResourceTemplate| &r.uri_template,
                )
            }
            _ => {
                snapshot.prompts =
                    self.validate(raw, TargetKind::Prompt, &["name"], None, |p: &Prompt| {
                        &p.name
                    })
            }
        }
    }

    /// Drops items that are not valid per the MCP schema (recording each), and
    /// records duplicates (by `key`) and tool names outside the spec's character set.
    fn validate<T: DeserializeOwned>(
        &mut self,
        raw: Vec<Value>,
        kind: TargetKind,
        required_strings: &[&str],
        required_object: Option<&str>,
        key: impl Fn(&T) -> &String,
    ) -> Vec<T> {
        let mut kept = Vec::with_capacity(raw.len());
        let mut seen = HashSet::new();
        for (index, item) in raw.into_iter().enumerate() {
            let name = item
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let target = Some(Target::new(kind, name.clone()));
            let problem = item_problem(&item, required_strings, required_object);
            let mut item = item;
            if problem.is_none()
                && let Some(object) = item.as_object_mut()
                && let Some(target) = &target
            {
                self.check_icons(object, target);
            }
            let typed = match problem {
                Some(problem) => Err(problem),
                None => serde_json::from_value::<T>(item).map_err(|e| e.to_string()),
            };
            let typed = match typed {
                Ok(typed) => typed,
                Err(problem) => {
                    let message = format!(
                        "{} #{index} is not valid and was dropped: {problem}",
                        kind.as_str()
                    );
                    self.record(crawl_codes::INVALID_ITEM, message, target);
                    continue;
                }
            };
            if !seen.insert(key(&typed).clone()) {
                let message = format!("{} #{index} repeats {:?}", kind.as_str(), key(&typed));
                self.record(crawl_codes::DUPLICATE_NAME, message, target.clone());
            }
            if kind == TargetKind::Tool && !is_valid_tool_name(&name) {
                let message = format!("tool name {name:?} is not 1 to 128 of A-Z a-z 0-9 _ - .");
                self.record(crawl_codes::INVALID_NAME, message, target);
            }
            kept.push(typed);
        }
        kept
    }

    /// Records a `resultType` that is not `complete` (2026-07-28 changelog, major
    /// change 8): a list has no multi-round-trip form, so an `input_required`
    /// page, or any other value, ends that list. An absent `resultType` is
    /// `complete` in either era (Basic §ResultType: clients MUST treat it so),
    /// and is not recorded. Returns whether the result may be used.
    fn check_result_type(&mut self, method: &str, value: Option<&Value>) -> bool {
        match value {
            None => true,
            Some(Value::String(kind)) if kind == "complete" => true,
            Some(other) => {
                let shown = match other {
                    Value::String(text) => format!("{:?}", cut(text, 64)),
                    _ => "a non-string value".into(),
                };
                self.record(
                    crawl_codes::RESULT_TYPE,
                    format!(
                        "{method}: resultType is {shown}, not \"complete\"; the result was not used"
                    ),
                    None,
                );
                false
            }
        }
    }

    /// The caching hints of one modern result (2026-07-28, Caching §Cacheable
    /// Model). Absent hints are not an anomaly: the specification gives clients
    /// a default for them (no `ttlMs` means 0, immediately stale), so only
    /// invalid values are recorded, and a `cacheScope` that differs from the
    /// list's first page (§Interaction with Pagination: servers MUST keep it).
    fn cache_hint(
        &mut self,
        method: &str,
        result: &serde_json::Map<String, Value>,
        before: Option<&CacheHint>,
    ) -> Option<CacheHint> {
        let mut problems = Vec::new();
        let ttl_ms = match result.get("ttlMs") {
            None => None,
            Some(value) => match (value.as_u64(), value.as_i64()) {
                (Some(ttl), _) => Some(ttl),
                // §Time-to-Live: a negative TTL is treated as 0.
                (None, Some(_)) => {
                    problems.push("ttlMs is negative".to_string());
                    Some(0)
                }
                (None, None) => {
                    problems.push("ttlMs is not an integer".to_string());
                    None
                }
            },
        };
        let cache_scope = match result.get("cacheScope") {
            None => None,
            Some(Value::String(scope)) if scope == "public" || scope == "private" => {
                Some(scope.clone())
            }
            Some(_) => {
                problems.push("cacheScope is not \"public\" or \"private\"".to_string());
                None
            }
        };
        if let (Some(now), Some(Some(first))) =
            (&cache_scope, before.map(|b| b.cache_scope.as_ref()))
            && now != first
        {
            problems.push(format!(
                "cacheScope changed from {first} to {now} between pages"
            ));
        }
        if !problems.is_empty() {
            self.record(
                crawl_codes::CACHE_HINT,
                format!("{method}: {}", problems.join("; ")),
                None,
            );
        }
        (ttl_ms.is_some() || cache_scope.is_some()).then_some(CacheHint {
            ttl_ms,
            cache_scope,
        })
    }

    /// Keeps the icons whose `src` is safe to fetch and drops the rest, recording
    /// each (2025-11-25, Basic §Icons: `https:` or `data:` URIs only; clients
    /// must refuse `javascript:`, `file:`, `http:` and the like).
    fn check_icons(&mut self, object: &mut serde_json::Map<String, Value>, target: &Target) {
        let Some(icons) = object.get_mut("icons") else {
            return;
        };
        let Value::Array(list) = icons else {
            self.record(
                crawl_codes::INVALID_ICON,
                "icons is not an array; it was dropped".into(),
                Some(target.clone()),
            );
            object.remove("icons");
            return;
        };
        let mut kept = Vec::new();
        for (index, icon) in std::mem::take(list).into_iter().enumerate() {
            let problem = match icon.get("src").and_then(Value::as_str) {
                None => Some("has no src string".to_string()),
                Some(src) if src.len() > MAX_ICON_SRC => {
                    Some(format!("src is longer than {MAX_ICON_SRC} bytes"))
                }
                Some(src) => icon_scheme_problem(src),
            };
            match problem {
                None if kept.len() < MAX_ICONS => kept.push(icon),
                None => {
                    self.record(
                        crawl_codes::INVALID_ICON,
                        format!("more than {MAX_ICONS} icons; icon #{index} was dropped"),
                        Some(target.clone()),
                    );
                }
                Some(problem) => self.record(
                    crawl_codes::INVALID_ICON,
                    format!("icon #{index} {problem}; it was dropped"),
                    Some(target.clone()),
                ),
            }
        }
        *list = kept;
    }

    /// Closes the session, briefly, even when the deadline has passed.
    async fn close(&mut self, transport: Transport) {
        let grace = self.limits.request_timeout.min(CLOSE_GRACE);
        let _ = tokio::time::timeout(grace, transport.close(&mut self.link)).await;
    }
}

/// The lists of the categories a server declared in `capabilities`, in crawl
/// order (MCP 2025-11-25, "Lifecycle" §Capability Negotiation: list only what was declared).
fn declared_lists(snapshot: &Snapshot) -> Vec<ListSpec> {
    let declared = |name: &str| {
        snapshot
            .capabilities
            .get(name)
            .is_some_and(Value::is_object)
    };
    let mut plan = Vec::new();
    if declared("tools") {
        plan.push(TOOLS);
    }
    if declared("resources") {
        plan.push(RESOURCES);
        plan.push(TEMPLATES);
    }
    if declared("prompts") {
        plan.push(PROMPTS);
    }
    plan
}

/// Runs `exchange` under the earlier of `timeout` from now and `deadline`.
async fn bounded_at<T>(
    what: &str,
    timeout: Duration,
    deadline: Instant,
    deadline_length: Duration,
    exchange: impl Future<Output = Result<T, Fault>>,
) -> Result<T, Fault> {
    let by_request = Instant::now() + timeout;
    match tokio::time::timeout_at(by_request.min(deadline), exchange).await {
        Ok(result) => result,
        Err(_) if deadline < by_request => Err(Fault::Bound(format!(
            "the crawl deadline of {} s passed during {what}",
            deadline_length.as_secs_f64()
        ))),
        Err(_) => Err(Fault::Bound(format!(
            "no complete answer to {what} within {} s",
            timeout.as_secs_f64()
        ))),
    }
}

/// The failure of a crawl whose opening (`server/discover` or `initialize`)
/// produced nothing usable.
fn init_failure(step: &str, fault: &Fault) -> CrawlFailure {
    let message = format!("{step}: {fault}");
    match fault {
        Fault::Bound(_) => failure(crawl_codes::BOUND, message),
        Fault::Transport(_) => failure(crawl_codes::TRANSPORT, message),
        Fault::Refused(_) => final_failure(crawl_codes::TRANSPORT, message),
        _ => failure(crawl_codes::INITIALIZE, message),
    }
}

/// `result` when it is a complete one: a multi-round-trip result
/// (`input_required`) would need answers this client does not give
/// (2026-07-28 changelog, major change 8).
fn complete_result(method: &str, result: Value) -> Result<Value, CrawlFailure> {
    match result.get("resultType") {
        None => Ok(result),
        Some(Value::String(kind)) if kind == "complete" => Ok(result),
        Some(other) => {
            let shown = match other {
                Value::String(text) => format!("{:?}", cut(text, 64)),
                _ => "a non-string value".into(),
            };
            Err(failure(
                crawl_codes::RESULT_TYPE,
                format!(
                    "{method}: resultType is {shown}, not \"complete\"; this client answers no server requests"
                ),
            ))
        }
    }
}

/// What the MCP schema requires of an item before it is typed.
fn item_problem(
    item: &Value,
    required_strings: &[&str],
    required_object: Option<&str>,
) -> Option<String> {
    let Value::Object(object) = item else {
        return Some("not an object".into());
    };
    for field in required_strings {
        if !object.get(*field).is_some_and(Value::is_string) {
            return Some(format!("{field} is missing or not a string"));
        }
    }
    if let Some(field) = required_object
        && !object.get(field).is_some_and(Value::is_object)
    {
        return Some(format!("{field} is missing or not an object"));
    }
    None
}

/// Why an icon `src` is unsafe, if it is: only `https:` and `data:` URIs
/// (2025-11-25, Basic §Icons; the same rule as the registry's other URLs).
fn icon_scheme_problem(src: &str) -> Option<String> {
    let scheme = src.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("data") => None,
        Some("https") => match Url::parse(src) {
            Ok(url) if url.host_str().is_some() => None,
            _ => Some("src is not a valid https URL".into()),
        },
        Some(other)
            if other.len() <= 32
                && other
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
        {
            Some(format!("src has the scheme {other:?}, not https or data"))
        }
        _ => Some("src is not an https: or data: URI".into()),
    }
}

/// Tool names per MCP 2025-11-25 (Tools §Tool Names): 1 to 128 characters of
/// ASCII letters, digits, `_`, `-` and `.`.
fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The methods a [`Held`] conversation forwards: the three that read or run
/// something on the caller's explicit request (the gateway's `tools/call`,
/// `prompts/get`, `resources/read`), and nothing else.
pub(crate) const FORWARDED_METHODS: &[&str] = &[TOOLS_CALL, "prompts/get", "resources/read"];

/// A conversation kept open after its opening, for requests forwarded one at
/// a time (the body of [`super::Session`]). Each request gets the crawl's
/// bounds afresh: the byte and value budgets and the deadline bound one
/// exchange, not the life of the conversation.
pub(crate) struct Held {
    crawler: Crawler,
    transport: Option<Transport>,
    capabilities: Value,
    era: &'static str,
}

impl Held {
    /// Opens the conversation as a crawl does (era probe, `initialize` and
    /// `notifications/initialized` for an older server).
    pub(crate) async fn open(url: &str, options: &CrawlOptions) -> Result<Held, CrawlFailure> {
        let url = checked_url(url, options)?;
        let crawler = Crawler::new(&url, None, options, "gateway")?;
        Held::opened(crawler, url, options).await
    }

    /// Opens `crawler`'s conversation with `url` and keeps it.
    async fn opened(
        mut crawler: Crawler,
        url: Url,
        options: &CrawlOptions,
    ) -> Result<Held, CrawlFailure> {
        let (mut transport, opening) = crawler.open(url, options).await?;
        let era = match opening {
            Opening::Modern { .. } => "modern",
            Opening::Legacy(_) => "legacy",
        };
        let capabilities = crawler.finish_opening(&mut transport, opening).await?;
        Ok(Held {
            crawler,
            transport: Some(transport),
            capabilities,
            era,
        })
    }

    /// Opens the conversation with a server started by a prepared command
    /// (the package sandbox) over stdio; the process group is killed when
    /// the conversation ends.
    pub(crate) async fn open_prepared(
        command: tokio::process::Command,
        options: &CrawlOptions,
    ) -> Result<Held, CrawlFailure> {
        let pipe = StdioPipe::spawn_prepared(command, true)
            .map_err(|e| final_failure(crawl_codes::TRANSPORT, e))?;
        let (url, options) = stdio_target(options);
        let crawler = Crawler::new(&url, Some(pipe), &options, "gateway")?;
        Held::opened(crawler, url, &options).await
    }

    /// The capabilities the server declared.
    pub(crate) fn capabilities(&self) -> &Value {
        &self.capabilities
    }

    /// `modern` or `legacy`.
    pub(crate) fn era(&self) -> &'static str {
        self.era
    }

    /// Gives the next exchange the full budget of one crawl.
    fn renew_budget(&mut self) {
        let crawler = &mut self.crawler;
        crawler.link.meter.used = 0;
        crawler.link.meter.values = 0;
        crawler.deadline = Instant::now() + crawler.limits.deadline;
        crawler.link.duplicate_keys.clear();
        crawler.errors.clear();
    }

    /// Sends one of [`FORWARDED_METHODS`] and returns its complete result; a
    /// JSON-RPC error answer comes back as `Err(Ok(fault))` so the caller can
    /// pass the server's error on, anything else as `Err(Err(failure))`.
    pub(crate) async fn request(
        &mut self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, Result<(i64, String, Option<Value>), CrawlFailure>> {
        if !FORWARDED_METHODS.contains(&method) {
            return Err(Err(final_failure(
                crawl_codes::CALL_FAILED,
                format!("{method} is not a method this conversation forwards"),
            )));
        }
        self.renew_budget();
        let Some(transport) = self.transport.as_mut() else {
            return Err(Err(failure(
                crawl_codes::TRANSPORT,
                "the conversation is closed",
            )));
        };
        match self.crawler.request(transport, method, params).await {
            Ok(result) => complete_result(method, result).map_err(Err),
            Err(Fault::Rpc {
                code,
                message,
                data,
            }) => Err(Ok((code, message, data))),
            Err(fault) => Err(Err(self.crawler.call_failure(method, fault))),
        }
    }

    /// Opens the server's change-notification stream (see
    /// `Transport::open_stream`), asking at 2026-07-28 for the three list
    /// changes (`subscriptions/listen`).
    pub(crate) async fn listen(mut self) -> Result<Listening, CrawlFailure> {
        self.renew_budget();
        let Some(mut transport) = self.transport.take() else {
            return Err(failure(
                crawl_codes::TRANSPORT,
                "the conversation is closed",
            ));
        };
        let params = transport.modern_version().map(|version| {
            with_meta(
                Some(json!({"notifications": {
                    "toolsListChanged": true,
                    "promptsListChanged": true,
                    "resourcesListChanged": true,
                }})),
                version,
                &self.crawler.client,
            )
        });
        self.crawler.next_id += 1;
        let id = self.crawler.next_id;
        let timeout = self.crawler.limits.request_timeout;
        let opened = tokio::time::timeout(
            timeout,
            transport.open_stream(&mut self.crawler.link, id, "subscriptions/listen", params),
        )
        .await;
        let stream = match opened {
            Ok(Ok(stream)) => stream,
            Ok(Err(fault)) => {
                return Err(self.crawler.call_failure("the notification stream", fault));
            }
            Err(_) => {
                return Err(failure(
                    crawl_codes::BOUND,
                    "the notification stream did not open in time",
                ));
            }
        };
        Ok(Listening {
            held: Held {
                transport: Some(transport),
                ..self
            },
            stream,
        })
    }

    /// Ends the conversation (DELETE of an older server's session).
    pub(crate) async fn close(mut self) {
        if let Some(transport) = self.transport.take() {
            self.crawler.close(transport).await;
        }
    }
}

/// A server's change-notification stream, open (the body of [`super::Notifications`]).
pub(crate) struct Listening {
    held: Held,
    stream: super::sse::SseStream,
}

impl Listening {
    /// The method of the next notification the server sends (`notifications/tools/list_changed`, …);
    /// `None` when the stream ended. Each event is bounded by the message bound.
    pub(crate) async fn next(&mut self) -> Result<Option<String>, CrawlFailure> {
        loop {
            // A long-lived stream: the byte budget bounds one event, not the stream's life.
            self.held.renew_budget();
            let link = &mut self.held.crawler.link;
            let event = match self.stream.next(&mut link.meter).await {
                Ok(Some(event)) => event,
                Ok(None) => return Ok(None),
                Err(fault) => {
                    return Err(self
                        .held
                        .crawler
                        .call_failure("the notification stream", fault));
                }
            };
            if event.event != "message" || event.data.trim().is_empty() {
                continue;
            }
            let Ok(message) = super::jsonrpc::parse(
                event.data.as_bytes(),
                link.max_depth,
                &mut link.meter,
                &mut link.duplicate_keys,
            ) else {
                continue;
            };
            // Only notifications matter here; their method names are the
            // protocol's, but a hostile server picks them: they are cut short.
            if message.get("id").is_none()
                && let Some(method) = message.get("method").and_then(Value::as_str)
            {
                return Ok(Some(cut(method, 128)));
            }
        }
    }

    /// The server's SSE `retry` delay, in milliseconds, if it sent one.
    pub(crate) fn retry_ms(&self) -> Option<u64> {
        self.stream.retry_ms()
    }

    /// Closes the stream and the conversation.
    pub(crate) async fn close(self) {
        drop(self.stream);
        self.held.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_follow_the_specification_character_set() {
        assert!(is_valid_tool_name("get_weather.v2-beta"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("get weather"));
        assert!(!is_valid_tool_name("wétter"));
        assert!(!is_valid_tool_name(&"a".repeat(129)));
    }

    #[test]
    fn a_tool_without_an_input_schema_is_a_problem() {
        let item = json!({"name": "t"});
        assert!(item_problem(&item, &["name"], Some("inputSchema")).is_some());
        let item = json!({"name": "t", "inputSchema": {"type": "object"}});
        assert!(item_problem(&item, &["name"], Some("inputSchema")).is_none());
    }

    #[test]
    fn icon_sources_must_be_https_or_data() {
        assert!(icon_scheme_problem("https://example.com/i.png").is_none());
        assert!(icon_scheme_problem("data:image/png;base64,AAAA").is_none());
        assert!(icon_scheme_problem("javascript:alert(1)").is_some());
        assert!(icon_scheme_problem("http://example.com/i.png").is_some());
        assert!(icon_scheme_problem("file:///etc/passwd").is_some());
        assert!(icon_scheme_problem("no scheme").is_some());
    }

    #[test]
    fn modern_requests_carry_the_per_request_meta_keys() {
        let params = with_meta(
            Some(json!({"cursor": "c"})),
            "2026-07-28",
            &crate::discovery::ClientIdentity::default(),
        );
        assert_eq!(params["cursor"], "c");
        assert_eq!(params["_meta"][META_PROTOCOL_VERSION], "2026-07-28");
        assert_eq!(params["_meta"][META_CLIENT_INFO]["name"], "gatehouse");
        assert_eq!(params["_meta"][META_CLIENT_CAPABILITIES], json!({}));
    }

    #[test]
    fn an_unsupported_version_error_names_the_versions_to_retry_with() {
        let data = json!({"supported": ["2026-07-28", "2025-11-25"], "requested": "1900-01-01"});
        let supported = supported_of(Some(&data)).unwrap();
        assert_eq!(mutual_modern(&supported), Some("2026-07-28"));
        assert!(supported_of(Some(&json!({"supported": [1]}))).is_none());
        assert_eq!(mutual_modern(&["2099-01-01".to_string()]), None);
    }

    #[test]
    fn reserved_headers_cannot_be_overridden() {
        let err = header_map(&[("Mcp-Session-Id".into(), "x".into())]).unwrap_err();
        assert_eq!(err.code, crawl_codes::TRANSPORT);
        assert!(header_map(&[("Authorization".into(), "Bearer t".into())]).is_ok());
    }
}
