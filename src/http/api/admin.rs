//! The admin API: review queue, version detail, decisions, audit log.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::registry::lifecycle::Status;
use crate::review::read::{self, Reader};
use crate::review::{self, Decision, ReviewError};
use crate::storage::audit::{self, AuditFilter};
use crate::storage::versions::{self, VersionFilter, VersionRow};

/// Routes of the admin API.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            Operation::new(
                "/api/v1/admin/queue",
                "Versions awaiting review",
                Access::Reviewer,
            ),
            list_queue,
        )
        .get(
            Operation::new(
                "/api/v1/admin/servers/{name}/versions/{version}",
                "Version detail: server.json, snapshot, findings, diff",
                Access::Reviewer,
            ),
            get_version_detail,
        )
        .post(
            Operation::new(
                "/api/v1/admin/servers/{name}/versions/{version}/{action}",
                "approve | reject | revoke | rescan | reopen",
                Access::Reviewer,
            ),
            decide_version,
        )
        .get(
            Operation::new("/api/v1/audit", "Audit log, newest first", Access::Admin),
            list_audit,
        )
}

impl From<ReviewError> for AppError {
    fn from(e: ReviewError) -> Self {
        match e {
            ReviewError::NotFound(_) => AppError::NotFound(e.to_string()),
            ReviewError::Transition(t) => t.into(),
            ReviewError::Invalid(errors) => AppError::Invalid {
                kind: "invalid-decision",
                detail: "the decision is invalid".into(),
                errors,
            },
            ReviewError::Raced => AppError::Conflict {
                kind: "concurrent-change",
                detail: e.to_string(),
            },
            ReviewError::Read(read) => read.into(),
            ReviewError::Db(db) => db.into(),
            ReviewError::Publish(e) => AppError::Internal(e),
        }
    }
}

/// Query of the review queue.
#[derive(Debug, Deserialize, Default)]
pub struct QueueParams {
    /// Comma-separated statuses (default: in_review, scan_failed, suspended).
    status: Option<String>,
    /// Comma-separated max severities.
    severity: Option<String>,
    /// `age` (oldest first), `newest`, `severity`, `name`.
    sort: Option<String>,
    offset: Option<i64>,
    limit: Option<i64>,
}

/// Parses the queue filter shared by the API and the UI.
pub fn queue_filter(p: &QueueParams) -> Result<VersionFilter, AppError> {
    let statuses = match p.status.as_deref().filter(|s| !s.is_empty()) {
        None => Status::AWAITING_REVIEW.to_vec(),
        Some("all") => Vec::new(),
        Some(list) => list
            .split(',')
            .map(|s| {
                Status::parse(s.trim())
                    .ok_or_else(|| AppError::BadRequest(format!("unknown status {s:?}")))
            })
            .collect::<Result<_, _>>()?,
    };
    let severities = p
        .severity
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    Ok(VersionFilter {
        statuses,
        severities,
        sort: p.sort.clone(),
        offset: p.offset.unwrap_or(0).max(0),
        limit: p.limit.unwrap_or(50).clamp(1, 200),
        ..VersionFilter::default()
    })
}

/// A version as listed in the queue.
pub fn queue_item(v: &VersionRow) -> Value {
    json!({
        "name": v.server_name,
        "version": v.version,
        "status": v.status.as_str(),
        "maxSeverity": v.max_severity,
        "publishedAt": v.published_at,
        "updatedAt": v.updated_at,
    })
}

/// `GET /api/v1/admin/queue`: versions awaiting review.
pub async fn list_queue(
    State(state): State<AppState>,
    principal: Principal,
    Query(params): Query<QueueParams>,
) -> Result<Json<Value>, AppError> {
    principal.require_reviewer()?;
    let filter = queue_filter(&params)?;
    let (rows, total) = versions::list_versions(&state.db, &filter).await?;
    Ok(Json(json!({
        "versions": rows.iter().map(queue_item).collect::<Vec<_>>(),
        "total": total,
        "offset": filter.offset,
        "limit": filter.limit,
    })))
}

/// Everything a reviewer needs about one version, from the read the review
/// page uses too ([`read::read_version`]).
pub async fn version_detail(
    state: &AppState,
    name: &str,
    version: &str,
) -> Result<Value, AppError> {
    let d = read::read_version(&state.db, Reader::Reviewer, name, version).await?;
    let v = &d.version;
    let watched = crate::storage::monitor::read(&state.db, &v.id).await?;
    let remotes = crate::storage::ownership::remotes_of(&state.db, &v.server_id).await?;
    let scan = d.scan.as_ref();
    Ok(json!({
        "name": v.server_name,
        "version": v.version,
        "status": v.status.as_str(),
        "maxSeverity": v.max_severity,
        "publishedAt": v.published_at,
        "updatedAt": v.updated_at,
        "serverJson": d.server_json,
        "scan": scan.map(|s| json!({
            "startedAt": s.row.started_at, "finishedAt": s.row.finished_at, "durationMs": s.row.duration_ms, "error": s.row.error,
        })),
        "snapshot": d.snapshot(),
        "findings": d.findings(),
        "summary": d.report().map(|r| &r.summary),
        "diff": d.diff.as_ref().map(|diff| json!({"against": diff.against.version, "changes": diff.changes})),
        "monitor": watched.as_ref().map(super::monitor::verdict),
        // Who is proven to run each remote (issue 15): card, challenge, domain or unverified.
        "remoteVerification": remotes.iter().map(|r| json!({
            "url": r.url, "verification": r.verification, "verifiedAt": r.verified_at,
        })).collect::<Vec<_>>(),
        "approval": d.approval.as_ref().map(|a| json!({
            "tools": a.tools, "audiences": a.audiences, "note": a.note, "approvedBy": a.approved_by, "approvedAt": a.approved_at,
        })),
    }))
}

/// `GET /api/v1/admin/servers/{name}/versions/{version}`.
pub async fn get_version_detail(
    State(state): State<AppState>,
    principal: Principal,
    Path((name, version)): Path<(String, String)>,
) -> Result<Json<Value>, AppError> {
    principal.require_reviewer()?;
    Ok(Json(version_detail(&state, &name, &version).await?))
}

/// Parses an action name and its JSON body into a decision.
pub fn parse_decision(
    action: &str,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Decision, AppError> {
    Ok(match action {
        "approve" => Decision::Approve(super::parse_body(headers, body)?),
        "reject" => Decision::Reject(super::parse_body(headers, body)?),
        "revoke" => Decision::Revoke(super::parse_body(headers, body)?),
        "rescan" => Decision::Rescan,
        "reopen" => Decision::Reopen(super::parse_body(headers, body)?),
        other => {
            return Err(AppError::NotFound(format!(
                "unknown action {other:?}; use approve, reject, revoke, rescan or reopen"
            )));
        }
    })
}

/// `POST /api/v1/admin/servers/{name}/versions/{version}/{approve|reject|revoke|rescan|reopen}`.
pub async fn decide_version(
    State(state): State<AppState>,
    principal: Principal,
    Path((name, version, action)): Path<(String, String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    principal.require_reviewer()?;
    let decision = parse_decision(&action, &headers, &body)?;
    let v = review::act(
        &state.db,
        &state.allowlists,
        &name,
        &version,
        &principal.actor(),
        decision,
    )
    .await?;
    Ok(Json(queue_item(&v)))
}

/// Query of the audit log.
#[derive(Debug, Deserialize, Default)]
pub struct AuditParams {
    /// Only entries older than this id (the previous page's `nextBefore`).
    before: Option<i64>,
    limit: Option<i64>,
    action: Option<String>,
    actor: Option<String>,
    subject: Option<String>,
}

/// `GET /api/v1/audit`: newest first, paged by id.
pub async fn list_audit(
    State(state): State<AppState>,
    principal: Principal,
    Query(p): Query<AuditParams>,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    let limit = p.limit.unwrap_or(50).clamp(1, 500);
    let filter = AuditFilter {
        before_id: p.before,
        action: p.action.filter(|s| !s.is_empty()),
        actor: p.actor.filter(|s| !s.is_empty()),
        subject: p.subject.filter(|s| !s.is_empty()),
    };
    let rows = audit::list(&state.db, &filter, limit).await?;
    let next = (rows.len() as i64 == limit)
        .then(|| rows.last().map(|r| r.id))
        .flatten();
    Ok(Json(json!({"entries": rows, "nextBefore": next})))
}
