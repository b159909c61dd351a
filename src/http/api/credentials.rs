//! Crawl credentials of one server (`registry::crawl_secrets`): set, show
//! whether set, delete. The secret goes in once and never comes out.
//!
//! Who may: the server's publisher and admins. A reviewer may not (reviewing
//! needs no crawl secret), and another publisher is told the server is not
//! found, as for its versions (`publisher.rs`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::discovery::ClientAuth;
use crate::http::AppState;
use crate::http::auth::Principal;
use crate::http::error::AppError;
use crate::http::openapi::{Access, ApiRouter, Operation};
use crate::registry::crawl_secrets::{self, NewOAuth, SecretError, ServerRef};
use crate::storage::accounts::Role;

/// Routes of the crawl-credentials API.
pub fn router() -> ApiRouter {
    const ALL: &str = "/api/v1/servers/{name}/crawl-credentials";
    const OAUTH: &str = "/api/v1/servers/{name}/crawl-credentials/oauth";
    const HEADER: &str = "/api/v1/servers/{name}/crawl-credentials/headers/{header}";
    ApiRouter::new()
        .get(
            Operation::new(ALL, "Which crawl credentials are set (never their values)", Access::OwnerOrAdmin),
            get_crawl_credentials,
        )
        .put(
            Operation::new(
                OAUTH,
                "Set OAuth client credentials: clientId with clientSecret or privateKey (PKCS#8 PEM)",
                Access::OwnerOrAdmin,
            ),
            set_oauth_credentials,
        )
        .delete(
            Operation::new(OAUTH, "Delete the OAuth client credentials", Access::OwnerOrAdmin),
            delete_oauth_credentials,
        )
        .put(
            Operation::new(
                HEADER,
                "Set the value of a header a version declares isSecret",
                Access::OwnerOrAdmin,
            ),
            set_header_credential,
        )
        .delete(
            Operation::new(HEADER, "Delete a secret header value", Access::OwnerOrAdmin),
            delete_header_credential,
        )
}

impl From<SecretError> for AppError {
    fn from(e: SecretError) -> Self {
        match e {
            SecretError::Invalid(detail) => AppError::Invalid {
                kind: "invalid-crawl-credential",
                detail,
                errors: Vec::new(),
            },
            SecretError::NotFound(detail) => AppError::NotFound(detail),
            SecretError::Vault(_) => AppError::Internal(anyhow::Error::new(e)),
            SecretError::Storage(db) => db.into(),
        }
    }
}

/// The server `name`, if the caller may manage its credentials.
async fn managed_server(
    state: &AppState,
    principal: &Principal,
    name: &str,
) -> Result<ServerRef, AppError> {
    let not_found = || AppError::NotFound(format!("you have no server {name:?}"));
    match principal.role() {
        Role::Admin => {}
        Role::Reviewer => {
            return Err(AppError::Forbidden(
                "crawl credentials are managed by the server's publisher or an admin".into(),
            ));
        }
        Role::Publisher => {
            principal.require_publisher()?;
        }
    }
    let server = crawl_secrets::find_server(&state.db, name)
        .await?
        .ok_or_else(not_found)?;
    if principal.role() == Role::Publisher {
        let publisher = principal.require_publisher()?;
        if server.publisher_id != publisher.id {
            return Err(not_found());
        }
    }
    Ok(server)
}

/// The string members of a JSON object body, by name. Serde's messages quote
/// the offending value, which here may be a secret: every error is generic.
fn body_object(
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<serde_json::Map<String, Value>, AppError> {
    if !super::is_json(headers) {
        return Err(AppError::UnsupportedMediaType(
            "send the body as application/json".into(),
        ));
    }
    let parsed = crate::strict_json::parse(body)
        .map_err(|_| AppError::BadRequest("the body is not valid JSON".into()))?;
    if parsed.duplicate.is_some() {
        return Err(AppError::BadRequest(
            "the body repeats a key, so it has more than one meaning".into(),
        ));
    }
    match parsed.value {
        Value::Object(map) => Ok(map),
        _ => Err(AppError::BadRequest(
            "the body must be a JSON object".into(),
        )),
    }
}

/// Takes the string member `key` (absent: `None`); any other type is refused without echo.
fn take_string(
    map: &mut serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, AppError> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(AppError::BadRequest(format!("{key} must be a string"))),
    }
}

fn refuse_unknown(map: &serde_json::Map<String, Value>, allowed: &str) -> Result<(), AppError> {
    match map.keys().next() {
        Some(key) => Err(AppError::BadRequest(format!(
            "unknown member {:?}; allowed: {allowed}",
            key.chars().take(40).collect::<String>()
        ))),
        None => Ok(()),
    }
}

/// `GET /api/v1/servers/{name}/crawl-credentials`: which credentials are set.
pub async fn get_crawl_credentials(
    State(state): State<AppState>,
    principal: Principal,
    Path(name): Path<String>,
) -> Result<Json<Value>, AppError> {
    let server = managed_server(&state, &principal, &name).await?;
    Ok(Json(crawl_secrets::summary(&state.db, &server).await?))
}

/// `PUT /api/v1/servers/{name}/crawl-credentials/oauth`:
/// `{"clientId": …, "clientSecret": …}` or `{"clientId": …, "privateKey": PEM}`.
pub async fn set_oauth_credentials(
    State(state): State<AppState>,
    principal: Principal,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    let server = managed_server(&state, &principal, &name).await?;
    let mut map = body_object(&headers, &body)?;
    let client_id = take_string(&mut map, "clientId")?
        .ok_or_else(|| AppError::BadRequest("clientId is required".into()))?;
    let secret = take_string(&mut map, "clientSecret")?;
    let key = take_string(&mut map, "privateKey")?;
    refuse_unknown(&map, "clientId, clientSecret, privateKey")?;
    let auth = match (secret, key) {
        (Some(secret), None) => ClientAuth::Secret(secret),
        (None, Some(pem)) => ClientAuth::PrivateKey(pem),
        _ => {
            return Err(AppError::BadRequest(
                "give exactly one of clientSecret and privateKey".into(),
            ));
        }
    };
    crawl_secrets::set_oauth(
        &state.db,
        &state.crawl_secrets,
        &server,
        NewOAuth { client_id, auth },
        &principal.actor(),
    )
    .await?;
    answer_after_set(&state, &server, &principal).await
}

/// Rescans the versions whose scan failed (the new credentials may be what
/// they lacked) and answers the summary with `rescanned`: those versions.
async fn answer_after_set(
    state: &AppState,
    server: &ServerRef,
    principal: &Principal,
) -> Result<Json<Value>, AppError> {
    let rescanned =
        crawl_secrets::rescan_failed(&state.db, &state.allowlists, server, &principal.actor())
            .await?;
    let mut summary = crawl_secrets::summary(&state.db, server).await?;
    summary["rescanned"] = serde_json::json!(rescanned);
    Ok(Json(summary))
}

/// `DELETE /api/v1/servers/{name}/crawl-credentials/oauth`.
pub async fn delete_oauth_credentials(
    State(state): State<AppState>,
    principal: Principal,
    Path(name): Path<String>,
) -> Result<StatusCode, AppError> {
    let server = managed_server(&state, &principal, &name).await?;
    crawl_secrets::delete(
        &state.db,
        &server,
        crawl_secrets::OAUTH,
        "",
        &principal.actor(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT /api/v1/servers/{name}/crawl-credentials/headers/{header}`: `{"value": …}`
/// for a header a version declares `isSecret`.
pub async fn set_header_credential(
    State(state): State<AppState>,
    principal: Principal,
    Path((name, header)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    let server = managed_server(&state, &principal, &name).await?;
    let mut map = body_object(&headers, &body)?;
    let value = take_string(&mut map, "value")?
        .ok_or_else(|| AppError::BadRequest("value is required".into()))?;
    refuse_unknown(&map, "value")?;
    crawl_secrets::set_header(
        &state.db,
        &state.crawl_secrets,
        &server,
        &header,
        value,
        &principal.actor(),
    )
    .await?;
    answer_after_set(&state, &server, &principal).await
}

/// `DELETE /api/v1/servers/{name}/crawl-credentials/headers/{header}`.
pub async fn delete_header_credential(
    State(state): State<AppState>,
    principal: Principal,
    Path((name, header)): Path<(String, String)>,
) -> Result<StatusCode, AppError> {
    let server = managed_server(&state, &principal, &name).await?;
    crawl_secrets::delete(
        &state.db,
        &server,
        crawl_secrets::HEADER,
        &header,
        &principal.actor(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
