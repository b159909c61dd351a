//! The two HTTP transports of the MCP specification, as a client that asks one
//! question at a time.
//!
//! - Streamable HTTP (spec 2025-11-25, "Transports" §Streamable HTTP): every
//!   message is a POST to the one endpoint; the answer is a JSON body or an SSE
//!   stream carrying it; `Mcp-Session-Id` from the `initialize` answer and
//!   `MCP-Protocol-Version` go on every later request; the session is DELETEd
//!   at the end.
//!   When an SSE response ends before the answer and its events carried an id,
//!   the stream is resumed with a GET carrying `Last-Event-ID`, after the
//!   server's `retry` delay (2025-11-25, Transports §Resumability and Redelivery).
//! - Streamable HTTP at revision 2026-07-28 ("modern"; Transports §Streamable
//!   HTTP): no session and no GET stream; every POST carries
//!   `MCP-Protocol-Version` and `Mcp-Method` (§Standard Request Headers), and
//!   `Mcp-Name` on the one addressed method sent here, the `tools/call` of
//!   `gatehouse call` (a crawl never sends it); an
//!   error status carries a JSON-RPC error body that tells a modern server from
//!   an older one (§Backward Compatibility), so it is read, within bounds. A
//!   broken response stream is not resumable: the crawler re-issues the request.
//! - HTTP+SSE (spec 2024-11-05): a GET opens an SSE stream whose first
//!   `endpoint` event names the URL to POST messages to; answers arrive as
//!   `message` events on the stream.
//!
//! - stdio (`stdio.rs`): one child process; the same requests, one per line.
//!
//! Timeouts are not applied here: the crawler wraps every call in the earlier
//! of the request timeout and the crawl deadline, and dropping a call's future
//! cancels it cleanly (a partially read chunk is never consumed).

use std::time::Duration;

use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, WWW_AUTHENTICATE,
};
use reqwest::{Response, Url};
use serde_json::Value;

use super::http::{Fault, Meter, check_peer, check_url, describe, read_body};
use super::jsonrpc;
use super::policy::NetPolicy;
use super::sse::SseStream;
use super::stdio::StdioPipe;

/// What every exchange of one crawl shares: the guarded client, the policy,
/// the caller's headers and the byte meter.
pub(crate) struct Link {
    /// The SSRF-guarded client.
    pub client: reqwest::Client,
    /// Re-checked on the connected peer and the legacy endpoint URL.
    pub policy: NetPolicy,
    /// Headers the caller asked to send with every request (e.g. `Authorization`).
    pub headers: HeaderMap,
    /// Byte counters of the crawl.
    pub meter: Meter,
    /// JSON nesting bound.
    pub max_depth: usize,
    /// The crawled server's origin: the only one the caller's headers and the
    /// bearer token are sent to.
    pub origin: url::Origin,
    /// `Authorization: Bearer …` once an OAuth token was obtained (marked sensitive).
    pub bearer: Option<HeaderValue>,
    /// Pointers of duplicate keys seen in messages since the crawler last took
    /// them (it records each as a `duplicate_key` anomaly).
    pub duplicate_keys: Vec<String>,
}

/// Longest `retry` delay honoured before resuming an SSE stream; a server asking
/// for more gets this (the request timeout bounds the whole exchange anyway).
const MAX_RETRY_DELAY: Duration = Duration::from_secs(5);

/// The delay before resuming when the server sent no `retry` field.
const DEFAULT_RETRY_DELAY: Duration = Duration::from_millis(500);

/// Most resumptions of one response stream.
const MAX_RESUMPTIONS: u32 = 3;

impl Link {
    /// A request carrying the caller's headers and the bearer token when it goes
    /// to the server's own origin; protocol headers are added after them.
    fn builder(&self, method: reqwest::Method, url: Url) -> reqwest::RequestBuilder {
        let own = url.origin() == self.origin;
        let mut request = self.client.request(method, url);
        if own {
            let mut headers = self.headers.clone();
            if let Some(bearer) = &self.bearer {
                // The token replaces a caller's static Authorization, never joins it.
                headers.insert(AUTHORIZATION, bearer.clone());
            }
            request = request.headers(headers);
        }
        request
    }

    async fn send(&mut self, request: reqwest::RequestBuilder) -> Result<Response, Fault> {
        let response = request.send().await.map_err(|e| describe(&e))?;
        check_peer(&response, &self.policy)?;
        if response.status() == reqwest::StatusCode::UNAUTHORIZED {
            return Err(unauthorized(&response));
        }
        if !response.status().is_success() {
            return Err(Fault::Status(response.status().as_u16()));
        }
        Ok(response)
    }

    /// Like [`Link::send`], but an error status with a JSON body is read (within
    /// the bounds) for the JSON-RPC error it may hold: a modern server explains
    /// a 400 or 404 that way (2026-07-28, Streamable HTTP §Backward Compatibility).
    async fn send_modern(&mut self, request: reqwest::RequestBuilder) -> Result<Response, Fault> {
        let mut response = request.send().await.map_err(|e| describe(&e))?;
        check_peer(&response, &self.policy)?;
        let status = response.status();
        if status == reqwest::StatusCode::UNAUTHORIZED {
            return Err(unauthorized(&response));
        }
        if status.is_success() {
            return Ok(response);
        }
        if is_content_type(&response, "application/json") {
            let bytes = read_body(&mut response, &mut self.meter).await?;
            let message = jsonrpc::parse(
                &bytes,
                self.max_depth,
                &mut self.meter,
                &mut self.duplicate_keys,
            )?;
            if let Some(error) = jsonrpc::error_of(message) {
                return Err(error);
            }
        }
        Err(Fault::Status(status.as_u16()))
    }

    /// Reads SSE events until the answer to `id` arrives; other messages are skipped.
    async fn answer_from_stream(
        &mut self,
        stream: &mut SseStream,
        id: u64,
    ) -> Result<Value, Fault> {
        loop {
            let Some(event) = stream.next(&mut self.meter).await? else {
                return Err(Fault::StreamEnded);
            };
            // A priming event (spec 2025-11-25: an id and empty data, for resumption) carries no message.
            if event.event != "message" || event.data.trim().is_empty() {
                continue;
            }
            let message = jsonrpc::parse(
                event.data.as_bytes(),
                self.max_depth,
                &mut self.meter,
                &mut self.duplicate_keys,
            )?;
            if let Some(answer) = jsonrpc::answer_to(message, id) {
                return answer;
            }
        }
    }
}

/// An open transport.
pub(crate) enum Transport {
    /// Streamable HTTP.
    Streamable {
        /// The MCP endpoint.
        url: Url,
        /// `Mcp-Session-Id` assigned by the server, if any.
        session: Option<HeaderValue>,
        /// The negotiated version, sent as `MCP-Protocol-Version` after `initialize`
        /// (and on every request of the modern era).
        protocol: Option<HeaderValue>,
        /// Speaking revision 2026-07-28: `Mcp-Method` on every POST, no session,
        /// error bodies read, no stream resumption.
        modern: bool,
    },
    /// Legacy HTTP+SSE.
    Legacy {
        /// Where messages are POSTed (from the `endpoint` event).
        endpoint: Url,
        /// The stream answers arrive on.
        stream: Box<SseStream>,
    },
    /// A child process over stdio; the probe's transport and the one after it
    /// share the process.
    Stdio {
        /// The process.
        pipe: std::sync::Arc<tokio::sync::Mutex<StdioPipe>>,
        /// The modern version every request's `_meta` carries, if modern.
        modern: Option<String>,
    },
}

impl Transport {
    /// A Streamable HTTP transport for `url` (nothing is sent yet).
    pub fn streamable(url: Url) -> Transport {
        Transport::Streamable {
            url,
            session: None,
            protocol: None,
            modern: false,
        }
    }

    /// A Streamable HTTP transport speaking the modern revision `version` to `url`.
    pub fn modern(url: Url, version: &str) -> Transport {
        Transport::Streamable {
            url,
            session: None,
            protocol: HeaderValue::from_str(version).ok(),
            modern: true,
        }
    }

    /// A stdio transport on `pipe`, speaking the modern revision `modern` if given.
    pub fn stdio(
        pipe: std::sync::Arc<tokio::sync::Mutex<StdioPipe>>,
        modern: Option<&str>,
    ) -> Transport {
        Transport::Stdio {
            pipe,
            modern: modern.map(str::to_string),
        }
    }

    /// The protocol version of a modern transport, which every request's `_meta` repeats.
    pub fn modern_version(&self) -> Option<&str> {
        match self {
            Transport::Stdio {
                modern: Some(version),
                ..
            } => Some(version),
            Transport::Streamable {
                protocol: Some(protocol),
                modern: true,
                ..
            } => protocol.to_str().ok(),
            _ => None,
        }
    }

    /// Opens the legacy transport: GET the SSE stream and wait for its `endpoint` event.
    pub async fn open_legacy(link: &mut Link, url: Url) -> Result<Transport, Fault> {
        let request = link
            .builder(reqwest::Method::GET, url.clone())
            .header(ACCEPT, "text/event-stream");
        let response = link.send(request).await?;
        if !is_content_type(&response, "text/event-stream") {
            return Err(Fault::Invalid("the GET did not open an SSE stream".into()));
        }
        let mut stream = Box::new(SseStream::new(response));
        loop {
            let Some(event) = stream.next(&mut link.meter).await? else {
                return Err(Fault::Invalid(
                    "the SSE stream ended before its endpoint event".into(),
                ));
            };
            if event.event != "endpoint" {
                continue;
            }
            let endpoint = url
                .join(event.data.trim())
                .map_err(|e| Fault::Invalid(format!("the endpoint event is not a URL: {e}")))?;
            // The endpoint belongs to the server we were asked to scan; anything
            // else would let it aim our POSTs at a third party.
            if endpoint.origin() != url.origin() {
                return Err(Fault::Transport(format!(
                    "the endpoint event names another origin ({})",
                    endpoint.origin().ascii_serialization()
                )));
            }
            check_url(&endpoint, &link.policy).map_err(Fault::Refused)?;
            return Ok(Transport::Legacy { endpoint, stream });
        }
    }

    /// The name recorded in `crawl.transport`.
    pub fn name(&self) -> &'static str {
        match self {
            Transport::Streamable { .. } => "streamable-http",
            Transport::Legacy { .. } => "sse",
            Transport::Stdio { .. } => "stdio",
        }
    }

    /// Remembers the negotiated protocol version for the `MCP-Protocol-Version` header.
    pub fn set_protocol_version(&mut self, version: &str) {
        if let Transport::Streamable { protocol, .. } = self {
            *protocol = HeaderValue::from_str(version).ok();
        }
    }

    /// Sends request `id` and returns its `result` object.
    pub async fn request(
        &mut self,
        link: &mut Link,
        id: u64,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, Fault> {
        if let Transport::Stdio { pipe, .. } = self {
            let mut pipe = pipe.lock().await;
            pipe.send(&jsonrpc::request(id, method, params)).await?;
            return pipe.answer(link, id).await;
        }
        let name = mcp_name(method, params.as_ref());
        let body = serde_json::to_vec(&jsonrpc::request(id, method, params))
            .expect("a request serialises");
        match self {
            Transport::Streamable {
                url,
                session,
                protocol,
                modern,
            } => {
                let routing = modern.then(|| Routing { method, name });
                let request = post(
                    link,
                    url.clone(),
                    body,
                    session.as_ref(),
                    protocol.as_ref(),
                    routing,
                );
                let mut response = if *modern {
                    link.send_modern(request).await?
                } else {
                    link.send(request).await?
                };
                if method == "initialize" || method == "server/discover" {
                    if !*modern {
                        *session = session_id(&response)?;
                    }
                    // After a redirect the server lives where the redirects led
                    // (every hop passed the guard): talk to it there from now on.
                    *url = response.url().clone();
                }
                if is_content_type(&response, "text/event-stream") {
                    let mut stream = SseStream::new(response);
                    let mut resumed = 0;
                    loop {
                        match link.answer_from_stream(&mut stream, id).await {
                            // Only the older revisions resume a stream; 2026-07-28 removed it.
                            Err(Fault::StreamEnded)
                                if !*modern
                                    && resumed < MAX_RESUMPTIONS
                                    && stream.last_event_id().is_some() =>
                            {
                                resumed += 1;
                                let response =
                                    resume(link, url, session.as_ref(), protocol.as_ref(), &stream)
                                        .await?;
                                stream.resume(response);
                            }
                            answer => return answer,
                        }
                    }
                } else if is_content_type(&response, "application/json") {
                    let bytes = read_body(&mut response, &mut link.meter).await?;
                    let message = jsonrpc::parse(
                        &bytes,
                        link.max_depth,
                        &mut link.meter,
                        &mut link.duplicate_keys,
                    )?;
                    jsonrpc::answer_to(message, id).unwrap_or_else(|| {
                        Err(Fault::Invalid(
                            "the body holds no response to the request".into(),
                        ))
                    })
                } else {
                    Err(Fault::Invalid(
                        "the response is neither JSON nor an SSE stream".into(),
                    ))
                }
            }
            Transport::Legacy { endpoint, stream } => {
                let request = post(link, endpoint.clone(), body, None, None, None);
                // The POST's own body is only an acknowledgement; the answer comes on the stream.
                drop(link.send(request).await?);
                link.answer_from_stream(stream, id).await
            }
            Transport::Stdio { .. } => unreachable!("answered above"),
        }
    }

    /// Opens the stream a server sends change notifications on: at 2026-07-28
    /// the SSE response of a `subscriptions/listen` request `id` (Basic,
    /// Subscriptions: the long-lived POST-response stream), before it the GET
    /// stream of the session (2025-11-25, Transports §Listening for Messages
    /// from the Server). The legacy HTTP+SSE transport and stdio have no
    /// stream apart from the answers: `Invalid`.
    pub async fn open_stream(
        &mut self,
        link: &mut Link,
        id: u64,
        method: &str,
        params: Option<Value>,
    ) -> Result<SseStream, Fault> {
        let Transport::Streamable {
            url,
            session,
            protocol,
            modern,
        } = self
        else {
            return Err(Fault::Invalid(
                "this transport has no notification stream of its own".into(),
            ));
        };
        let response = if *modern {
            let body = serde_json::to_vec(&jsonrpc::request(id, method, params))
                .expect("a request serialises");
            let routing = Some(Routing { method, name: None });
            let request = post(link, url.clone(), body, None, protocol.as_ref(), routing);
            link.send_modern(request).await?
        } else {
            let mut request = link
                .builder(reqwest::Method::GET, url.clone())
                .header(ACCEPT, "text/event-stream");
            if let Some(session) = session {
                request = request.header("mcp-session-id", session.clone());
            }
            if let Some(protocol) = protocol {
                request = request.header("mcp-protocol-version", protocol.clone());
            }
            link.send(request).await?
        };
        if !is_content_type(&response, "text/event-stream") {
            return Err(Fault::Invalid(
                "the notification stream is not an SSE stream".into(),
            ));
        }
        Ok(SseStream::new(response))
    }

    /// Sends a notification; the server's acknowledgement body is not read.
    pub async fn notify(&mut self, link: &mut Link, method: &str) -> Result<(), Fault> {
        if let Transport::Stdio { pipe, .. } = self {
            return pipe.lock().await.send(&jsonrpc::notification(method)).await;
        }
        let body =
            serde_json::to_vec(&jsonrpc::notification(method)).expect("a notification serialises");
        let request = match self {
            Transport::Streamable {
                url,
                session,
                protocol,
                ..
            } => post(
                link,
                url.clone(),
                body,
                session.as_ref(),
                protocol.as_ref(),
                None,
            ),
            Transport::Legacy { endpoint, .. } => {
                post(link, endpoint.clone(), body, None, None, None)
            }
            Transport::Stdio { .. } => unreachable!("sent above"),
        };
        drop(link.send(request).await?);
        Ok(())
    }

    /// Ends the session: DELETE for Streamable HTTP with a session id (spec
    /// §Session Management), dropping the stream for legacy SSE. Failures are
    /// ignored: the crawl is over either way.
    pub async fn close(self, link: &mut Link) {
        if let Transport::Streamable {
            url,
            session: Some(session),
            protocol,
            ..
        } = self
        {
            let mut request = link
                .builder(reqwest::Method::DELETE, url)
                .header("mcp-session-id", session);
            if let Some(protocol) = protocol {
                request = request.header("mcp-protocol-version", protocol);
            }
            let _ = link.send(request).await;
        }
    }
}

/// Resumes a Streamable HTTP response stream that ended early: waits the
/// server's `retry` delay (bounded), then GETs the endpoint with `Last-Event-ID`
/// (2025-11-25, Transports §Resumability and Redelivery).
async fn resume(
    link: &mut Link,
    url: &Url,
    session: Option<&HeaderValue>,
    protocol: Option<&HeaderValue>,
    stream: &SseStream,
) -> Result<Response, Fault> {
    let delay = stream
        .retry_ms()
        .map_or(DEFAULT_RETRY_DELAY, Duration::from_millis)
        .min(MAX_RETRY_DELAY);
    tokio::time::sleep(delay).await;
    let last = stream
        .last_event_id()
        .and_then(|id| HeaderValue::from_str(id).ok())
        .ok_or(Fault::StreamEnded)?;
    let mut request = link
        .builder(reqwest::Method::GET, url.clone())
        .header(ACCEPT, "text/event-stream")
        .header("last-event-id", last);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session.clone());
    }
    if let Some(protocol) = protocol {
        request = request.header("mcp-protocol-version", protocol.clone());
    }
    let response = link.send(request).await?;
    if !is_content_type(&response, "text/event-stream") {
        return Err(Fault::Invalid(
            "the resumption GET did not open an SSE stream".into(),
        ));
    }
    Ok(response)
}

/// The 401 fault, with the challenge a token request will need.
fn unauthorized(response: &Response) -> Fault {
    let challenge = response
        .headers()
        .get(WWW_AUTHENTICATE)
        .map(|v| String::from_utf8_lossy(&v.as_bytes()[..v.len().min(4096)]).into_owned())
        .unwrap_or_default();
    Fault::Unauthorized { challenge }
}

/// The modern routing headers of one request (2026-07-28, Transports §Standard
/// Request Headers): `Mcp-Method` always, `Mcp-Name` for an addressed method.
struct Routing<'a> {
    method: &'a str,
    name: Option<HeaderValue>,
}

/// The `Mcp-Name` value of `method` (2026-07-28, Transports §Standard Request
/// Headers): `params.name` of `tools/call` and `prompts/get`, `params.uri` of
/// `resources/read`, none for other methods.
fn mcp_name(method: &str, params: Option<&Value>) -> Option<HeaderValue> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    let value = params?.get(key)?.as_str()?;
    HeaderValue::from_str(&header_safe(value)).ok()
}

/// A value as a header carries it (§Value Encoding): printable ASCII without
/// leading or trailing whitespace as is; anything else, and a plain value that
/// looks like the sentinel, as `=?base64?{standard Base64 of the UTF-8}?=`.
fn header_safe(value: &str) -> String {
    use base64::Engine as _;
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        value.to_string()
    } else {
        let encoded = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("=?base64?{encoded}?=")
    }
}

/// A POST of one JSON-RPC message; `routing` adds the modern routing headers.
fn post(
    link: &Link,
    url: Url,
    body: Vec<u8>,
    session: Option<&HeaderValue>,
    protocol: Option<&HeaderValue>,
    routing: Option<Routing<'_>>,
) -> reqwest::RequestBuilder {
    let mut request = link
        .builder(reqwest::Method::POST, url)
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json, text/event-stream")
        .body(body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session.clone());
    }
    if let Some(protocol) = protocol {
        request = request.header("mcp-protocol-version", protocol.clone());
    }
    if let Some(routing) = routing {
        // Method names are ours (ASCII), so this header never needs the Base64 form.
        request = request.header("mcp-method", routing.method);
        if let Some(name) = routing.name {
            request = request.header("mcp-name", name);
        }
    }
    request
}

fn is_content_type(response: &Response, expected: &str) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().to_ascii_lowercase().starts_with(expected))
}

/// The `Mcp-Session-Id` of an `initialize` answer: visible ASCII only (spec
/// §Session Management), and short, since we echo it on every request.
fn session_id(response: &Response) -> Result<Option<HeaderValue>, Fault> {
    let Some(value) = response.headers().get("mcp-session-id") else {
        return Ok(None);
    };
    let bytes = value.as_bytes();
    if bytes.is_empty() || bytes.len() > 1024 || !bytes.iter().all(|b| (0x21..=0x7e).contains(b)) {
        return Err(Fault::Invalid(
            "the Mcp-Session-Id is not 1 to 1024 visible ASCII characters".into(),
        ));
    }
    Ok(Some(value.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_name_is_plain_for_safe_names_and_base64_otherwise() {
        let params = serde_json::json!({"name": "get_weather"});
        let name = mcp_name("tools/call", Some(&params)).unwrap();
        assert_eq!(name, "get_weather");
        assert_eq!(header_safe("wétter"), "=?base64?d8OpdHRlcg==?=");
        assert_eq!(header_safe(" padded"), "=?base64?IHBhZGRlZA==?=");
        assert!(header_safe("=?base64?x?=").starts_with("=?base64?PT9"));
        assert!(mcp_name("tools/list", Some(&params)).is_none());
    }
}
