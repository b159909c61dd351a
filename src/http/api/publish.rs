//! `POST /v0/publish`: the official registry's publish endpoint.

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::registry::publish;

/// Largest accepted server.json.
pub const MAX_BODY: usize = 256 * 1024;

/// How much of an oversized body is still read (and discarded) before answering 413.
const DRAIN_LIMIT: usize = 1024 * 1024;

/// Routes of the publish API.
pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        Operation::new(
            "/v0/publish",
            "Publish a server.json (official registry format)",
            Access::Publisher,
        )
        .body("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json")
        .success("201", "Stored as pending; official ServerResponse shape"),
        publish_server,
    )
}

/// Validates and stores a server.json; 201 with the official entry shape.
pub async fn publish_server(
    State(state): State<AppState>,
    principal: Principal,
    request: Request,
) -> Result<Response, AppError> {
    let publisher = principal.require_publisher()?.clone();
    if !super::is_json(request.headers()) {
        return Err(AppError::UnsupportedMediaType(
            "a server.json must be sent as application/json".into(),
        ));
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY + DRAIN_LIMIT) {
        return Err(AppError::PayloadTooLarge(MAX_BODY));
    }
    // The limit is enforced while reading too, for bodies without a length. A
    // modestly oversized body is read to its end before the 413, so that the
    // client sees the answer instead of a connection reset mid-upload.
    let body = match axum::body::to_bytes(request.into_body(), MAX_BODY + DRAIN_LIMIT).await {
        Ok(body) if body.len() <= MAX_BODY => body,
        _ => return Err(AppError::PayloadTooLarge(MAX_BODY)),
    };
    let row = publish::publish(&state.db, &state.net, &publisher, &body).await?;
    let location = format!(
        "{}/api/v1/publisher/servers/{}/versions/{}",
        state.public_url,
        percent_encoding::utf8_percent_encode(&row.server_name, percent_encoding::NON_ALPHANUMERIC),
        percent_encoding::utf8_percent_encode(&row.version, percent_encoding::NON_ALPHANUMERIC)
    );
    let body = super::server_response(
        &row,
        Some((
            "io.gatehouse/review",
            json!({"status": row.status.as_str()}),
        )),
    );
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(body),
    )
        .into_response())
}
