//! The official MCP Registry read API under `/v0.1` — approved versions only.
//!
//! Shapes follow `schemas/openapi.yaml` (`ServerList`, `ServerResponse`).
//! Pagination is keyset-based on `(name, version)`: a cursor names the last
//! row returned, so a walk returns every row that existed when it started
//! exactly once, however many versions are published meanwhile.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use super::RawServerResponse;
use crate::http::AppState;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::storage::versions::{self, PublicQuery};
use crate::storage::{parse_ts, ts};

/// Routes of the read API.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            Operation::new(
                "/v0.1/servers",
                "List approved server versions",
                Access::Anyone,
            ),
            list_servers,
        )
        .get(
            Operation::new(
                "/v0.1/servers/{name}/versions",
                "List approved versions of a server",
                Access::Anyone,
            ),
            list_server_versions,
        )
        .get(
            Operation::new(
                "/v0.1/servers/{name}/versions/{version}",
                "Get an approved version (or `latest`)",
                Access::Anyone,
            ),
            get_server_version,
        )
}

/// Default and maximum page sizes.
const DEFAULT_LIMIT: i64 = 30;
const MAX_LIMIT: i64 = 100;

/// Query of `GET /v0.1/servers`.
#[derive(Debug, Deserialize, Default)]
pub struct ListParams {
    cursor: Option<String>,
    limit: Option<String>,
    search: Option<String>,
    updated_since: Option<String>,
    version: Option<String>,
}

#[derive(Serialize)]
struct ListResponse<'a> {
    servers: Vec<RawServerResponse<'a>>,
    metadata: ListMetadata,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListMetadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    count: usize,
}

fn encode_cursor(name: &str, version: &str) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(&(name, version)).expect("strings serialise"))
}

fn decode_cursor(cursor: &str) -> Result<(String, String), AppError> {
    URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()
        .and_then(|b| serde_json::from_slice::<(String, String)>(&b).ok())
        .ok_or_else(|| AppError::BadRequest("the cursor is not one this API returned".into()))
}

/// Parses the public query parameters into a storage query.
fn public_query(p: &ListParams) -> Result<PublicQuery, AppError> {
    let limit = match p.limit.as_deref() {
        None | Some("") => DEFAULT_LIMIT,
        Some(l) => l
            .parse::<i64>()
            .ok()
            .filter(|l| (1..=MAX_LIMIT).contains(l))
            .ok_or_else(|| {
                AppError::BadRequest(format!("limit must be an integer from 1 to {MAX_LIMIT}"))
            })?,
    };
    let updated_since = match p.updated_since.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(ts(parse_ts(s).ok_or_else(|| {
            AppError::BadRequest(
                "updated_since must be an RFC 3339 timestamp such as 2025-08-07T13:15:04Z".into(),
            )
        })?)),
    };
    let (latest_only, exact_version) = match p.version.as_deref().filter(|s| !s.is_empty()) {
        None => (false, None),
        Some("latest") => (true, None),
        Some(v) => (false, Some(v.to_string())),
    };
    Ok(PublicQuery {
        after: p
            .cursor
            .as_deref()
            .filter(|c| !c.is_empty())
            .map(decode_cursor)
            .transpose()?,
        limit,
        search: p.search.clone().filter(|s| !s.is_empty()),
        updated_since,
        latest_only,
        exact_version,
        server_name: None,
    })
}

/// `GET /v0.1/servers`: approved server versions, paged.
pub async fn list_servers(
    State(state): State<AppState>,
    Query(params): Query<ListParams>,
    uri: axum::http::Uri,
) -> Result<Response, AppError> {
    let q = public_query(&params)?;
    // Pages are cached by query string and answered from memory while the
    // registry's change marker is unchanged; the marker is read on every
    // request, so a change made by any process is visible at once.
    let marker = versions::change_marker(&state.db).await?;
    let key = uri.query().unwrap_or_default().to_string();
    if let Some(body) = state.page_cache.get(&key, &marker) {
        return Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response());
    }
    let body = render_list(&state, q).await?;
    state.page_cache.put(key, marker, body.clone());
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Renders one page of the list.
async fn render_list(state: &AppState, mut q: PublicQuery) -> Result<axum::body::Bytes, AppError> {
    let limit = q.limit;
    q.limit = limit + 1;
    let rows = versions::list_approved(&state.db, &q).await?;
    let more = rows.len() as i64 > limit;
    let page = &rows[..rows.len().min(limit as usize)];
    let next_cursor = more
        .then(|| {
            page.last()
                .map(|v| encode_cursor(&v.server_name, &v.version))
        })
        .flatten();
    let servers: Vec<RawServerResponse> = page.iter().filter_map(RawServerResponse::of).collect();
    let body = ListResponse {
        metadata: ListMetadata {
            next_cursor,
            count: servers.len(),
        },
        servers,
    };
    Ok(serde_json::to_vec(&body)
        .expect("responses serialise")
        .into())
}

/// `GET /v0.1/servers/{name}/versions`: every approved version of a server, newest first.
pub async fn list_server_versions(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, AppError> {
    let q = PublicQuery {
        limit: 10_000,
        server_name: Some(name.clone()),
        ..PublicQuery::default()
    };
    let mut rows = versions::list_approved(&state.db, &q).await?;
    if rows.is_empty() {
        return Err(AppError::NotFound(format!(
            "no approved server named {name:?}"
        )));
    }
    rows.sort_by(|a, b| b.published_at.cmp(&a.published_at));
    let servers: Vec<RawServerResponse> = rows.iter().filter_map(RawServerResponse::of).collect();
    let body = ListResponse {
        metadata: ListMetadata {
            next_cursor: None,
            count: servers.len(),
        },
        servers,
    };
    Ok(json_bytes(&body))
}

/// `GET /v0.1/servers/{name}/versions/{version|latest}`.
pub async fn get_server_version(
    State(state): State<AppState>,
    Path((name, version)): Path<(String, String)>,
) -> Result<Response, AppError> {
    let q = PublicQuery {
        limit: 1,
        server_name: Some(name.clone()),
        latest_only: version == "latest",
        exact_version: (version != "latest").then(|| version.clone()),
        ..PublicQuery::default()
    };
    let rows = versions::list_approved(&state.db, &q).await?;
    let v = rows.first().ok_or_else(|| {
        AppError::NotFound(format!("no approved version {version:?} of {name:?}"))
    })?;
    Ok(Json(super::server_response(v, None)).into_response())
}

fn json_bytes<T: Serialize>(body: &T) -> Response {
    let bytes = serde_json::to_vec(body).expect("responses serialise");
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_garbage_is_refused() {
        let c = encode_cursor("com.example/a", "1.0.0");
        assert_eq!(
            decode_cursor(&c).unwrap(),
            ("com.example/a".to_string(), "1.0.0".to_string())
        );
        assert!(decode_cursor("not-a-cursor").is_err());
    }

    #[test]
    fn limits_outside_one_to_a_hundred_are_refused() {
        for bad in ["0", "101", "-1", "x"] {
            let p = ListParams {
                limit: Some(bad.into()),
                ..ListParams::default()
            };
            assert!(public_query(&p).is_err(), "{bad}");
        }
        assert_eq!(public_query(&ListParams::default()).unwrap().limit, 30);
    }
}
