//! The monitor's view for reviewers: versions whose rescan found drift or
//! that were suspended, with the diff from the approved snapshot (issue 14).

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::storage::monitor::{self, MonitorRow};

/// Routes of the monitor API.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            Operation::new(
                "/api/v1/admin/monitor",
                "Approved versions whose rescan changed (with the diff) or that were suspended",
                Access::Reviewer,
            ),
            list_changes,
        )
        .post(
            Operation::new(
                "/api/v1/admin/servers/{name}/monitor",
                "Set a server's rescan interval: {intervalSeconds} (null for the default)",
                Access::Admin,
            ),
            set_interval,
        )
        .get(
            Operation::new(
                "/api/v1/admin/servers/{name}/monitor/policy",
                "A server's drift policy: {onDrift: suspend|narrow, reinstate}",
                Access::Reviewer,
            ),
            get_policy,
        )
        .post(
            Operation::new(
                "/api/v1/admin/servers/{name}/monitor/policy",
                "Set a server's drift policy: {onDrift: suspend|narrow, reinstate} (audited; null members take the default)",
                Access::Admin,
            ),
            set_policy,
        )
}

/// The JSON of a verdict (the `monitor` member of a version's detail too).
pub fn verdict(m: &MonitorRow) -> Value {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
    json!({
        "state": m.state,
        "reason": m.reason,
        "failures": m.failures,
        "lastError": m.last_error,
        "dropped": parse(&m.dropped),
        "diff": m.diff.as_deref().map(parse),
        "introduced": parse(&m.findings),
        "checkedAt": m.checked_at,
        "changedAt": m.changed_at,
    })
}

/// `GET /api/v1/admin/monitor`: the "changed" queue. Re-approve a changed
/// version with `POST …/versions/{version}/approve`.
pub async fn list_changes(
    State(state): State<AppState>,
    principal: Principal,
) -> Result<Json<Value>, AppError> {
    principal.require_reviewer()?;
    let rows = monitor::list_attention(&state.db, 500).await?;
    Ok(Json(json!({
        "versions": rows.iter().map(|r| {
            let mut v = verdict(&r.monitor);
            v["name"] = json!(r.server_name);
            v["version"] = json!(r.version);
            v["status"] = json!(r.status.as_str());
            v
        }).collect::<Vec<_>>(),
    })))
}

/// Body of `POST /api/v1/admin/servers/{name}/monitor`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct IntervalRequest {
    /// Seconds between rescans of this server's approved versions; `null` for the default.
    pub interval_seconds: Option<i64>,
}

/// `POST /api/v1/admin/servers/{name}/monitor`: the server's rescan interval.
pub async fn set_interval(
    State(state): State<AppState>,
    principal: Principal,
    axum::extract::Path(name): axum::extract::Path<String>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    let req: IntervalRequest = super::parse_body(&headers, &body)?;
    let (lo, hi) = crate::monitor::INTERVAL_BOUNDS;
    if let Some(secs) = req.interval_seconds
        && !(lo..=hi).contains(&secs)
    {
        return Err(AppError::Invalid {
            kind: "invalid-interval",
            detail: "the interval is out of bounds".into(),
            errors: vec![crate::registry::server_json::FieldError {
                pointer: "/intervalSeconds".into(),
                detail: format!("between {lo} and {hi} seconds, or null for the default"),
            }],
        });
    }
    let found =
        crate::monitor::set_interval(&state.db, &principal.actor(), &name, req.interval_seconds)
            .await
            .map_err(AppError::Internal)?;
    if !found {
        return Err(AppError::NotFound(format!("no server {name:?}")));
    }
    Ok(Json(
        json!({"name": name, "intervalSeconds": req.interval_seconds}),
    ))
}

/// Body of `POST /api/v1/admin/servers/{name}/monitor/policy`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PolicyRequest {
    /// `suspend` (default) or `narrow`: what a change that introduces a high
    /// or critical finding does.
    pub on_drift: Option<String>,
    /// Whether a matching rescan reinstates a suspended version (default true).
    pub reinstate: Option<bool>,
}

fn policy_json(name: &str, p: &crate::monitor::ServerPolicy) -> Value {
    json!({"name": name, "onDrift": p.on_drift.as_str(), "reinstate": p.reinstate})
}

/// `GET /api/v1/admin/servers/{name}/monitor/policy`.
pub async fn get_policy(
    State(state): State<AppState>,
    principal: Principal,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<Json<Value>, AppError> {
    principal.require_reviewer()?;
    let mut tx = state.db.begin().await?;
    let Some((server_id, _, stored)) =
        crate::storage::versions::find_server(&mut tx, &name).await?
    else {
        return Err(AppError::NotFound(format!("no server {name:?}")));
    };
    let policy = crate::monitor::server_policy(&mut tx, &server_id)
        .await
        .map_err(AppError::Internal)?;
    tx.commit().await?;
    Ok(Json(policy_json(&stored, &policy)))
}

/// `POST /api/v1/admin/servers/{name}/monitor/policy`: the server's drift
/// policy (issue 14: suspend or narrow, reinstate or not), audited.
pub async fn set_policy(
    State(state): State<AppState>,
    principal: Principal,
    axum::extract::Path(name): axum::extract::Path<String>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    let req: PolicyRequest = super::parse_body(&headers, &body)?;
    let on_drift = match req.on_drift.as_deref() {
        None => crate::monitor::OnDrift::Suspend,
        Some(s) => crate::monitor::OnDrift::parse(s).ok_or_else(|| AppError::Invalid {
            kind: "invalid-policy",
            detail: "unknown drift policy".into(),
            errors: vec![crate::registry::server_json::FieldError {
                pointer: "/onDrift".into(),
                detail: "`suspend` or `narrow`".into(),
            }],
        })?,
    };
    let policy = crate::monitor::ServerPolicy {
        on_drift,
        reinstate: req.reinstate.unwrap_or(true),
    };
    let is_default = policy == crate::monitor::ServerPolicy::default();
    let stored = crate::monitor::set_server_policy(
        &state.db,
        &principal.actor(),
        &name,
        (!is_default).then_some(&policy),
    )
    .await
    .map_err(AppError::Internal)?
    .ok_or_else(|| AppError::NotFound(format!("no server {name:?}")))?;
    Ok(Json(policy_json(&stored, &policy)))
}
