//! Remote-URL ownership (issue 15): a publisher's challenge token for an
//! origin, a publisher's own webhook (it hears `taken_over`), and the admin
//! setting that requires verified remotes before approval.
//!
//! - `POST /api/v1/publisher/challenges` `{"origin": "https://mcp.example.com"}`
//!   (or any URL on it): the token this publisher serves, as the whole body of
//!   `GET <origin>/.well-known/gatehouse-challenge`, to prove it runs a remote
//!   there; the same token every time for one publisher and origin.
//! - `POST /api/v1/publisher/webhooks` `{"url", "secret", "events"}`: a
//!   webhook for this publisher's own events.
//! - `GET`/`PUT /api/v1/admin/settings/remote-verification` `{"required": bool}`.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::registry::ownership::{CHALLENGE_PATH, origin_of};
use crate::registry::server_json::FieldError;
use crate::storage::audit::{self, AuditEntry};
use crate::storage::ownership as store;

/// Routes of the ownership API.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            Operation::new(
                "/api/v1/publisher/challenges",
                "The challenge token to serve at /.well-known/gatehouse-challenge on an origin: {origin}",
                Access::Publisher,
            ),
            issue_challenge,
        )
        .post(
            Operation::new(
                "/api/v1/publisher/webhooks",
                "Register a webhook for the caller's own events (taken_over): {url, secret, events}",
                Access::Publisher,
            )
            .success("201", "The webhook (without its secret)"),
            create_publisher_webhook,
        )
        .get(
            Operation::new(
                "/api/v1/admin/settings/remote-verification",
                "Whether approval requires verified remotes",
                Access::Admin,
            ),
            get_verification_setting,
        )
        .put(
            Operation::new(
                "/api/v1/admin/settings/remote-verification",
                "Require verified remotes before approval: {required}",
                Access::Admin,
            ),
            put_verification_setting,
        )
}

/// Body of `POST /api/v1/publisher/challenges`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeRequest {
    #[serde(default)]
    origin: String,
}

async fn issue_challenge(
    State(state): State<AppState>,
    principal: Principal,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    let publisher = principal.require_publisher()?;
    let req: ChallengeRequest = super::parse_body(&headers, &body)?;
    let origin = (req.origin.len() <= 2048)
        .then(|| origin_of(&req.origin))
        .flatten()
        .ok_or_else(|| AppError::Invalid {
            kind: "invalid-origin",
            detail: "the origin is not an http or https URL".into(),
            errors: vec![FieldError {
                pointer: "/origin".into(),
                detail: "give the remote's origin, e.g. https://mcp.example.com".into(),
            }],
        })?;
    let token = store::challenge_token(&state.db, &publisher.id, &origin).await?;
    Ok(Json(json!({
        "origin": origin,
        "token": token,
        "url": format!("{origin}{CHALLENGE_PATH}"),
    })))
}

async fn create_publisher_webhook(
    State(state): State<AppState>,
    principal: Principal,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let publisher = principal.require_publisher()?;
    let req: crate::monitor::webhooks::NewWebhook = super::parse_body(&headers, &body)?;
    let row = crate::monitor::webhooks::create_for(
        &state.db,
        &state.net,
        &principal.actor(),
        Some(&publisher.id),
        req,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": row.id, "url": row.url, "events": row.events, "createdAt": row.created_at})),
    )
        .into_response())
}

async fn get_verification_setting(
    State(state): State<AppState>,
    principal: Principal,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    let required = store::verification_required(&state.db).await?;
    Ok(Json(json!({"required": required})))
}

/// Body of `PUT /api/v1/admin/settings/remote-verification`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct VerificationSetting {
    #[serde(default)]
    required: bool,
}

async fn put_verification_setting(
    State(state): State<AppState>,
    principal: Principal,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    let req: VerificationSetting = super::parse_body(&headers, &body)?;
    let mut tx = state.db.begin().await?;
    store::set_verification_required(&mut tx, req.required, &principal.actor()).await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor: &principal.actor(),
            action: "settings.remote_verification",
            subject: "settings",
            version_id: None,
            detail: json!({"required": req.required}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(json!({"required": req.required})))
}
