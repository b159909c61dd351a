//! JSON API handlers, one file per resource, each exporting `router()` — an
//! [`ApiRouter`], whose table is the OpenAPI document (`http::openapi`).

pub mod admin;
pub mod allowlist;
pub mod credentials;
pub mod gateway;
pub mod monitor;
pub mod ops;
pub mod ownership;
pub mod publish;
pub mod publisher;
pub mod servers;
pub mod webhooks;

use axum::body::Bytes;
use axum::http::HeaderMap;
use axum::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use super::error::AppError;
use super::openapi::ApiRouter;
use crate::storage::versions::VersionRow;

/// Every route of the API, with its table.
pub fn routes() -> ApiRouter {
    // The public read API is meant to be fetched from anywhere, browsers
    // included; nothing there depends on cookies.
    let open_cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([
            axum::http::Method::GET,
            axum::http::Method::HEAD,
            axum::http::Method::OPTIONS,
        ])
        // GitHub Copilot's registry requirements name Authorization and
        // Content-Type (docs.github.com, "Configure an MCP registry", CORS).
        .allow_headers([
            axum::http::header::IF_NONE_MATCH,
            axum::http::header::ACCEPT,
            axum::http::header::AUTHORIZATION,
            axum::http::header::CONTENT_TYPE,
        ])
        .expose_headers([axum::http::header::ETAG])
        .max_age(std::time::Duration::from_secs(3600));
    ApiRouter::new()
        .merge(servers::router().map_router(|r| r.layer(open_cors)))
        .merge(publish::router())
        .merge(publisher::router())
        .merge(admin::router())
        .merge(ops::router())
        .merge(allowlist::router())
        .merge(credentials::router())
        .merge(monitor::router())
        .merge(webhooks::router())
        .merge(ownership::router())
        .merge(gateway::router())
}

/// Whether a request declares a JSON body (`application/json` or `application/*+json`).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_some_and(|m| {
            m == "application/json" || (m.starts_with("application/") && m.ends_with("+json"))
        })
}

/// Parses an optional JSON body into `T` with problem+json errors (empty body = `T::default()`).
pub fn parse_body<T: DeserializeOwned + Default>(
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<T, AppError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    if !is_json(headers) {
        return Err(AppError::UnsupportedMediaType(
            "send the body as application/json".into(),
        ));
    }
    let parsed = crate::strict_json::parse(body)
        .map_err(|e| AppError::BadRequest(format!("invalid JSON body: {e}")))?;
    // One meaning per body: `{"tools": [], "tools": ["all"]}` must not be read
    // one way here and another way by a proxy or an audit reader.
    if let Some(pointer) = parsed.duplicate {
        return Err(AppError::Invalid {
            kind: "duplicate-key",
            detail: format!("the key at {pointer} appears more than once in its object"),
            errors: vec![crate::registry::server_json::FieldError {
                pointer,
                detail: "duplicate key".into(),
            }],
        });
    }
    serde_json::from_value(parsed.value)
        .map_err(|e| AppError::BadRequest(format!("invalid JSON body: {e}")))
}

/// The official `ServerResponse` shape: the server.json verbatim plus registry metadata.
pub fn server_response(v: &VersionRow, extra_meta: Option<(&str, Value)>) -> Value {
    let mut meta = serde_json::Map::new();
    meta.insert(
        "io.modelcontextprotocol.registry/official".into(),
        official_meta(v),
    );
    if let Some((k, val)) = extra_meta {
        meta.insert(k.into(), val);
    }
    let server: Value = serde_json::from_str(&v.server_json).unwrap_or(Value::Null);
    serde_json::json!({"server": server, "_meta": meta})
}

/// `_meta."io.modelcontextprotocol.registry/official"` of a version.
pub fn official_meta(v: &VersionRow) -> Value {
    serde_json::json!({
        "status": "active",
        "publishedAt": v.published_at,
        "updatedAt": v.updated_at,
        "isLatest": v.is_latest,
    })
}

/// Serialisation of a `ServerResponse` that embeds the stored server.json
/// without re-parsing it (the hot path of the public list).
#[derive(serde::Serialize)]
pub struct RawServerResponse<'a> {
    server: &'a RawValue,
    #[serde(rename = "_meta")]
    meta: RawMeta<'a>,
}

#[derive(serde::Serialize)]
struct RawMeta<'a> {
    #[serde(rename = "io.modelcontextprotocol.registry/official")]
    official: OfficialMeta<'a>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct OfficialMeta<'a> {
    status: &'static str,
    published_at: &'a str,
    updated_at: &'a str,
    is_latest: bool,
}

impl<'a> RawServerResponse<'a> {
    /// Borrows a stored version; `None` if its stored JSON is somehow not JSON.
    pub fn of(v: &'a VersionRow) -> Option<Self> {
        let server: &RawValue = serde_json::from_str(&v.server_json).ok()?;
        Some(RawServerResponse {
            server,
            meta: RawMeta {
                official: OfficialMeta {
                    status: "active",
                    published_at: &v.published_at,
                    updated_at: &v.updated_at,
                    is_latest: v.is_latest,
                },
            },
        })
    }
}
