//! Browser sessions, sign-in and CSRF protection.
//!
//! - The browser holds a random 256-bit session id in an `HttpOnly`,
//!   `SameSite=Strict` cookie (`Secure` when the public URL is https); the
//!   database holds its SHA-256, so a leaked table opens no session.
//! - Sessions end after [`IDLE_TIMEOUT`] without a request and after
//!   [`ABSOLUTE_TIMEOUT`] in any case. Signing in always creates a new id
//!   (no session fixation); signing out deletes the row.
//! - Every session carries a synchroniser CSRF token. Every state-changing
//!   form posts it as `_csrf` and [`CsrfForm`] compares it in constant time
//!   with the token of the session that sent the cookie. The sign-in forms are
//!   protected the same way by an anonymous session created when they are shown.
//! - Sign-in failures are counted per account and per client address in the
//!   database, so the throttle holds across processes. Past a free allowance
//!   per [`FAILURE_WINDOW`] ([`MAX_FAILURES`] for an account, the larger
//!   [`MAX_ADDRESS_FAILURES`] for an address, which many people may share) each
//!   further attempt must wait an exponentially growing delay after the last
//!   failure ([`backoff`]); during it the answer is 429 without checking the
//!   password. It is a backoff, not a lockout: one person's typos cost others
//!   seconds, not 15 minutes. The client address is the connected peer, or
//!   behind a proxy listed in `GATEHOUSE_TRUSTED_PROXIES` the address that
//!   proxy put in `X-Forwarded-For` ([`client_ip`]).

use std::net::SocketAddr;
use std::sync::Arc;

use askama::Template;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Router, body::Bytes};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{Duration, Utc};
use rand::RngCore;
use rand::rngs::OsRng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::UiError;
use crate::http::AppState;
use crate::registry::credentials;
use crate::storage::accounts::{self, Publisher, Role};
use crate::storage::audit::{self, AuditEntry};
use crate::storage::sessions::{self as store, NewSession, SessionKind, SessionRow, UserInfo};
use crate::storage::{now, ts};

/// Name of the session cookie.
pub const COOKIE: &str = "gh_session";
/// A session unused for this long is over.
pub const IDLE_TIMEOUT: Duration = Duration::minutes(30);
/// A session older than this is over, however busy.
pub const ABSOLUTE_TIMEOUT: Duration = Duration::hours(12);
/// Failed sign-ins per account within [`FAILURE_WINDOW`] before the backoff starts.
pub const MAX_FAILURES: i64 = 5;
/// Failed sign-ins per client address within [`FAILURE_WINDOW`] before the backoff starts.
pub const MAX_ADDRESS_FAILURES: i64 = 50;
/// The longest wait the backoff imposes.
pub const MAX_BACKOFF: Duration = Duration::minutes(15);
/// The window of the sign-in throttle.
pub const FAILURE_WINDOW: Duration = Duration::minutes(15);
/// How stale `last_seen_at` may get before a request refreshes it (saves a write per request).
const TOUCH_EVERY: Duration = Duration::seconds(60);
/// Largest form body accepted (a pasted server.json is at most 256 KiB, form-encoded up to 3×).
const MAX_FORM: usize = 1024 * 1024;

/// Routes of sign-in and sign-out.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/login", get(show_login).post(login))
        .route("/admin/logout", post(logout))
        .route(
            "/publisher/login",
            get(show_publisher_login).post(publisher_login),
        )
        .route("/publisher/logout", post(logout))
}

/// A valid session with whoever it speaks for.
#[derive(Debug, Clone)]
pub struct Session {
    /// The stored row.
    pub row: SessionRow,
    /// The user of a `User` session.
    pub user: Option<UserInfo>,
    /// The publisher of a `Publisher` session.
    pub publisher: Option<Publisher>,
}

/// A one-shot message shown on the next page.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Flash {
    /// `ok` or `error`.
    pub kind: String,
    /// The message.
    pub text: String,
    /// A secret shown exactly once (a new token).
    #[serde(default)]
    pub secret: Option<String>,
}

impl Flash {
    /// A success message.
    pub fn ok(text: impl Into<String>) -> Flash {
        Flash {
            kind: "ok".into(),
            text: text.into(),
            secret: None,
        }
    }

    /// An error message.
    pub fn error(text: impl Into<String>) -> Flash {
        Flash {
            kind: "error".into(),
            text: text.into(),
            secret: None,
        }
    }
}

/// What the page frame (`base.html`) needs.
#[derive(Debug, Clone, Default)]
pub struct PageCtx {
    /// Document title.
    pub title: String,
    /// Highlighted navigation entry.
    pub section: &'static str,
    /// Who is signed in (empty when nobody is).
    pub who: String,
    /// `admin`, `reviewer`, `publisher` or empty.
    pub role: &'static str,
    /// The session's CSRF token, for the sign-out form.
    pub csrf: String,
    /// The pending one-shot message.
    pub flash: Option<Flash>,
    /// The publisher portal's frame rather than the admin one.
    pub portal: bool,
}

impl PageCtx {
    /// Whether the signed-in user is an admin (navigation to admin-only pages).
    pub fn is_admin(&self) -> bool {
        self.role == "admin"
    }
}

impl Session {
    /// How the audit log names the person behind this session.
    pub fn actor(&self) -> String {
        match (&self.user, &self.publisher) {
            (Some(u), _) => format!("user:{}", u.name),
            (_, Some(p)) => format!("publisher:{}", p.name),
            _ => "anonymous".into(),
        }
    }

    /// The user's role, when a user is signed in.
    pub fn role(&self) -> Option<Role> {
        self.user.as_ref().and_then(|u| Role::parse(&u.role))
    }

    /// The frame of a page, taking (and clearing) the pending flash message.
    pub async fn page(
        &self,
        state: &AppState,
        title: impl Into<String>,
        section: &'static str,
    ) -> Result<PageCtx, UiError> {
        let flash = match &self.row.flash {
            Some(text) => {
                let mut tx = state.db.begin().await?;
                store::set_flash(&mut tx, &self.row.id_hash, None).await?;
                tx.commit().await?;
                serde_json::from_str(text).ok()
            }
            None => None,
        };
        let (who, role) = match (&self.user, &self.publisher) {
            (Some(u), _) => (
                u.name.clone(),
                match self.role() {
                    Some(Role::Admin) => "admin",
                    _ => "reviewer",
                },
            ),
            (_, Some(p)) => (p.name.clone(), "publisher"),
            _ => (String::new(), ""),
        };
        Ok(PageCtx {
            title: title.into(),
            section,
            who,
            role,
            csrf: self.row.csrf_token.clone(),
            flash,
            portal: self.publisher.is_some(),
        })
    }

    /// Stores a message for the next page.
    pub async fn flash(&self, state: &AppState, flash: Flash) -> Result<(), UiError> {
        let text = serde_json::to_string(&flash).map_err(anyhow::Error::new)?;
        let mut tx = state.db.begin().await?;
        store::set_flash(&mut tx, &self.row.id_hash, Some(&text)).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// A new random secret (session id or CSRF token).
fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Compares two secrets in time independent of where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    // Hashing first makes the comparison length-independent as well.
    let (x, y) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    x.iter()
        .zip(y.iter())
        .fold(0u8, |acc, (p, q)| acc | (p ^ q))
        == 0
}

/// The session id the browser sent, if any.
fn cookie_value(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// The `Set-Cookie` value that hands `id` to the browser (or clears it when `None`).
pub fn session_cookie(state: &AppState, id: Option<&str>) -> HeaderValue {
    let secure = if state.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    let value = match id {
        Some(id) => format!("{COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict{secure}"),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&value).expect("the cookie is ASCII")
}

/// The session of a request, validated (timeouts, disabled accounts, revoked
/// tokens) and cached in the request so extractors share one lookup.
pub async fn current(parts: &mut Parts, state: &AppState) -> Result<Option<Session>, UiError> {
    if let Some(cached) = parts.extensions.get::<Arc<Option<Session>>>() {
        return Ok((**cached).clone());
    }
    let session = match cookie_value(&parts.headers) {
        Some(id) => load(state, &credentials::hash_token(&id)).await?,
        None => None,
    };
    parts.extensions.insert(Arc::new(session.clone()));
    Ok(session)
}

async fn load(state: &AppState, id_hash: &str) -> Result<Option<Session>, UiError> {
    let Some(row) = store::session_by_hash(&state.db, id_hash).await? else {
        return Ok(None);
    };
    let at = Utc::now();
    let expired = |stamp: &str, limit: Duration| {
        crate::storage::parse_ts(stamp).is_none_or(|t| at - t > limit)
    };
    if expired(&row.last_seen_at, IDLE_TIMEOUT) || expired(&row.created_at, ABSOLUTE_TIMEOUT) {
        let mut tx = state.db.begin().await?;
        store::delete_session(&mut tx, id_hash).await?;
        tx.commit().await?;
        return Ok(None);
    }
    let (user, publisher) = match row.kind {
        SessionKind::Anon => (None, None),
        SessionKind::User => {
            let user = match &row.user_id {
                Some(id) => store::user_by_id(&state.db, id).await?,
                None => None,
            };
            if user.is_none() {
                return Ok(None);
            }
            (user, None)
        }
        SessionKind::Publisher => {
            // Revoking the token (or disabling the publisher) ends its sessions.
            let active = match &row.token_id {
                Some(t) => store::token_is_active(&state.db, t).await?,
                None => false,
            };
            let publisher = match (&row.publisher_id, active) {
                (Some(id), true) => accounts::publisher_by_id(&state.db, id).await?,
                _ => None,
            };
            if publisher.is_none() {
                return Ok(None);
            }
            (None, publisher)
        }
    };
    if expired(&row.last_seen_at, TOUCH_EVERY) {
        let mut tx = state.db.begin().await?;
        store::touch_session(&mut tx, id_hash, &ts(at)).await?;
        tx.commit().await?;
    }
    Ok(Some(Session {
        row,
        user,
        publisher,
    }))
}

/// A signed-in admin or reviewer. Anyone else is sent to the sign-in page.
#[derive(Debug, Clone)]
pub struct Reviewer(pub Session);

impl FromRequestParts<AppState> for Reviewer {
    type Rejection = UiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, UiError> {
        match current(parts, state).await? {
            Some(s) if matches!(s.role(), Some(Role::Admin | Role::Reviewer)) => Ok(Reviewer(s)),
            _ => Err(UiError::SignIn(login_redirect(parts))),
        }
    }
}

/// A signed-in admin. Reviewers get 403; anyone else goes to the sign-in page.
#[derive(Debug, Clone)]
pub struct Admin(pub Session);

impl FromRequestParts<AppState> for Admin {
    type Rejection = UiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, UiError> {
        let Reviewer(s) = Reviewer::from_request_parts(parts, state).await?;
        if s.role() == Some(Role::Admin) {
            Ok(Admin(s))
        } else {
            Err(UiError::Forbidden(
                "this page is for administrators; reviewers may review versions only".into(),
            ))
        }
    }
}

/// A publisher signed in to the portal. Anyone else is sent to its sign-in page.
#[derive(Debug, Clone)]
pub struct PublisherUser(pub Session, pub Publisher);

impl FromRequestParts<AppState> for PublisherUser {
    type Rejection = UiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, UiError> {
        match current(parts, state).await? {
            Some(s) => match s.publisher.clone() {
                Some(p) => Ok(PublisherUser(s, p)),
                None => Err(UiError::SignIn("/publisher/login".into())),
            },
            None => Err(UiError::SignIn("/publisher/login".into())),
        }
    }
}

/// The sign-in page, remembering a local page to come back to.
fn login_redirect(parts: &Parts) -> String {
    let target = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/admin");
    if parts.method == axum::http::Method::GET && safe_next(target) {
        format!("/admin/login?next={}", super::enc(target))
    } else {
        "/admin/login".into()
    }
}

/// Whether `next` is a local admin page (no open redirect to another site).
fn safe_next(next: &str) -> bool {
    // Visible ASCII only: the value becomes a Location header.
    next.starts_with("/admin")
        && !next.starts_with("//")
        && !next.contains('\\')
        && next.len() <= 512
        && next.chars().all(|c| c.is_ascii_graphic())
}

/// A url-encoded form whose `_csrf` field matched the session's token.
#[derive(Debug, Clone)]
pub struct CsrfForm {
    /// The session that posted it.
    pub session: Session,
    fields: Vec<(String, String)>,
}

impl CsrfForm {
    /// The first value of a field.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The first value of a field, trimmed, or empty.
    pub fn text(&self, key: &str) -> String {
        self.get(key).unwrap_or("").trim().to_string()
    }

    /// Every value of a repeated field (checkboxes).
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.fields
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether a checkbox was ticked.
    pub fn checked(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| !v.is_empty())
    }
}

impl FromRequest<AppState> for CsrfForm {
    type Rejection = UiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, UiError> {
        let forged = || {
            UiError::Forbidden(
                "the form was not sent from this session (missing or wrong CSRF token); reload the page and try again"
                    .into(),
            )
        };
        let (mut parts, body) = req.into_parts();
        let session = current(&mut parts, state).await?.ok_or_else(forged)?;
        let form_type = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        if !form_type {
            return Err(forged());
        }
        let bytes: Bytes = axum::body::to_bytes(body, MAX_FORM)
            .await
            .map_err(|_| UiError::BadRequest("the form is too large".into()))?;
        let fields: Vec<(String, String)> = url::form_urlencoded::parse(&bytes)
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let sent = fields
            .iter()
            .find(|(k, _)| k == "_csrf")
            .map(|(_, v)| v.as_str())
            .ok_or_else(forged)?;
        if !constant_time_eq(sent, &session.row.csrf_token) {
            return Err(forged());
        }
        Ok(CsrfForm { session, fields })
    }
}

/// The client's address, when the server runs with connect info.
fn peer_ip(parts: &Parts, state: &AppState) -> String {
    let Some(peer) = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
    else {
        return "unknown".into();
    };
    client_ip(peer, &parts.headers, &state.trusted_proxies).to_string()
}

/// The address a request came from: the connected peer, unless the peer is a
/// trusted proxy, in which case `X-Forwarded-For` is read from the right (the
/// entry the nearest proxy appended) past every trusted proxy. The first
/// untrusted entry is the client; entries left of it were written by the
/// client itself and prove nothing. An unparsable entry stops the walk at
/// the last trusted hop.
pub fn client_ip(
    peer: std::net::IpAddr,
    headers: &HeaderMap,
    trusted: &[crate::discovery::Cidr],
) -> std::net::IpAddr {
    let is_trusted = |ip: std::net::IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<std::net::IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !is_trusted(ip) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// How long after the last failure the next attempt must wait, given
/// `failures` in the window and a free allowance of `free`: none within the
/// allowance, then 2 s, 4 s, 8 s … up to [`MAX_BACKOFF`].
pub fn backoff(failures: i64, free: i64) -> Option<Duration> {
    if failures < free {
        return None;
    }
    let doublings = (failures - free + 1).min(20) as u32;
    Some(Duration::seconds(1i64 << doublings).min(MAX_BACKOFF))
}

/// Creates a session of `kind` and returns its id (for the cookie) and CSRF token.
async fn create_session(
    state: &AppState,
    kind: SessionKind,
    user_id: Option<&str>,
    publisher: Option<(&str, &str)>,
    replaces: Option<&str>,
) -> Result<String, UiError> {
    let id = random_secret();
    let at = Utc::now();
    let mut tx = state.db.begin().await?;
    if let Some(old) = replaces {
        store::delete_session(&mut tx, old).await?;
    }
    // Sign-ins are rare enough to carry the cleanup of expired rows.
    if kind != SessionKind::Anon {
        store::purge_expired(
            &mut tx,
            &ts(at - IDLE_TIMEOUT),
            &ts(at - ABSOLUTE_TIMEOUT),
            &ts(at - FAILURE_WINDOW),
        )
        .await?;
    }
    store::insert_session(
        &mut tx,
        NewSession {
            id_hash: &credentials::hash_token(&id),
            kind,
            user_id,
            publisher_id: publisher.map(|p| p.0),
            token_id: publisher.map(|p| p.1),
            csrf_token: &random_secret(),
            at: &ts(at),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// An anonymous session for a sign-in form: the current one, or a new one with its cookie.
async fn anon_session(
    parts: &mut Parts,
    state: &AppState,
) -> Result<(String, Option<HeaderValue>), UiError> {
    if let Some(s) = current(parts, state).await? {
        if s.row.kind == SessionKind::Anon {
            return Ok((s.row.csrf_token, None));
        }
    }
    let id = create_session(state, SessionKind::Anon, None, None, None).await?;
    let row = store::session_by_hash(&state.db, &credentials::hash_token(&id))
        .await?
        .ok_or_else(|| UiError::App(anyhow::anyhow!("a new session vanished").into()))?;
    Ok((row.csrf_token, Some(session_cookie(state, Some(&id)))))
}

/// The sign-in page of either audience.
#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    page: PageCtx,
    publisher: bool,
    name: String,
    next: String,
    error: Option<String>,
}

/// Query of the sign-in page.
#[derive(Debug, Deserialize, Default)]
pub struct LoginQuery {
    /// Where to go after signing in.
    #[serde(default)]
    next: Option<String>,
}

fn login_page(
    csrf: String,
    publisher: bool,
    name: String,
    next: String,
    error: Option<String>,
) -> LoginPage {
    LoginPage {
        page: PageCtx {
            title: if publisher {
                "Publisher sign-in".into()
            } else {
                "Sign in".into()
            },
            csrf,
            portal: publisher,
            ..PageCtx::default()
        },
        publisher,
        name,
        next,
        error,
    }
}

fn with_cookie(mut response: Response, cookie: Option<HeaderValue>) -> Response {
    if let Some(c) = cookie {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

/// `GET /admin/login`.
async fn show_login(
    State(state): State<AppState>,
    Query(q): Query<LoginQuery>,
    req: Request,
) -> Result<Response, UiError> {
    let (mut parts, _) = req.into_parts();
    if let Some(s) = current(&mut parts, &state).await? {
        if s.user.is_some() {
            return Ok(Redirect::to("/admin").into_response());
        }
    }
    let (csrf, cookie) = anon_session(&mut parts, &state).await?;
    let next = q.next.filter(|n| safe_next(n)).unwrap_or_default();
    let page = login_page(csrf, false, String::new(), next, None);
    Ok(with_cookie(super::html(&page)?, cookie))
}

/// `GET /publisher/login`.
async fn show_publisher_login(
    State(state): State<AppState>,
    req: Request,
) -> Result<Response, UiError> {
    let (mut parts, _) = req.into_parts();
    if let Some(s) = current(&mut parts, &state).await? {
        if s.publisher.is_some() {
            return Ok(Redirect::to("/publisher").into_response());
        }
    }
    let (csrf, cookie) = anon_session(&mut parts, &state).await?;
    let page = login_page(csrf, true, String::new(), String::new(), None);
    Ok(with_cookie(super::html(&page)?, cookie))
}

/// How long the caller must still wait before a sign-in attempt is checked,
/// over every scope (`account:…` allows [`MAX_FAILURES`], `ip:…` [`MAX_ADDRESS_FAILURES`]).
async fn throttled(state: &AppState, scopes: &[&str]) -> Result<Option<Duration>, UiError> {
    let now_at = Utc::now();
    let since = ts(now_at - FAILURE_WINDOW);
    let mut wait: Option<Duration> = None;
    for scope in scopes {
        let free = if scope.starts_with("ip:") {
            MAX_ADDRESS_FAILURES
        } else {
            MAX_FAILURES
        };
        let (failures, last) = store::failure_stats(&state.db, scope, &since).await?;
        let (Some(delay), Some(last)) = (backoff(failures, free), last) else {
            continue;
        };
        let Ok(last) = chrono::DateTime::parse_from_rfc3339(&last) else {
            continue;
        };
        let remaining = last.with_timezone(&Utc) + delay - now_at;
        if remaining > Duration::zero() {
            wait = Some(wait.map_or(remaining, |w| w.max(remaining)));
        }
    }
    Ok(wait)
}

/// The refusal text of a throttled sign-in.
fn throttled_message(wait: Duration) -> String {
    let seconds = (wait.num_milliseconds() + 999) / 1000;
    format!(
        "Too many failed sign-ins from this account or address. Try again in {seconds} second{}.",
        if seconds == 1 { "" } else { "s" }
    )
}

async fn record_failure(state: &AppState, scopes: &[&str]) -> Result<(), UiError> {
    let mut tx = state.db.begin().await?;
    store::record_failure(&mut tx, scopes, &now()).await?;
    tx.commit().await?;
    Ok(())
}

/// The answer to a refused sign-in: the form again, with the reason.
fn refused(
    form: &CsrfForm,
    publisher: bool,
    status: StatusCode,
    error: &str,
) -> Result<Response, UiError> {
    let page = login_page(
        form.session.row.csrf_token.clone(),
        publisher,
        if publisher {
            String::new()
        } else {
            form.text("name")
        },
        form.text("next"),
        Some(error.to_string()),
    );
    let mut response = super::html(&page)?;
    *response.status_mut() = status;
    Ok(response)
}

/// `POST /admin/login`: name and password (argon2id) → a new user session.
async fn login(State(state): State<AppState>, req: Request) -> Result<Response, UiError> {
    let (parts, body) = req.into_parts();
    let ip = peer_ip(&parts, &state);
    let form = CsrfForm::from_request(Request::from_parts(parts, body), &state).await?;
    let name = form.text("name");
    let password = form.get("password").unwrap_or("").to_string();
    let account_scope = format!("account:{}", name.to_lowercase());
    let ip_scope = format!("ip:{ip}");
    let scopes = [account_scope.as_str(), ip_scope.as_str()];
    if let Some(wait) = throttled(&state, &scopes).await? {
        return refused(
            &form,
            false,
            StatusCode::TOO_MANY_REQUESTS,
            &throttled_message(wait),
        );
    }
    let user = if name.is_empty() || name.len() > 64 {
        None
    } else {
        accounts::user_by_name(&state.db, &name).await?
    };
    // argon2 is deliberately slow: keep it off the async workers. An unknown
    // name is checked against a dummy hash so it takes as long as a known one.
    let phc = user
        .as_ref()
        .map(|u| u.password_hash.clone())
        .unwrap_or_else(|| credentials::dummy_password_hash().to_string());
    let ok = tokio::task::spawn_blocking(move || credentials::verify_password(&password, &phc))
        .await
        .map_err(anyhow::Error::new)?;
    let Some(user) = user.filter(|_| ok) else {
        record_failure(&state, &scopes).await?;
        return refused(
            &form,
            false,
            StatusCode::UNAUTHORIZED,
            "The name or the password is wrong.",
        );
    };
    let id = create_session(
        &state,
        SessionKind::User,
        Some(user.id.as_str()),
        None,
        Some(form.session.row.id_hash.as_str()),
    )
    .await?;
    let mut tx = state.db.begin().await?;
    store::clear_failures(&mut tx, &account_scope).await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor: &format!("user:{}", user.name),
            action: "session.login",
            subject: &format!("user:{}", user.name),
            version_id: None,
            detail: serde_json::json!({"address": ip}),
        },
    )
    .await?;
    tx.commit().await?;
    let next = form.text("next");
    let to = if safe_next(&next) {
        next
    } else {
        "/admin".into()
    };
    Ok(with_cookie(
        Redirect::to(&to).into_response(),
        Some(session_cookie(&state, Some(&id))),
    ))
}

/// `POST /publisher/login`: a publisher token → a new publisher session.
async fn publisher_login(State(state): State<AppState>, req: Request) -> Result<Response, UiError> {
    let (parts, body) = req.into_parts();
    let ip = peer_ip(&parts, &state);
    let form = CsrfForm::from_request(Request::from_parts(parts, body), &state).await?;
    let ip_scope = format!("ip:{ip}");
    if let Some(wait) = throttled(&state, &[&ip_scope]).await? {
        return refused(
            &form,
            true,
            StatusCode::TOO_MANY_REQUESTS,
            &throttled_message(wait),
        );
    }
    let token = form.text("token");
    let principal = if token.is_empty() || token.len() > 256 {
        None
    } else {
        accounts::principal_by_token_hash(&state.db, &credentials::hash_token(&token)).await?
    };
    let Some((principal, publisher)) = principal
        .filter(|p| p.role == Role::Publisher)
        .and_then(|p| p.publisher.clone().map(|pb| (p, pb)))
    else {
        record_failure(&state, &[&ip_scope]).await?;
        return refused(
            &form,
            true,
            StatusCode::UNAUTHORIZED,
            "This is not a valid publisher token.",
        );
    };
    let id = create_session(
        &state,
        SessionKind::Publisher,
        None,
        Some((publisher.id.as_str(), principal.token_id.as_str())),
        Some(form.session.row.id_hash.as_str()),
    )
    .await?;
    let mut tx = state.db.begin().await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor: &format!("publisher:{}", publisher.name),
            action: "session.login",
            subject: &format!("publisher:{}", publisher.name),
            version_id: None,
            detail: serde_json::json!({"address": ip}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(with_cookie(
        Redirect::to("/publisher").into_response(),
        Some(session_cookie(&state, Some(&id))),
    ))
}

/// `POST /admin/logout`, `POST /publisher/logout`: ends the session.
async fn logout(State(state): State<AppState>, form: CsrfForm) -> Result<Response, UiError> {
    let mut tx = state.db.begin().await?;
    store::delete_session(&mut tx, &form.session.row.id_hash).await?;
    tx.commit().await?;
    let to = if form.session.publisher.is_some() {
        "/publisher/login"
    } else {
        "/admin/login"
    };
    Ok(with_cookie(
        Redirect::to(to).into_response(),
        Some(session_cookie(&state, None)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_after_the_allowance_and_is_capped() {
        assert_eq!(backoff(4, 5), None);
        assert_eq!(backoff(5, 5), Some(Duration::seconds(2)));
        assert_eq!(backoff(6, 5), Some(Duration::seconds(4)));
        assert_eq!(backoff(500, 5), Some(MAX_BACKOFF));
    }

    #[test]
    fn forwarded_addresses_are_believed_only_from_trusted_proxies() {
        let trusted: Vec<crate::discovery::Cidr> = vec!["10.0.0.0/8".parse().unwrap()];
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 203.0.113.7, 10.0.0.3"),
        );
        let proxy: std::net::IpAddr = "10.0.0.2".parse().unwrap();
        let stranger: std::net::IpAddr = "198.51.100.1".parse().unwrap();
        // Past the trusted hops to the first untrusted one; the spoofable left part is ignored.
        assert_eq!(
            client_ip(proxy, &headers, &trusted),
            "203.0.113.7".parse::<std::net::IpAddr>().unwrap()
        );
        assert_eq!(client_ip(stranger, &headers, &trusted), stranger);
        assert_eq!(client_ip(proxy, &headers, &[]), proxy);
    }

    #[test]
    fn secrets_compare_equal_only_when_identical() {
        assert!(constant_time_eq("abc", "abc"));
        assert!(!constant_time_eq("abc", "abd"));
        assert!(!constant_time_eq("abc", "abcd"));
        assert!(!constant_time_eq("", "x"));
    }

    #[test]
    fn only_local_admin_pages_are_followed_after_sign_in() {
        assert!(safe_next("/admin/queue?status=all"));
        assert!(!safe_next("//evil.example/admin"));
        assert!(!safe_next("https://evil.example"));
        assert!(!safe_next("/publisher"));
        assert!(!safe_next("/admin\r\nSet-Cookie: x=1"));
    }

    #[test]
    fn the_session_cookie_is_read_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; gh_session=xyz; b=2"),
        );
        assert_eq!(cookie_value(&h).as_deref(), Some("xyz"));
    }
}
