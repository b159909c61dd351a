//! The gateway's Streamable HTTP endpoint, `/mcp` (both eras), and its
//! `/metrics`.
//!
//! - 2025-11-25 (Transports §Streamable HTTP): `initialize` opens a session
//!   (`Mcp-Session-Id`); POSTed requests are answered with a JSON body; GET
//!   with the session id opens the SSE stream its `list_changed`
//!   notifications arrive on; DELETE ends the session.
//! - 2026-07-28 (Transports §Streamable HTTP): no session; every request
//!   carries its version in `_meta`; `subscriptions/listen` is answered with a
//!   long-lived SSE stream: the acknowledgement, then the accepted list changes,
//!   each tagged with `io.modelcontextprotocol/subscriptionId`.
//!
//! Security (2025-11-25, Transports §Security Warning; Security Best
//! Practices §Local MCP Server Compromise): the listener is on loopback by
//! default, and every request's `Host` (and `Origin`, when sent) must name the
//! address the gateway listens on — a page that rebinds its own name to
//! 127.0.0.1 is refused with 403. With a token file every request needs
//! `Authorization: Bearer` with one of its tokens, which chooses the audience.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::server::{self, Caller, codes};
use super::{Gateway, ListKind};

/// Largest request body accepted.
const MAX_BODY_BYTES: usize = 4 << 20;
/// Most open sessions; the oldest is dropped past it.
const MAX_SESSIONS: usize = 10_000;
/// SSE keep-alive comment interval.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// `_meta` key tagging notifications of a subscription (2026-07-28).
const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// One 2025-11-25 session: who opened it.
#[derive(Clone)]
struct SessionInfo {
    caller: Caller,
    token: Option<String>,
}

/// The endpoint's state.
#[derive(Clone)]
pub struct HttpState {
    gateway: Arc<Gateway>,
    sessions: Arc<Mutex<HashMap<String, SessionInfo>>>,
    hosts: Arc<Vec<String>>,
}

/// The `Host` values accepted for a listener on `addr`: the address itself,
/// and for loopback `localhost` and the other loopback spelling, each with the port.
pub fn allowed_hosts(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut hosts = vec![addr.to_string()];
    if addr.ip().is_loopback() {
        hosts.push(format!("localhost:{port}"));
        hosts.push(format!("127.0.0.1:{port}"));
        hosts.push(format!("[::1]:{port}"));
    }
    hosts.sort();
    hosts.dedup();
    hosts
}

/// The router serving `gateway` on a listener bound to `addr`.
pub fn router(gateway: Arc<Gateway>, addr: SocketAddr) -> Router {
    let state = HttpState {
        gateway,
        sessions: Arc::default(),
        hosts: Arc::new(allowed_hosts(addr)),
    };
    Router::new()
        .route(
            "/mcp",
            get(open_stream).post(post_message).delete(end_session),
        )
        .route("/metrics", get(metrics))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Serves until `shutdown` resolves.
pub async fn serve(
    gateway: Arc<Gateway>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let app = router(gateway, addr);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

fn rpc_error(status: StatusCode, code: i64, message: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        server::error(Value::Null, code, message, None).to_string(),
    )
        .into_response()
}

/// DNS-rebinding guard: `Host` must be one of ours; `Origin`, when present,
/// must be `http://` or `https://` one of ours.
fn check_origin(state: &HttpState, headers: &HeaderMap) -> Result<(), Box<Response>> {
    let refused = || {
        Box::new(rpc_error(
            StatusCode::FORBIDDEN,
            codes::INVALID_REQUEST,
            "Forbidden: Host or Origin not allowed",
        ))
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_ascii_lowercase)
        .ok_or_else(refused)?;
    if !state.hosts.contains(&host) {
        return Err(refused());
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().map_err(|_| refused())?.to_ascii_lowercase();
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .ok_or_else(refused)?;
        if !state.hosts.iter().any(|h| h == authority) {
            return Err(refused());
        }
    }
    Ok(())
}

/// The caller of a request: by bearer token when a token file is in use,
/// else the default audience. A 401 when a token is needed and missing or unknown.
fn caller(
    state: &HttpState,
    headers: &HeaderMap,
) -> Result<(Caller, Option<String>), Box<Response>> {
    let gateway = &state.gateway;
    let Some(tokens) = &gateway.options.tokens else {
        let audience = gateway
            .audience(&gateway.options.audience)
            .expect("the default audience exists")
            .clone();
        return Ok((
            Caller {
                client: "anonymous".into(),
                audience,
            },
            None,
        ));
    };
    let unauthorized = || {
        let mut response = rpc_error(
            StatusCode::UNAUTHORIZED,
            codes::INVALID_REQUEST,
            "Unauthorized: a bearer token is required",
        );
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        Box::new(response)
    };
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .ok_or_else(unauthorized)?;
    let identity = tokens.client(token).ok_or_else(unauthorized)?;
    let audience = gateway
        .audience(&identity.audience)
        .expect("every token's audience exists")
        .clone();
    Ok((
        Caller {
            client: identity.name.clone(),
            audience,
        },
        Some(token.to_string()),
    ))
}

fn session_header(headers: &HeaderMap) -> Option<String> {
    headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The session a request names, which must have been opened by the same token.
fn find_session(state: &HttpState, id: &str, token: &Option<String>) -> Option<SessionInfo> {
    let sessions = state.sessions.lock().expect("the session table");
    sessions.get(id).filter(|s| &s.token == token).cloned()
}

/// POST /mcp: one JSON-RPC message.
async fn post_message(State(state): State<HttpState>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(refused) = check_origin(&state, &headers) {
        return *refused;
    }
    let (mut caller, token) = match caller(&state, &headers) {
        Ok(found) => found,
        Err(refused) => return *refused,
    };
    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        return rpc_error(StatusCode::BAD_REQUEST, -32700, "Parse error");
    };
    if message.is_array() {
        return rpc_error(
            StatusCode::BAD_REQUEST,
            codes::INVALID_REQUEST,
            "batches are not supported",
        );
    }
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let modern = server::modern_version(&message).is_some();
    // A session the client names must exist (2025-11-25, §Session Management: 404 otherwise).
    if !modern && let Some(id) = session_header(&headers) {
        match find_session(&state, &id, &token) {
            Some(session) => caller = session.caller,
            None => {
                return rpc_error(
                    StatusCode::NOT_FOUND,
                    codes::INVALID_REQUEST,
                    "Session not found",
                );
            }
        }
    }
    if modern && method == "subscriptions/listen" {
        return listen(caller, message);
    }
    let Some(answer) = server::handle(&state.gateway, &caller, message).await else {
        return StatusCode::ACCEPTED.into_response();
    };
    let mut response = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response();
    if method == "initialize" && !modern && answer.get("result").is_some() {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let mut sessions = state.sessions.lock().expect("the session table");
        if sessions.len() >= MAX_SESSIONS
            && let Some(victim) = sessions.keys().next().cloned()
        {
            sessions.remove(&victim);
        }
        sessions.insert(id.clone(), SessionInfo { caller, token });
        response.headers_mut().insert(
            "mcp-session-id",
            HeaderValue::from_str(&id).expect("hex is a header value"),
        );
    }
    response
}

/// An SSE body: each item is one JSON-RPC message; comments keep it alive.
fn sse(
    first: Option<Value>,
    changes: broadcast::Receiver<ListKind>,
    make: impl Fn(ListKind) -> Option<Value> + Send + 'static,
) -> Response {
    let stream = futures_stream(first, changes, make);
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

/// The stream behind [`sse`], written with a channel so no stream crate is needed.
fn futures_stream(
    first: Option<Value>,
    mut changes: broadcast::Receiver<ListKind>,
    make: impl Fn(ListKind) -> Option<Value> + Send + 'static,
) -> impl futures_core::Stream<Item = Result<Bytes, Infallible>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(16);
    tokio::spawn(async move {
        if let Some(first) = first
            && tx
                .send(Bytes::from(format!("event: message\ndata: {first}\n\n")))
                .await
                .is_err()
        {
            return;
        }
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let chunk = tokio::select! {
                change = changes.recv() => match change {
                    Ok(kind) => match make(kind) {
                        Some(message) => format!("event: message\ndata: {message}\n\n"),
                        None => continue,
                    },
                    // Missed some: say everything changed, the client re-lists.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let mut all = String::new();
                        for kind in ListKind::ALL {
                            if let Some(message) = make(kind) {
                                all.push_str(&format!("event: message\ndata: {message}\n\n"));
                            }
                        }
                        all
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = keep_alive.tick() => ": keep-alive\n\n".to_string(),
            };
            if tx.send(Bytes::from(chunk)).await.is_err() {
                return;
            }
        }
    });
    ReceiverStream(rx)
}

/// A `Stream` over an mpsc receiver.
struct ReceiverStream(tokio::sync::mpsc::Receiver<Bytes>);

impl futures_core::Stream for ReceiverStream {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|item| item.map(Ok))
    }
}

/// `subscriptions/listen` (2026-07-28): acknowledge the list changes asked
/// for (the gateway offers all three), then send them as they happen.
fn listen(caller: Caller, message: Value) -> Response {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let asked = message
        .get("params")
        .and_then(|p| p.get("notifications"))
        .cloned()
        .unwrap_or(json!({}));
    let accepted: Vec<ListKind> = ListKind::ALL
        .into_iter()
        .filter(|k| asked.get(k.filter_key()) == Some(&Value::Bool(true)))
        .collect();
    let mut filter = serde_json::Map::new();
    for kind in &accepted {
        filter.insert(kind.filter_key().into(), Value::Bool(true));
    }
    let ack = json!({
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": {"_meta": {META_SUBSCRIPTION_ID: id}, "notifications": filter},
    });
    let changes = caller.audience.subscribe();
    sse(Some(ack), changes, move |kind| {
        accepted.contains(&kind).then(|| {
            json!({
                "jsonrpc": "2.0",
                "method": kind.notification(),
                "params": {"_meta": {META_SUBSCRIPTION_ID: id}},
            })
        })
    })
}

/// GET /mcp: a 2025-11-25 session's stream of list changes.
async fn open_stream(State(state): State<HttpState>, headers: HeaderMap) -> Response {
    if let Err(refused) = check_origin(&state, &headers) {
        return *refused;
    }
    let token = match caller(&state, &headers) {
        Ok((_, token)) => token,
        Err(refused) => return *refused,
    };
    let Some(id) = session_header(&headers) else {
        return rpc_error(
            StatusCode::METHOD_NOT_ALLOWED,
            codes::INVALID_REQUEST,
            "GET needs an Mcp-Session-Id",
        );
    };
    let Some(session) = find_session(&state, &id, &token) else {
        return rpc_error(
            StatusCode::NOT_FOUND,
            codes::INVALID_REQUEST,
            "Session not found",
        );
    };
    let changes = session.caller.audience.subscribe();
    sse(None, changes, |kind| {
        Some(json!({"jsonrpc": "2.0", "method": kind.notification()}))
    })
}

/// DELETE /mcp: ends a session.
async fn end_session(State(state): State<HttpState>, headers: HeaderMap) -> Response {
    if let Err(refused) = check_origin(&state, &headers) {
        return *refused;
    }
    let token = match caller(&state, &headers) {
        Ok((_, token)) => token,
        Err(refused) => return *refused,
    };
    let Some(id) = session_header(&headers) else {
        return rpc_error(
            StatusCode::BAD_REQUEST,
            codes::INVALID_REQUEST,
            "DELETE needs an Mcp-Session-Id",
        );
    };
    if find_session(&state, &id, &token).is_none() {
        return rpc_error(
            StatusCode::NOT_FOUND,
            codes::INVALID_REQUEST,
            "Session not found",
        );
    }
    state
        .sessions
        .lock()
        .expect("the session table")
        .remove(&id);
    StatusCode::NO_CONTENT.into_response()
}

/// GET /metrics: the decision and drift counters (loopback listeners only,
/// like the rest; behind the same Host check).
async fn metrics(State(state): State<HttpState>, headers: HeaderMap) -> Response {
    if let Err(refused) = check_origin(&state, &headers) {
        return *refused;
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.gateway.decisions.render(),
    )
        .into_response()
}
