//! The signed documents clients trust: `/v1/allowlist`, the roots, the JWKS,
//! and the (unsigned, convenience) Claude Code and GitHub Copilot exports.
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

use crate::allowlist::exports::{self, ExportServer};
use crate::allowlist::{AllowlistPayload, Envelope};
use crate::http::AppState;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::review::valid_audience;
use crate::snapshot::Snapshot;
use crate::storage::{monitor, versions};

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
                "Claude Code managed settings for an audience's approved servers, denying the tools approvals left out (unsigned convenience)",
                Access::Anyone,
            ),
            get_claude_code_export,
        )
        .get(
            Operation::new(
                "/v1/exports/github-copilot",
                "GitHub Copilot managed settings (allowedMcpServers) for an audience's fully approved servers (unsigned convenience)",
                Access::Anyone,
            ),
            get_copilot_export,
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

/// The servers of an audience's signed allowlist, each with every tool the
/// scan its approval rests on found (the tools the approval left out are the
/// difference from its pins).
async fn export_servers(state: &AppState, audience: &str) -> Result<Vec<ExportServer>, AppError> {
    let doc = state
        .allowlists
        .document(&state.db, audience)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("no allowlist for the audience {audience:?}")))?;
    // Our own signed bytes: the payload is read back without re-verifying.
    let envelope = Envelope::from_slice(&doc.bytes)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("stored allowlist: {e}")))?;
    let payload: AllowlistPayload = envelope
        .payload_bytes()
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!(
                "the stored allowlist payload does not parse"
            ))
        })?;
    let mut servers = Vec::new();
    for entry in payload.servers {
        let version = versions::get_version(&state.db, &entry.name, &entry.version).await?;
        let scanned_tools = match version {
            Some(v) => {
                let approved_at = v.approved_at.clone().unwrap_or_default();
                match monitor::approved_scan(&state.db, &v.id, &approved_at).await? {
                    Some(scan) => {
                        serde_json::from_str::<Snapshot>(scan.snapshot.as_deref().unwrap_or("{}"))
                            .map(|s| s.tools.into_iter().map(|t| t.name).collect())
                            .unwrap_or_default()
                    }
                    None => Vec::new(),
                }
            }
            None => Vec::new(),
        };
        servers.push(ExportServer {
            entry,
            scanned_tools,
        });
    }
    Ok(servers)
}

/// `GET /v1/exports/claude-code?audience=A`: Claude Code managed settings for
/// the audience's approved servers: the managed set, `allowedMcpServers` by
/// URL (and exact package command), and a `permissions.deny` rule for every
/// tool an approval left out. Unsigned: a convenience for administrators.
pub async fn get_claude_code_export(
    State(state): State<AppState>,
    Query(q): Query<AudienceParam>,
) -> Result<Json<serde_json::Value>, AppError> {
    let audience = q.name()?;
    let servers = export_servers(&state, &audience).await?;
    let mut body = exports::claude_code(&servers);
    body["_comment"] = serde_json::json!(
        "Unsigned convenience export of the Gatehouse allowlist. Deploy managedMcpServers as managed-mcp.json and the rest as managed-settings.json. Claude Code matches servers by URL and tools by name only: run `gatehouse gateway` to enforce the pins."
    );
    Ok(Json(body))
}

/// `GET /v1/exports/github-copilot?audience=A`: GitHub Copilot enterprise
/// managed settings (`allowedMcpServers` by URL or command); a server with
/// unapproved tools is left out (listed under `_leftOut`), since Copilot
/// cannot deny a single tool.
pub async fn get_copilot_export(
    State(state): State<AppState>,
    Query(q): Query<AudienceParam>,
) -> Result<Json<serde_json::Value>, AppError> {
    let audience = q.name()?;
    let servers = export_servers(&state, &audience).await?;
    let mut body = exports::copilot(&servers);
    body["_comment"] = serde_json::json!(
        "Unsigned convenience export of the Gatehouse allowlist, for Copilot's managed-settings.json. Copilot matches servers only, never tools or their definitions: run `gatehouse gateway` to enforce the pins."
    );
    Ok(Json(body))
}
