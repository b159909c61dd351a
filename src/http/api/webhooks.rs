//! `POST/GET /api/v1/admin/webhooks`, `DELETE /api/v1/admin/webhooks/{id}`
//! and the delivery log (admin token; DESIGN.md §5). The secret is accepted,
//! never returned.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::monitor::webhooks::{self, NewWebhook, WebhookError};
use crate::storage::webhooks::{self as store, WebhookRow};

/// Routes of the webhook API.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            Operation::new(
                "/api/v1/admin/webhooks",
                "Register a webhook: {url, secret, events}",
                Access::Admin,
            )
            .success("201", "The webhook (without its secret)"),
            create,
        )
        .get(
            Operation::new(
                "/api/v1/admin/webhooks",
                "Registered webhooks",
                Access::Admin,
            ),
            list,
        )
        .delete(
            Operation::new(
                "/api/v1/admin/webhooks/{id}",
                "Delete a webhook (its delivery log stays)",
                Access::Admin,
            )
            .success("204", "Deleted"),
            remove,
        )
        .get(
            Operation::new(
                "/api/v1/admin/webhooks/{id}/deliveries",
                "A webhook's delivery log, newest first",
                Access::Admin,
            ),
            deliveries,
        )
}

fn hook_json(w: &WebhookRow) -> Value {
    json!({"id": w.id, "url": w.url, "events": w.events, "createdBy": w.created_by, "createdAt": w.created_at})
}

impl From<WebhookError> for AppError {
    fn from(e: WebhookError) -> Self {
        match e {
            WebhookError::Invalid(errors) => AppError::Invalid {
                kind: "invalid-webhook",
                detail: "the webhook is invalid".into(),
                errors,
            },
            WebhookError::Db(e) => e.into(),
        }
    }
}

async fn create(
    State(state): State<AppState>,
    principal: Principal,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    principal.require_admin()?;
    let req: NewWebhook = super::parse_body(&headers, &body)?;
    let row = webhooks::create(&state.db, &state.net, &principal.actor(), req).await?;
    Ok((StatusCode::CREATED, Json(hook_json(&row))).into_response())
}

async fn list(
    State(state): State<AppState>,
    principal: Principal,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    let rows = store::list(&state.db).await?;
    Ok(Json(
        json!({"webhooks": rows.iter().map(hook_json).collect::<Vec<_>>()}),
    ))
}

async fn remove(
    State(state): State<AppState>,
    principal: Principal,
    Path(id): Path<String>,
) -> Result<StatusCode, AppError> {
    principal.require_admin()?;
    if webhooks::delete(&state.db, &principal.actor(), &id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::NotFound(format!("no webhook {id:?}")))
    }
}

async fn deliveries(
    State(state): State<AppState>,
    principal: Principal,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    principal.require_admin()?;
    if !store::exists(&state.db, &id).await? {
        return Err(AppError::NotFound(format!("no webhook {id:?}")));
    }
    let rows = store::deliveries(&state.db, &id, 200).await?;
    Ok(Json(json!({"deliveries": rows})))
}
