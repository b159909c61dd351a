//! The publisher API: a publisher's own submissions, with status and findings.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
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
    let not_found = || AppError::NotFound(format!("you have no version {version:?} of {name:?}"));
    let v = versions::get_version(&state.db, &name, &version)
        .await?
        .ok_or_else(not_found)?;
    // Another publisher's version is reported as absent, not forbidden: its existence is not ours to reveal.
    let owner = crate::storage::accounts::publisher_by_id(&state.db, &publisher.id).await?;
    let server_owner: Option<String> =
        sqlx::query_scalar("SELECT publisher_id FROM servers WHERE id = $1")
            .bind(&v.server_id)
            .fetch_optional(state.db.pool())
            .await?;
    if owner.is_none() || server_owner.as_deref() != Some(publisher.id.as_str()) {
        return Err(not_found());
    }
    let scan = versions::latest_scan(&state.db, &v.id).await?;
    let findings = scan
        .as_ref()
        .and_then(|s| s.report.as_deref())
        .and_then(|r| serde_json::from_str::<Value>(r).ok())
        .map(|r| r["findings"].clone())
        .unwrap_or_else(|| json!([]));
    // Crawl failures' evidence names hosts, addresses and statuses: reviewers only.
    let mut findings = findings;
    if let Some(list) = findings.as_array_mut() {
        for f in list {
            let rule = f["rule"].as_str().unwrap_or_default().to_string();
            if crate::registry::lifecycle::evidence_is_network_detail(&rule) {
                f["evidence"] = json!("");
            }
        }
    }
    Ok(Json(json!({
        "name": v.server_name,
        "version": v.version,
        "status": v.status.as_str(),
        "maxSeverity": v.max_severity,
        "publishedAt": v.published_at,
        "updatedAt": v.updated_at,
        "serverJson": serde_json::from_str::<Value>(&v.server_json).unwrap_or(Value::Null),
        "scan": scan.as_ref().map(|s| json!({"finishedAt": s.finished_at, "durationMs": s.duration_ms, "error": s.error.as_deref().map(crate::registry::lifecycle::publisher_scan_error)})),
        "findings": findings,
    })))
}
