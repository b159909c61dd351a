//! The server-rendered web UI: `/admin/…` for reviewers and administrators,
//! `/publisher/…` for publishers, `/static/…` for its own CSS and JS.
//!
//! Every page is an askama template over a plain view model; everything a
//! scanned server or a publisher wrote reaches a template only through
//! [`text::Text`] (invisible and control characters turned into visible
//! markers) and askama's HTML escaping — no template uses `|safe`.
//!
//! Every state change is a POST carrying the session's CSRF token
//! ([`session::CsrfForm`]), goes through the same function as the JSON API
//! and the command line (`review::act`, `registry::publish::publish`, the
//! `accounts` service), and answers with a redirect to a GET page.

pub mod admin;
pub mod charts;
pub mod crawl_credentials;
pub mod manage;
pub mod publisher;
pub mod session;
pub mod text;

use askama::Template;
use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use tower_http::set_header::SetResponseHeaderLayer;

use super::AppState;
use super::error::AppError;
use crate::review::ReviewError;

/// The Content-Security-Policy of UI pages: only our own scripts and styles
/// (no inline script or style at all), forms post only to us, never framed.
pub const UI_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Routes of the web UI, with its own CSP (the API keeps `default-src 'none'`).
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(session::router())
        .merge(admin::router())
        .merge(manage::router())
        .merge(publisher::router())
        .merge(crawl_credentials::router())
        .route("/static/{file}", get(static_file))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(UI_CSP),
        ))
        // Pages carry CSRF tokens and reviewer data: never cache them.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
}

/// The static assets, compiled into the binary so that a deployment is one file.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../../../static/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../static/app.js"),
    ),
];

/// `GET /static/{file}`.
async fn static_file(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, content_type, body)) => (
            [
                (header::CONTENT_TYPE, *content_type),
                (header::CACHE_CONTROL, "public, max-age=300"),
            ],
            *body,
        )
            .into_response(),
        None => UiError::NotFound("no such file".into()).into_response(),
    }
}

/// Everything that can end a UI request early. Renders as an HTML page (or a
/// redirect to the sign-in page), never as problem+json.
#[derive(Debug, thiserror::Error)]
pub enum UiError {
    /// Not signed in: go to this sign-in page.
    #[error("sign in first")]
    SignIn(String),
    /// Signed in without the right, or a failed CSRF check.
    #[error("{0}")]
    Forbidden(String),
    /// No such page or object.
    #[error("{0}")]
    NotFound(String),
    /// Too many failed sign-ins.
    #[error("{0}")]
    TooManyRequests(String),
    /// Malformed form.
    #[error("{0}")]
    BadRequest(String),
    /// Anything from the shared HTTP edge (conflicts, database, …).
    #[error(transparent)]
    App(#[from] AppError),
}

impl From<sqlx::Error> for UiError {
    fn from(e: sqlx::Error) -> Self {
        UiError::App(e.into())
    }
}

impl From<anyhow::Error> for UiError {
    fn from(e: anyhow::Error) -> Self {
        UiError::App(AppError::Internal(e))
    }
}

impl From<askama::Error> for UiError {
    fn from(e: askama::Error) -> Self {
        UiError::App(AppError::Internal(
            anyhow::Error::new(e).context("rendering a template"),
        ))
    }
}

impl From<crate::review::read::ReadError> for UiError {
    fn from(e: crate::review::read::ReadError) -> Self {
        UiError::App(e.into())
    }
}

impl From<ReviewError> for UiError {
    fn from(e: ReviewError) -> Self {
        UiError::App(e.into())
    }
}

impl UiError {
    /// The HTTP status of this error.
    pub fn status_code(&self) -> StatusCode {
        match self {
            UiError::SignIn(_) => StatusCode::SEE_OTHER,
            UiError::Forbidden(_) => StatusCode::FORBIDDEN,
            UiError::NotFound(_) => StatusCode::NOT_FOUND,
            UiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            UiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            UiError::App(e) => e.status_code(),
        }
    }
}

/// The error page.
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    status: u16,
    title: String,
    detail: String,
}

impl IntoResponse for UiError {
    fn into_response(self) -> Response {
        if let UiError::SignIn(to) = &self {
            return Redirect::to(to).into_response();
        }
        let status = self.status_code();
        let (title, detail) = match &self {
            UiError::App(e) => {
                e.log();
                (e.title(), e.detail())
            }
            other => (
                status.canonical_reason().unwrap_or("Error"),
                other.to_string(),
            ),
        };
        let page = ErrorPage {
            status: status.as_u16(),
            title: title.to_string(),
            detail,
        };
        match page.render() {
            Ok(html) => (status, Html(html)).into_response(),
            Err(_) => (status, "error").into_response(),
        }
    }
}

/// Renders a template into a 200 HTML response.
pub fn html<T: Template>(page: &T) -> Result<Response, UiError> {
    Ok(Html(page.render()?).into_response())
}

/// Characters escaped in a path segment or query value: everything but the
/// RFC 3986 unreserved set, so `/`, `?`, `&`, `#` and `%` never leak through.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes a path segment or query value (server names contain `/`).
pub fn enc(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, SEGMENT).to_string()
}

/// The UI address of a version's review page.
pub fn review_url(name: &str, version: &str) -> String {
    format!("/admin/servers/{}/versions/{}", enc(name), enc(version))
}

/// A stored timestamp shortened for tables (`2026-12-02 13:05`).
pub fn short_ts(ts: &str) -> String {
    let t = ts.get(..16).unwrap_or(ts);
    t.replacen('T', " ", 1)
}

/// How long ago a stored timestamp was, compactly (`5 min`, `3 h`, `2 d`).
pub fn age(ts: &str, now: chrono::DateTime<chrono::Utc>) -> String {
    let Some(at) = crate::storage::parse_ts(ts) else {
        return String::new();
    };
    let secs = (now - at).num_seconds().max(0);
    match secs {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s if s < 86_400 => format!("{} h", s / 3600),
        s => format!("{} d", s / 86_400),
    }
}
