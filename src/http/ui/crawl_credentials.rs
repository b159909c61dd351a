//! The publisher portal's crawl-credentials page: set or delete the OAuth
//! client credentials and the secret header values of one's own server
//! (`registry::crawl_secrets`, the code path of the JSON API). The page shows
//! only whether each is set, the client id, method, bound issuer, when and by
//! whom; a value typed into a form is never rendered back, not even when the
//! form is refused.

use askama::Template;
use axum::Router;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde_json::Value;

use super::session::{CsrfForm, Flash, PageCtx, PublisherUser};
use super::text::{self, Text};
use super::{UiError, enc, html, short_ts};
use crate::discovery::ClientAuth;
use crate::http::AppState;
use crate::http::error::AppError;
use crate::registry::crawl_secrets::{self, NewOAuth, SecretError, ServerRef};

/// Routes of the page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/publisher/servers/{name}/crawl-credentials",
        get(show_credentials).post(change_credentials),
    )
}

/// One secret header a version declares.
struct HeaderView {
    name: Text,
    /// The name as the form posts it (header-name characters only).
    raw: String,
    set: bool,
    set_at: String,
    set_by: Text,
}

#[derive(Template)]
#[template(path = "publisher/credentials.html")]
struct CredentialsPage {
    page: PageCtx,
    name: Text,
    action: String,
    oauth_set: bool,
    client_id: Text,
    method: Text,
    issuer: Text,
    has_issuer: bool,
    set_at: String,
    set_by: Text,
    headers: Vec<HeaderView>,
}

fn page_url(name: &str) -> String {
    format!("/publisher/servers/{}/crawl-credentials", enc(name))
}

/// The publisher's own server `name` (another's is reported absent).
async fn own_server(
    state: &AppState,
    publisher: &crate::storage::accounts::Publisher,
    name: &str,
) -> Result<ServerRef, UiError> {
    let not_found = || UiError::NotFound(format!("you have no server {name:?}"));
    let server = crawl_secrets::find_server(&state.db, name)
        .await
        .map_err(|e| UiError::App(AppError::from(e)))?
        .ok_or_else(not_found)?;
    if server.publisher_id != publisher.id {
        return Err(not_found());
    }
    Ok(server)
}

fn text_of(value: &Value) -> Text {
    text::visible(value.as_str().unwrap_or(""))
}

/// `GET /publisher/servers/{name}/crawl-credentials`.
async fn show_credentials(
    State(state): State<AppState>,
    PublisherUser(session, publisher): PublisherUser,
    Path(name): Path<String>,
) -> Result<Response, UiError> {
    let server = own_server(&state, &publisher, &name).await?;
    let summary = crawl_secrets::summary(&state.db, &server)
        .await
        .map_err(|e| UiError::App(AppError::from(e)))?;
    let page = session
        .page(
            &state,
            format!("Crawl credentials of {}", server.name),
            "portal",
        )
        .await?;
    let oauth = &summary["oauth"];
    html(&CredentialsPage {
        page,
        name: text::visible(&server.name),
        action: page_url(&server.name),
        oauth_set: oauth["set"] == true,
        client_id: text_of(&oauth["clientId"]),
        method: text_of(&oauth["method"]),
        issuer: text_of(&oauth["issuer"]),
        has_issuer: oauth["issuer"].is_string(),
        set_at: oauth["setAt"].as_str().map(short_ts).unwrap_or_default(),
        set_by: text_of(&oauth["setBy"]),
        headers: summary["headers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| HeaderView {
                name: text_of(&h["name"]),
                raw: h["name"].as_str().unwrap_or("").to_string(),
                set: h["set"] == true,
                set_at: h["setAt"].as_str().map(short_ts).unwrap_or_default(),
                set_by: text_of(&h["setBy"]),
            })
            .collect(),
    })
}

/// `POST /publisher/servers/{name}/crawl-credentials`: `op` is `set-oauth`,
/// `delete-oauth`, `set-header` or `delete-header`.
async fn change_credentials(
    State(state): State<AppState>,
    PublisherUser(_, publisher): PublisherUser,
    Path(name): Path<String>,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let server = own_server(&state, &publisher, &name).await?;
    let actor = format!("publisher:{}", publisher.name);
    let result = match form.get("op").unwrap_or("") {
        "set-oauth" => {
            let secret = form.get("client_secret").unwrap_or("").to_string();
            let key = form.get("private_key").unwrap_or("").trim().to_string();
            let auth = match (secret.is_empty(), key.is_empty()) {
                (false, true) => Ok(ClientAuth::Secret(secret)),
                (true, false) => Ok(ClientAuth::PrivateKey(key)),
                _ => Err(SecretError::Invalid(
                    "Give either a client secret or a private key.".into(),
                )),
            };
            match auth {
                Ok(auth) => {
                    let new = NewOAuth {
                        client_id: form.text("client_id"),
                        auth,
                    };
                    crawl_secrets::set_oauth(&state.db, &state.crawl_secrets, &server, new, &actor)
                        .await
                        .map(|_| "OAuth client credentials stored.")
                }
                Err(e) => Err(e),
            }
        }
        "delete-oauth" => {
            crawl_secrets::delete(&state.db, &server, crawl_secrets::OAUTH, "", &actor)
                .await
                .map(|_| "OAuth client credentials deleted.")
        }
        "set-header" => crawl_secrets::set_header(
            &state.db,
            &state.crawl_secrets,
            &server,
            &form.text("header"),
            form.get("value").unwrap_or("").to_string(),
            &actor,
        )
        .await
        .map(|_| "Header value stored."),
        "delete-header" => crawl_secrets::delete(
            &state.db,
            &server,
            crawl_secrets::HEADER,
            &form.text("header"),
            &actor,
        )
        .await
        .map(|_| "Header value deleted."),
        _ => Err(SecretError::Invalid("Unknown action.".into())),
    };
    let flash = match result {
        Ok(done) if form.get("op").is_some_and(|op| op.starts_with("set-")) => {
            let rescanned =
                crawl_secrets::rescan_failed(&state.db, &state.allowlists, &server, &actor)
                    .await
                    .map_err(|e| UiError::App(AppError::from(e)))?;
            if rescanned.is_empty() {
                Flash::ok(done)
            } else {
                Flash::ok(format!(
                    "{done} The failed scan of {} was queued again.",
                    rescanned.join(", ")
                ))
            }
        }
        Ok(done) => Flash::ok(done),
        Err(SecretError::Invalid(why) | SecretError::NotFound(why)) => Flash::error(why),
        Err(e) => return Err(UiError::App(AppError::from(e))),
    };
    form.session.flash(&state, flash).await?;
    Ok(Redirect::to(&page_url(&server.name)).into_response())
}
