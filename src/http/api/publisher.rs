//! The publisher API: a publisher's own submissions, with status and findings.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::review::read::{self, Reader};
use crate::storage::versions::{self, VersionFilter};

/// Routes of the publisher API.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            Operation::new(
                "/api/v1/publisher/versions",
                "List the caller's own versions",
                Access::Publisher,
            ),
            list_own_versions,
        )
        .get(
            Operation::new(
                "/api/v1/publisher/servers/{name}/versions/{version}",
                "Get one of the caller's versions with findings",
                Access::Publisher,
            ),
            get_own_version,
        )
}

/// Paging of the list.
#[derive(Debug, Deserialize)]
pub struct Paging {
    #[serde(default)]
    offset: Option<i64>,
    #[serde(default)]
    limit: Option<i64>,
}

/// `GET /api/v1/publisher/versions`: this publisher's versions, newest first.
pub async fn list_own_versions(
    State(state): State<AppState>,
    principal: Principal,
    Query(paging): Query<Paging>,
) -> Result<Json<Value>, AppError> {
    let publisher = principal.require_publisher()?;
    let limit = paging.limit.unwrap_or(50).clamp(1, 200);
    let offset = paging.offset.unwrap_or(0).max(0);
    let (rows, total) = versions::list_versions(
        &state.db,
        &VersionFilter {
            publisher_id: Some(publisher.id.clone()),
            sort: Some("newest".into()),
            offset,
            limit,
            ..VersionFilter::default()
        },
    )
    .await?;
    let items: Vec<Value> = rows
        .iter()
        .map(|v| {
            json!({
                "name": v.server_name,
                "version": v.version,
                "status": v.status.as_str(),
                "maxSeverity": v.max_severity,
                "publishedAt": v.published_at,
                "updatedAt": v.updated_at,
            })
        })
        .collect();
    Ok(Json(
        json!({"versions": items, "total": total, "offset": offset, "limit": limit}),
    ))
}

/// `GET /api/v1/publisher/servers/{name}/versions/{version}`: one own version with its latest findings.
pub async fn get_own_version(
    State(state): State<AppState>,
    principal: Principal,
    Path((name, version)): Path<(String, String)>,
) -> Result<Json<Value>, AppError> {
    let publisher = principal.require_publisher()?;
    let d =
        read::read_version(&state.db, Reader::Publisher(&publisher.id), &name, &version).await?;
    let v = &d.version;
    Ok(Json(json!({
        "name": v.server_name,
        "version": v.version,
        "status": v.status.as_str(),
        "maxSeverity": v.max_severity,
        "publishedAt": v.published_at,
        "updatedAt": v.updated_at,
        "serverJson": d.server_json,
        "scan": d.scan.as_ref().map(|s| json!({"finishedAt": s.row.finished_at, "durationMs": s.row.duration_ms, "error": s.row.error})),
        "findings": d.findings(),
    })))
}
