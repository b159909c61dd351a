//! The signed documents clients trust: `/v1/allowlist`, the roots, the JWKS,
//! and the (unsigned, convenience) Claude Code export.
//!
//! The allowlist is served from memory as the exact signed bytes, with a strong
//! ETag and `Cache-Control: no-cache` so clients revalidate every time and get
//! a cheap 304 when nothing changed.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tower_http::cors::{Any, CorsLayer};

use crate::allowlist::{ApprovedServer, Risk, claude_code_managed_settings};
use crate::http::AppState;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::review::valid_audience;
use crate::storage::parse_ts;

/// Routes of the signed documents.
pub fn router() -> ApiRouter {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::HEAD, Method::OPTIONS])
        .allow_headers([header::IF_NONE_MATCH])
        .expose_headers([header::ETAG])
        .max_age(Duration::from_secs(3600));
    ApiRouter::new()
        .get(
            Operation::new(
                "/v1/allowlist",
                "The signed allowlist of an audience (`?audience=`, default `default`); strong ETag, 304 on If-None-Match",
                Access::Anyone,
            ),
            get_allowlist,
        )
        .get(
            Operation::new("/v1/root.json", "The current signed root document", Access::Anyone),
            get_current_root,
        )
        .get(
            Operation::new(
                "/v1/root/{n}.json",
                "Signed root document number n, for walking from a pinned root",
                Access::Anyone,
            )
            .served_at("/v1/root/{file}"),
            get_root_version,
        )
        .get(
            Operation::new(
                "/.well-known/jwks.json",
                "Current public keys (informational)",
                Access::Anyone,
            ),
            get_jwks,
        )
        .get(
            Operation::new(
                "/v1/exports/claude-code",
                "Claude Code managed settings for an audience's approved servers (unsigned convenience)",
                Access::Anyone,
            ),
            get_claude_code_export,
        )
        .map_router(|r| r.layer(cors))
}

/// `?audience=` (default `default`).
#[derive(Debug, Deserialize, Default)]
pub struct AudienceParam {
    audience: Option<String>,
}

impl AudienceParam {
    fn name(&self) -> Result<String, AppError> {
        let a = self
            .audience
            .clone()
            .filter(|a| !a.is_empty())
            .unwrap_or_else(|| "default".into());
        if !valid_audience(&a) {
            return Err(AppError::BadRequest(
                "an audience is 1-64 characters of a-z, 0-9, '-', '_' or '.'".into(),
            ));
        }
        Ok(a)
    }
}

/// `GET /v1/allowlist[?audience=A]`: the signed DSSE envelope; 304 on a matching `If-None-Match`.
pub async fn get_allowlist(
    State(state): State<AppState>,
    Query(q): Query<AudienceParam>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let audience = q.name()?;
    let doc = state
        .allowlists
        .document(&state.db, &audience)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("no allowlist for the audience {audience:?}")))?;
    let etag = HeaderValue::from_str(&doc.etag).expect("hex is a valid header value");
    let cache = HeaderValue::from_static("no-cache");
    if none_match(&headers, &doc.etag) {
        return Ok((
            StatusCode::NOT_MODIFIED,
            [(header::ETAG, etag), (header::CACHE_CONTROL, cache)],
        )
            .into_response());
    }
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::ETAG, etag),
            (header::CACHE_CONTROL, cache),
        ],
        doc.bytes.clone(),
    )
        .into_response())
}

/// Whether `If-None-Match` matches `etag` (RFC 9110 §13.1.2): `*`, or any
/// listed tag equal under the *weak* comparison, which is the one a GET uses:
/// `W/"x"` matches `"x"` and `W/"x"`, because the opaque tags are compared
/// with the weakness indicators removed (§8.8.3.2). Several headers count as one list.
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    let ours = opaque_tag(etag);
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|t| t == "*" || (!t.is_empty() && opaque_tag(t) == ours))
}

/// An entity tag without its weakness indicator.
fn opaque_tag(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

fn json_bytes(bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes,
    )
        .into_response()
}

/// `GET /v1/root.json`: the newest signed root.
pub async fn get_current_root(State(state): State<AppState>) -> Result<Response, AppError> {
    let bytes = state
        .allowlists
        .with_keys(|k| k.root_document(k.root_version()));
    let bytes = bytes
        .map_err(|e| AppError::Internal(e.into()))?
        .ok_or_else(|| AppError::NotFound("no root".into()))?;
    Ok(json_bytes(bytes))
}

/// `GET /v1/root/{n}.json`: root version `n`, for clients walking rotations.
pub async fn get_root_version(
    State(state): State<AppState>,
    Path(file): Path<String>,
) -> Result<Response, AppError> {
    let not_found = || AppError::NotFound(format!("no root document {file:?}"));
    let n: u64 = file
        .strip_suffix(".json")
        .and_then(|n| n.parse().ok())
        .ok_or_else(not_found)?;
    let bytes = state
        .allowlists
        .with_keys(|k| k.root_document(n))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(json_bytes(bytes.ok_or_else(not_found)?))
}

/// `GET /.well-known/jwks.json`: the current public keys (informational).
pub async fn get_jwks(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(state.allowlists.with_keys(|k| k.jwks()))
}

/// `GET /v1/exports/claude-code?audience=A`: managed-settings `allowedMcpServers`
/// for the audience's approved servers. Unsigned: a convenience for
/// administrators, not something a client should trust over the allowlist.
pub async fn get_claude_code_export(
    State(state): State<AppState>,
    Query(q): Query<AudienceParam>,
) -> Result<Json<serde_json::Value>, AppError> {
    let audience = q.name()?;
    if state
        .allowlists
        .document(&state.db, &audience)
        .await?
        .is_none()
    {
        return Err(AppError::NotFound(format!(
            "no allowlist for the audience {audience:?}"
        )));
    }
    let rows = crate::storage::allowlists::listed_versions(&state.db, &audience).await?;
    let servers: Vec<ApprovedServer> = rows
        .into_iter()
        .map(|r| ApprovedServer {
            name: r.server_name,
            version: r.version,
            approved_at: r
                .approved_at
                .as_deref()
                .and_then(parse_ts)
                .unwrap_or_default(),
            server_json: serde_json::from_str(&r.server_json).unwrap_or_default(),
            tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
            instructions: None,
            risk: Risk::default(),
        })
        .collect();
    let mut body = claude_code_managed_settings(&servers);
    body["_comment"] = serde_json::json!(
        "Unsigned convenience export of the Gatehouse allowlist; verify /v1/allowlist for the signed source of truth."
    );
    Ok(Json(body))
}
