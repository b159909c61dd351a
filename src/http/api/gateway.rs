//! What gateways tell the registry: `POST /api/v1/gateway/drift` reports that
//! a capability an approved server serves no longer matches its pin (issue 16).
//! The registry does not take the gateway's word for the drift: it queues a
//! monitor rescan of the version, which crawls the server itself and applies
//! the drift policy (`monitor::run_rescan`). So a report can only make the
//! registry look sooner, never change a decision.
//!
//! Reporting needs a reviewer or admin token (a rescan is a reviewer's action).
//! A report for a version that already has a rescan waiting queues nothing.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

use super::parse_body;
use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::storage::audit::{self, AuditEntry};
use crate::storage::{jobs, versions};

/// Longest name, hash or version accepted in a report.
const MAX_FIELD: usize = 512;

/// Routes of the gateway reports.
pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        Operation::new(
            "/api/v1/gateway/drift",
            "A gateway reports drift from a pin ({server, version, kind, name, expected, found}); queues a monitor rescan",
            Access::Reviewer,
        ),
        report_drift,
    )
}

/// A drift report.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriftReport {
    server: String,
    version: String,
    kind: String,
    name: String,
    expected: String,
    #[serde(default)]
    found: Option<String>,
}

/// `POST /api/v1/gateway/drift`: 202 with `{"queued": bool, "jobId"?}`.
pub async fn report_drift(
    State(state): State<AppState>,
    principal: Principal,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), AppError> {
    principal.require_reviewer()?;
    let report: DriftReport = parse_body(&headers, &body)?;
    let fields = [
        &report.server,
        &report.version,
        &report.kind,
        &report.name,
        &report.expected,
    ];
    if fields.iter().any(|f| f.is_empty() || f.len() > MAX_FIELD)
        || report.found.as_ref().is_some_and(|f| f.len() > MAX_FIELD)
    {
        return Err(AppError::BadRequest(format!(
            "server, version, kind, name and expected are 1 to {MAX_FIELD} characters"
        )));
    }
    if !["tool", "prompt", "resource"].contains(&report.kind.as_str()) {
        return Err(AppError::BadRequest(
            "kind is tool, prompt or resource".into(),
        ));
    }
    let version = versions::get_version(&state.db, &report.server, &report.version)
        .await?
        .ok_or_else(|| AppError::NotFound("no such server version".into()))?;
    if !crate::monitor::applies(&version) {
        return Err(AppError::Conflict {
            kind: "not-monitored",
            detail:
                "only an approved or suspended version with a remote is rescanned by the monitor"
                    .into(),
        });
    }
    let mut tx = state.db.begin().await?;
    let queued = if jobs::has_open(&mut tx, jobs::kinds::MONITOR, &version.id).await? {
        None
    } else {
        Some(jobs::enqueue(&mut tx, jobs::kinds::MONITOR, &version.id).await?)
    };
    let subject = format!("{}@{}", version.server_name, version.version);
    audit::append(
        &mut tx,
        AuditEntry {
            actor: &principal.actor(),
            action: "version.drift_reported",
            subject: &subject,
            version_id: Some(&version.id),
            detail: json!({
                "kind": report.kind,
                "name": report.name,
                "expected": report.expected,
                "found": report.found,
                "queued": queued.is_some(),
            }),
        },
    )
    .await?;
    tx.commit().await?;
    tracing::info!(server = %version.server_name, version = %version.version, queued = queued.is_some(), "gateway reported drift");
    let mut answer = json!({"queued": queued.is_some()});
    if let Some(id) = queued {
        answer["jobId"] = json!(id);
    }
    Ok((StatusCode::ACCEPTED, Json(answer)))
}
