//! Operations endpoints: liveness, readiness, metrics, OpenAPI.

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::AppState;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::registry::lifecycle::Status;
use crate::storage::versions;

/// Routes of the operations endpoints.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            Operation::new("/healthz", "Liveness", Access::Anyone),
            healthz,
        )
        .get(
            Operation::new("/readyz", "Readiness (database reachable)", Access::Anyone),
            readyz,
        )
        .get(
            Operation::new("/metrics", "Prometheus metrics", Access::Anyone),
            metrics,
        )
        .get(
            Operation::new(
                "/openapi.json",
                "This document: every route but the web UI's",
                Access::Anyone,
            ),
            openapi,
        )
}

/// Liveness: the process answers.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({"status": "ok"}))
}

/// Readiness: the database answers.
pub async fn readyz(State(state): State<AppState>) -> Response {
    if state.db.ping().await {
        Json(json!({"status": "ready"})).into_response()
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "database unreachable"})),
        )
            .into_response()
    }
}

/// Prometheus/OpenMetrics text.
pub async fn metrics(State(state): State<AppState>) -> Result<Response, AppError> {
    let counts = versions::count_by_status(&state.db).await?;
    let mut extra = String::from(
        "# TYPE gatehouse_versions gauge\n# HELP gatehouse_versions Versions by status.\n",
    );
    for status in Status::ALL {
        let n = counts
            .iter()
            .find(|(s, _)| *s == status)
            .map(|(_, n)| *n)
            .unwrap_or(0);
        extra.push_str(&format!(
            "gatehouse_versions{{status=\"{}\"}} {n}\n",
            status.as_str()
        ));
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics.render(&extra),
    )
        .into_response())
}

/// The OpenAPI document of this API.
pub async fn openapi() -> Json<serde_json::Value> {
    Json(crate::http::openapi_document().clone())
}

/// Unknown paths answer problem+json 404.
pub async fn not_found() -> AppError {
    AppError::NotFound("no such endpoint".into())
}
