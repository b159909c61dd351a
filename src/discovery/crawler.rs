//! The crawl itself: lifecycle, pagination, bounds and item validation.
//!
//! Order of events (MCP 2025-11-25, "Lifecycle" and "Pagination"):
//! 1. `initialize` offering [`OFFERED_PROTOCOL_VERSION`] with `clientInfo`;
//!    in `auto` mode a 4xx answer switches to the legacy HTTP+SSE transport.
//! 2. The answer's `protocolVersion` must be one we support; otherwise the
//!    crawl stops with a `protocol_version` error (the result is still kept).
//! 3. `notifications/initialized`.
//! 4. Only the declared categories: `tools/list`; `resources/list` and
//!    `resources/templates/list`; `prompts/list` — each followed through
//!    `nextCursor`, passed back as the opaque string it is.
//! 5. The session is closed (DELETE for Streamable HTTP).

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::http::{Fault, Meter, check_url, guarded_client};
use super::transport::{Link, Transport};
use super::{
    CrawlFailure, CrawlLimits, CrawlOptions, OFFERED_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS,
    TransportChoice,
};
use crate::snapshot::{
    CrawlError, CrawlInfo, Implementation, Prompt, Resource, ResourceTemplate, Snapshot, Target,
    TargetKind, Tool, crawl_codes,
};

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
    "transfer-encoding",
];

/// The Snapshot's own top-level keys (DESIGN.md §6).
const SNAPSHOT_FIELDS: &[&str] = &[
    "protocolVersion",
    "serverInfo",
    "capabilities",
    "instructions",
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
    errors: Vec<CrawlError>,
    pages: BTreeMap<String, u32>,
    /// `crawl.transport`, set once a transport answered `initialize`.
    transport_name: &'static str,
    /// Declared lists not read to the end (`crawl.unread`).
    unread: Vec<String>,
}

/// Runs one crawl (the body of [`super::crawl`]).
pub(crate) async fn run(url: &str, options: &CrawlOptions) -> Result<Snapshot, CrawlFailure> {
    let started = Instant::now();
    let limits = options.limits.clone();
    let url = Url::parse(url)
        .map_err(|e| final_failure(crawl_codes::TRANSPORT, format!("invalid URL: {e}")))?;
    check_url(&url, &options.network).map_err(|e| final_failure(crawl_codes::TRANSPORT, e))?;
    let headers = header_map(&options.headers)?;
    let url_host = url.host_str().unwrap_or_default().to_string();
    let client = guarded_client(
        &options.network,
        limits.request_timeout,
        limits.max_redirects,
    )
    .map_err(|e| failure(crawl_codes::TRANSPORT, e))?;
    let mut crawler = Crawler {
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
            duplicate_keys: Vec::new(),
        },
        deadline: started + limits.deadline,
        limits,
        next_id: 0,
        progress: options.progress,
        errors: Vec::new(),
        pages: BTreeMap::new(),
        transport_name: "",
        unread: Vec::new(),
    };

    let (mut transport, init) = crawler.initialize(url, options.transport).await?;
    let mut snapshot = crawler.absorb_initialize(init);
    let version_ok = snapshot
        .protocol_version
        .as_deref()
        .is_some_and(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v));
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
        transport.set_protocol_version(snapshot.protocol_version.as_deref().unwrap_or_default());
        crawler.list_declared(&mut transport, &mut snapshot).await;
    }
    crawler.close(transport).await;

    // The host only: a URL's path or query may carry a publisher's token.
    tracing::info!(
        host = url_host.as_str(),
        transport = crawler.transport_name,
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
        pages: std::mem::take(&mut crawler.pages),
        duration_ms: started.elapsed().as_millis().try_into().unwrap_or(u64::MAX),
        errors: std::mem::take(&mut crawler.errors),
        unread: std::mem::take(&mut crawler.unread),
    });
    Ok(snapshot)
}

/// A failure that may not recur (network, server).
fn failure(code: &'static str, message: impl Into<String>) -> CrawlFailure {
    CrawlFailure {
        code,
        message: message.into(),
        retryable: true,
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
    }
}

impl Crawler {
    fn say(&self, what: std::fmt::Arguments<'_>) {
        // Only our own words reach the terminal: server text could carry escape sequences.
        if self.progress {
            eprintln!("gatehouse scan: {what}");
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
        self.next_id += 1;
        let id = self.next_id;
        let timeout = self.limits.request_timeout;
        let exchange = transport.request(&mut self.link, id, method, params);
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
        answer
    }

    /// Opens the transport and performs `initialize`.
    async fn initialize(
        &mut self,
        url: Url,
        choice: TransportChoice,
    ) -> Result<(Transport, Value), CrawlFailure> {
        let params = json!({
            "protocolVersion": OFFERED_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "gatehouse", "title": "Gatehouse scanner", "version": env!("CARGO_PKG_VERSION")},
        });
        self.say(format_args!("initialize (transport {})", choice.as_str()));
        if choice != TransportChoice::Sse {
            let mut transport = Transport::streamable(url.clone());
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
                Err(fault) => return Err(init_failure(&fault)),
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
        let mut transport = opened.map_err(|f| init_failure(&f))?;
        let result = self
            .request(&mut transport, "initialize", Some(params))
            .await
            .map_err(|f| init_failure(&f))?;
        self.transport_name = transport.name();
        Ok((transport, result))
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
        match init.remove("capabilities") {
            Some(Value::Object(capabilities)) => snapshot.capabilities = capabilities,
            _ => self.record(
                crawl_codes::INVALID_RESPONSE,
                "the initialize result has no capabilities object".into(),
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
        let timeout = self.limits.request_timeout;
        let notified = {
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
        };
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
        let mut stopped = false;
        for spec in plan {
            if stopped {
                // Never asked for: unread just as surely as a list that failed.
                self.unread.push(spec.key.to_string());
                continue;
            }
            let mut raw = Vec::new();
            let flow = self.list(transport, &spec, &mut raw).await;
            self.keep(&spec, raw, snapshot);
            if flow != Flow::Next {
                self.unread.push(spec.key.to_string());
            }
            stopped = flow == Flow::Stop;
        }
    }

    /// Fetches every page of one list into `out`.
    async fn list(
        &mut self,
        transport: &mut Transport,
        spec: &ListSpec,
        out: &mut Vec<Value>,
    ) -> Flow {
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        let mut pages = 0u32;
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

/// The failure of a crawl whose `initialize` produced nothing usable.
fn init_failure(fault: &Fault) -> CrawlFailure {
    let message = format!("initialize: {fault}");
    match fault {
        Fault::Bound(_) => failure(crawl_codes::BOUND, message),
        Fault::Transport(_) => failure(crawl_codes::TRANSPORT, message),
        Fault::Refused(_) => final_failure(crawl_codes::TRANSPORT, message),
        _ => failure(crawl_codes::INITIALIZE, message),
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

/// Tool names per MCP 2025-11-25 (Tools §Tool Names): 1 to 128 characters of
/// ASCII letters, digits, `_`, `-` and `.`.
fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
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
    fn reserved_headers_cannot_be_overridden() {
        let err = header_map(&[("Mcp-Session-Id".into(), "x".into())]).unwrap_err();
        assert_eq!(err.code, crawl_codes::TRANSPORT);
        assert!(header_map(&[("Authorization".into(), "Bearer t".into())]).is_ok());
    }
}
