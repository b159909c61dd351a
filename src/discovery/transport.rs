//! The two HTTP transports of the MCP specification, as a client that asks one
//! question at a time.
//!
//! - Streamable HTTP (spec 2025-11-25, "Transports" §Streamable HTTP): every
//!   message is a POST to the one endpoint; the answer is a JSON body or an SSE
//!   stream carrying it; `Mcp-Session-Id` from the `initialize` answer and
//!   `MCP-Protocol-Version` go on every later request; the session is DELETEd
//!   at the end.
//! - HTTP+SSE (spec 2024-11-05): a GET opens an SSE stream whose first
//!   `endpoint` event names the URL to POST messages to; answers arrive as
//!   `message` events on the stream.
//!
//! Timeouts are not applied here: the crawler wraps every call in the earlier
//! of the request timeout and the crawl deadline, and dropping a call's future
//! cancels it cleanly (a partially read chunk is never consumed).

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderValue};
use reqwest::{Response, Url};
use serde_json::Value;

use super::http::{Fault, Meter, check_peer, check_url, describe, read_body};
use super::jsonrpc;
use super::policy::NetPolicy;
use super::sse::SseStream;

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
    /// Pointers of duplicate keys seen in messages since the crawler last took
    /// them (it records each as a `duplicate_key` anomaly).
    pub duplicate_keys: Vec<String>,
}

impl Link {
    /// A request carrying the caller's headers; protocol headers are added after them.
    fn builder(&self, method: reqwest::Method, url: Url) -> reqwest::RequestBuilder {
        self.client
            .request(method, url)
            .headers(self.headers.clone())
    }

    async fn send(&mut self, request: reqwest::RequestBuilder) -> Result<Response, Fault> {
        let response = request.send().await.map_err(|e| describe(&e))?;
        check_peer(&response, &self.policy)?;
        if !response.status().is_success() {
            return Err(Fault::Status(response.status().as_u16()));
        }
        Ok(response)
    }

    /// Reads SSE events until the answer to `id` arrives; other messages are skipped.
    async fn answer_from_stream(
        &mut self,
        stream: &mut SseStream,
        id: u64,
    ) -> Result<Value, Fault> {
        loop {
            let Some(event) = stream.next(&mut self.meter).await? else {
                return Err(Fault::Invalid(
                    "the SSE stream ended before the response".into(),
                ));
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
        /// The negotiated version, sent as `MCP-Protocol-Version` after `initialize`.
        protocol: Option<HeaderValue>,
    },
    /// Legacy HTTP+SSE.
    Legacy {
        /// Where messages are POSTed (from the `endpoint` event).
        endpoint: Url,
        /// The stream answers arrive on.
        stream: Box<SseStream>,
    },
}

impl Transport {
    /// A Streamable HTTP transport for `url` (nothing is sent yet).
    pub fn streamable(url: Url) -> Transport {
        Transport::Streamable {
            url,
            session: None,
            protocol: None,
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
        let body = serde_json::to_vec(&jsonrpc::request(id, method, params))
            .expect("a request serialises");
        match self {
            Transport::Streamable {
                url,
                session,
                protocol,
            } => {
                let request = post(link, url.clone(), body, session.as_ref(), protocol.as_ref());
                let mut response = link.send(request).await?;
                if method == "initialize" {
                    *session = session_id(&response)?;
                    // After a redirect the session lives where the redirects led
                    // (every hop passed the guard): talk to it there from now on.
                    *url = response.url().clone();
                }
                if is_content_type(&response, "text/event-stream") {
                    let mut stream = SseStream::new(response);
                    link.answer_from_stream(&mut stream, id).await
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
                let request = post(link, endpoint.clone(), body, None, None);
                // The POST's own body is only an acknowledgement; the answer comes on the stream.
                drop(link.send(request).await?);
                link.answer_from_stream(stream, id).await
            }
        }
    }

    /// Sends a notification; the server's acknowledgement body is not read.
    pub async fn notify(&mut self, link: &mut Link, method: &str) -> Result<(), Fault> {
        let body =
            serde_json::to_vec(&jsonrpc::notification(method)).expect("a notification serialises");
        let request = match self {
            Transport::Streamable {
                url,
                session,
                protocol,
            } => post(link, url.clone(), body, session.as_ref(), protocol.as_ref()),
            Transport::Legacy { endpoint, .. } => post(link, endpoint.clone(), body, None, None),
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

fn post(
    link: &Link,
    url: Url,
    body: Vec<u8>,
    session: Option<&HeaderValue>,
    protocol: Option<&HeaderValue>,
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
