//! Administrator pages: publishers with their namespaces and tokens, users,
//! signing keys and the audit log. Reviewers get 403 on every one of them
//! ([`Admin`] decides per request).
//!
//! Creating a publisher goes through `cli::admin::create_publisher`, the same
//! function as `gatehouse publisher create`; tokens and users through
//! `storage::accounts`, each with its audit row in the same transaction. A new
//! token is shown exactly once: it travels to the next page in the session's
//! one-shot flash, which that page clears.

use askama::Template;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::session::{Admin, CsrfForm, Flash, PageCtx};
use super::text::{self, Text};
use super::{UiError, html, short_ts};
use crate::http::AppState;
use crate::registry::{credentials, server_json};
use crate::storage::accounts::{self, Role};
use crate::storage::audit::{self, AuditEntry, AuditFilter};

/// Routes of the administrator pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/publishers",
            get(show_publishers).post(create_publisher),
        )
        .route(
            "/admin/publishers/{id}/tokens",
            post(create_publisher_token),
        )
        .route("/admin/tokens/{id}/revoke", post(revoke_token))
        .route("/admin/users", get(show_users).post(create_user))
        .route("/admin/keys", get(show_keys))
        .route("/admin/keys/rotate", post(rotate_keys))
        .route("/admin/audit", get(show_audit))
}

struct TokenView {
    id: String,
    label: Text,
    role: &'static str,
    created: String,
    revoked: Option<String>,
}

struct PublisherView {
    id: String,
    name: Text,
    namespaces: Vec<Text>,
    tokens: Vec<TokenView>,
}

#[derive(Template)]
#[template(path = "admin/publishers.html")]
struct PublishersPage {
    page: PageCtx,
    publishers: Vec<PublisherView>,
    staff_tokens: Vec<TokenView>,
}

fn token_view(t: &accounts::TokenInfo) -> TokenView {
    TokenView {
        id: t.id.clone(),
        label: text::visible(&t.label),
        role: t.role.as_str(),
        created: short_ts(&t.created_at),
        revoked: t.revoked_at.as_deref().map(short_ts),
    }
}

/// `GET /admin/publishers`: publishers, namespaces and every token (never a secret).
async fn show_publishers(
    State(state): State<AppState>,
    Admin(session): Admin,
) -> Result<Response, UiError> {
    let page = session
        .page(&state, "Publishers and tokens", "publishers")
        .await?;
    let tokens = accounts::list_tokens(&state.db).await?;
    let publishers = accounts::list_publishers(&state.db)
        .await?
        .into_iter()
        .map(|p| PublisherView {
            tokens: tokens
                .iter()
                .filter(|t| t.publisher_id.as_deref() == Some(p.id.as_str()))
                .map(token_view)
                .collect(),
            id: p.id,
            name: text::visible(&p.name),
            namespaces: p.namespaces.iter().map(|n| text::visible(n)).collect(),
        })
        .collect();
    html(&PublishersPage {
        page,
        publishers,
        staff_tokens: tokens
            .iter()
            .filter(|t| t.publisher_id.is_none())
            .map(token_view)
            .collect(),
    })
}

/// Whether an account name is acceptable (the CLI's rule).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// `POST /admin/publishers`: a new publisher and its first token (shown once).
async fn create_publisher(
    State(state): State<AppState>,
    Admin(_): Admin,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let name = form.text("name");
    let namespaces: Vec<String> = form
        .text("namespaces")
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect();
    let flash = if !valid_name(&name) {
        Flash::error("A publisher name is 1-64 characters of letters, digits, '.', '_' or '-'.")
    } else if namespaces.is_empty() || !namespaces.iter().all(|n| server_json::valid_prefix(n)) {
        Flash::error("Give one or more reverse-DNS namespaces such as com.example.")
    } else {
        match crate::cli::admin::create_publisher(
            &state.db,
            &name,
            &namespaces,
            &form.session.actor(),
        )
        .await
        {
            Ok((token, _)) => Flash {
                kind: "ok".into(),
                text: format!(
                    "Publisher {name} created for {}. Copy its token now: it is shown only once.",
                    namespaces.join(", ")
                ),
                secret: Some(token),
            },
            Err(e) if e.to_string().contains("already exists") => Flash::error(e.to_string()),
            Err(e) => return Err(UiError::App(e.into())),
        }
    };
    form.session.flash(&state, flash).await?;
    Ok(Redirect::to("/admin/publishers").into_response())
}

/// `POST /admin/publishers/{id}/tokens`: another token for a publisher (shown once).
async fn create_publisher_token(
    State(state): State<AppState>,
    Admin(_): Admin,
    Path(id): Path<String>,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let publisher = accounts::publisher_by_id(&state.db, &id)
        .await?
        .ok_or_else(|| UiError::NotFound("no such publisher".into()))?;
    let token = credentials::generate_token();
    let mut tx = state.db.begin().await?;
    accounts::insert_token(
        &mut tx,
        &credentials::hash_token(&token),
        Role::Publisher,
        Some(&publisher.id),
        &publisher.name,
    )
    .await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor: &form.session.actor(),
            action: "token.create",
            subject: &format!("publisher:{}", publisher.name),
            version_id: None,
            detail: serde_json::json!({"role": "publisher"}),
        },
    )
    .await?;
    tx.commit().await?;
    form.session
        .flash(
            &state,
            Flash {
                kind: "ok".into(),
                text: format!(
                    "New token for {}. Copy it now: it is shown only once.",
                    publisher.name
                ),
                secret: Some(token),
            },
        )
        .await?;
    Ok(Redirect::to("/admin/publishers").into_response())
}

/// `POST /admin/tokens/{id}/revoke`.
async fn revoke_token(
    State(state): State<AppState>,
    Admin(_): Admin,
    Path(id): Path<String>,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let mut tx = state.db.begin().await?;
    let revoked = accounts::revoke_token(&mut tx, &id).await?;
    if revoked {
        audit::append(
            &mut tx,
            AuditEntry {
                actor: &form.session.actor(),
                action: "token.revoke",
                subject: &format!("token:{id}"),
                version_id: None,
                detail: serde_json::json!({}),
            },
        )
        .await?;
    }
    tx.commit().await?;
    form.session
        .flash(
            &state,
            if revoked {
                Flash::ok("Token revoked; it no longer authenticates anything.")
            } else {
                Flash::error("That token does not exist or was already revoked.")
            },
        )
        .await?;
    Ok(Redirect::to("/admin/publishers").into_response())
}

struct UserView {
    name: Text,
    role: String,
}

#[derive(Template)]
#[template(path = "admin/users.html")]
struct UsersPage {
    page: PageCtx,
    users: Vec<UserView>,
}

/// `GET /admin/users`.
async fn show_users(
    State(state): State<AppState>,
    Admin(session): Admin,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Users", "users").await?;
    let users = crate::storage::sessions::list_users(&state.db)
        .await?
        .into_iter()
        .map(|u| UserView {
            name: text::visible(&u.name),
            role: u.role,
        })
        .collect();
    html(&UsersPage { page, users })
}

/// `POST /admin/users`: a reviewer or admin with a password of 12+ characters.
async fn create_user(
    State(state): State<AppState>,
    Admin(_): Admin,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let name = form.text("name");
    let password = form.get("password").unwrap_or("").to_string();
    let role = match form.text("role").as_str() {
        "admin" => Role::Admin,
        _ => Role::Reviewer,
    };
    let flash = if !valid_name(&name) {
        Flash::error("A user name is 1-64 characters of letters, digits, '.', '_' or '-'.")
    } else if password.chars().count() < credentials::MIN_PASSWORD_CHARS {
        Flash::error("The password must have at least 12 characters.")
    } else {
        let hash = tokio::task::spawn_blocking(move || credentials::hash_password(&password))
            .await
            .map_err(anyhow::Error::new)?;
        let mut tx = state.db.begin().await?;
        match accounts::insert_user(&mut tx, &name, &hash, role).await {
            Ok(_) => {
                audit::append(
                    &mut tx,
                    AuditEntry {
                        actor: &form.session.actor(),
                        action: "user.create",
                        subject: &format!("user:{name}"),
                        version_id: None,
                        detail: serde_json::json!({"role": role.as_str()}),
                    },
                )
                .await?;
                tx.commit().await?;
                Flash::ok(format!("User {name} ({}) created.", role.as_str()))
            }
            Err(e) if crate::storage::is_unique_violation(&e) => {
                Flash::error(format!("A user named {name} already exists."))
            }
            Err(e) => return Err(e.into()),
        }
    };
    form.session.flash(&state, flash).await?;
    Ok(Redirect::to("/admin/users").into_response())
}

#[derive(Template)]
#[template(path = "admin/keys.html")]
struct KeysPage {
    page: PageCtx,
    public_url: String,
    root_version: u64,
    root_keyid: String,
    allowlist_keyid: String,
    audiences: Vec<(String, i64, String)>,
}

/// `GET /admin/keys`: where the signing keys and the root of trust are published.
async fn show_keys(
    State(state): State<AppState>,
    Admin(session): Admin,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Signing keys", "keys").await?;
    let (root_version, root_keyid, allowlist_keyid) = state
        .allowlists
        .with_keys(|k| (k.root_version(), k.root_keyid(), k.allowlist_keyid()));
    let audiences = crate::storage::allowlists::audience_versions(&state.db)
        .await?
        .into_iter()
        .map(|a| (a.audience, a.version, a.updated_at))
        .collect();
    html(&KeysPage {
        page,
        public_url: state.public_url.to_string(),
        root_version,
        root_keyid,
        allowlist_keyid,
        audiences,
    })
}

/// `POST /admin/keys/rotate`: a new allowlist key, the next root, every document re-signed.
async fn rotate_keys(
    State(state): State<AppState>,
    Admin(_): Admin,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let flash = match state
        .allowlists
        .rotate_allowlist_key(&state.db, &form.session.actor())
        .await
    {
        Ok(v) => Flash::ok(format!(
            "Allowlist key rotated; root version {v} published and every allowlist re-signed."
        )),
        Err(e) => {
            tracing::error!(error = %format!("{e:#}"), "key rotation failed");
            Flash::error(
                "The rotation failed; the previous key is still in use. See the server log.",
            )
        }
    };
    form.session.flash(&state, flash).await?;
    Ok(Redirect::to("/admin/keys").into_response())
}

/// Query of the audit page.
#[derive(Debug, Default, Deserialize)]
struct AuditQuery {
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    actor: Option<String>,
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    before: Option<i64>,
}

struct AuditView {
    id: i64,
    at: String,
    actor: Text,
    action: Text,
    subject: Text,
    detail: Text,
}

#[derive(Template)]
#[template(path = "admin/audit.html")]
struct AuditPage {
    page: PageCtx,
    rows: Vec<AuditView>,
    actions: Vec<String>,
    action: String,
    actor: String,
    subject: String,
    next_url: Option<String>,
}

/// Rows per audit page.
const AUDIT_PAGE: i64 = 50;

/// `GET /admin/audit`: newest first, filtered by action, actor and subject.
async fn show_audit(
    State(state): State<AppState>,
    Admin(session): Admin,
    Query(q): Query<AuditQuery>,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Audit log", "audit").await?;
    let clean = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let filter = AuditFilter {
        before_id: q.before,
        action: clean(q.action),
        actor: clean(q.actor),
        subject: clean(q.subject),
    };
    let rows = audit::list(&state.db, &filter, AUDIT_PAGE).await?;
    let next_url = (rows.len() as i64 == AUDIT_PAGE)
        .then(|| rows.last().map(|r| r.id))
        .flatten()
        .map(|id| {
            format!(
                "/admin/audit?action={}&actor={}&subject={}&before={id}",
                super::enc(filter.action.as_deref().unwrap_or("")),
                super::enc(filter.actor.as_deref().unwrap_or("")),
                super::enc(filter.subject.as_deref().unwrap_or("")),
            )
        });
    html(&AuditPage {
        page,
        rows: rows
            .iter()
            .map(|r| AuditView {
                id: r.id,
                at: short_ts(&r.at),
                actor: text::visible(&r.actor),
                action: text::visible(&r.action),
                subject: text::visible(&r.subject),
                detail: text::visible(&r.detail.to_string()),
            })
            .collect(),
        actions: crate::storage::audit::actions(&state.db).await?,
        action: filter.action.unwrap_or_default(),
        actor: filter.actor.unwrap_or_default(),
        subject: filter.subject.unwrap_or_default(),
        next_url,
    })
}
