//! The publisher portal: submit a `server.json` (pasted, or loaded from a file
//! by a few lines of `static/app.js`) and follow one's own versions with their
//! status and findings.
//!
//! A submission goes through `registry::publish::publish`, the code path of
//! `POST /v0/publish`. A refused document changes nothing, so the form is shown
//! again with the text kept and each problem next to the input (422); an
//! accepted one redirects to the version's page.

use askama::Template;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use chrono::Utc;

use super::admin::FindingView;
use super::session::{CsrfForm, Flash, PageCtx, PublisherUser};
use super::text::{self, Text};
use super::{UiError, age, enc, html, short_ts};
use crate::http::AppState;
use crate::registry::publish::{self, PublishError};
use crate::review::read::{self, Reader};
use crate::storage::versions::{self, VersionFilter};

/// Routes of the portal.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/publisher", get(show_home))
        .route("/publisher/submit", post(submit))
        .route(
            "/publisher/servers/{name}/versions/{version}",
            get(show_version),
        )
}

struct OwnVersion {
    name: Text,
    version: Text,
    url: String,
    status: &'static str,
    severity: String,
    age: String,
}

/// One problem of a refused submission.
struct Problem {
    pointer: Text,
    detail: Text,
}

#[derive(Template)]
#[template(path = "publisher/home.html")]
struct HomePage {
    page: PageCtx,
    namespaces: Vec<Text>,
    versions: Vec<OwnVersion>,
    total: i64,
    draft: String,
    summary: Option<Text>,
    problems: Vec<Problem>,
}

fn own_url(name: &str, version: &str) -> String {
    format!("/publisher/servers/{}/versions/{}", enc(name), enc(version))
}

async fn home(
    state: &AppState,
    page: PageCtx,
    publisher: &crate::storage::accounts::Publisher,
    draft: String,
    summary: Option<String>,
    problems: Vec<Problem>,
) -> Result<HomePage, UiError> {
    let (rows, total) = versions::list_versions(
        &state.db,
        &VersionFilter {
            publisher_id: Some(publisher.id.clone()),
            sort: Some("newest".into()),
            limit: 100,
            ..VersionFilter::default()
        },
    )
    .await?;
    let now = Utc::now();
    Ok(HomePage {
        page,
        namespaces: publisher
            .namespaces
            .iter()
            .map(|n| text::visible(n))
            .collect(),
        versions: rows
            .iter()
            .map(|v| OwnVersion {
                name: text::visible(&v.server_name),
                version: text::visible(&v.version),
                url: own_url(&v.server_name, &v.version),
                status: v.status.as_str(),
                severity: crate::registry::lifecycle::severity_badge(
                    v.status,
                    v.max_severity.as_deref(),
                ),
                age: age(&v.published_at, now),
            })
            .collect(),
        total,
        draft,
        summary: summary.map(|s| text::visible(&s)),
        problems,
    })
}

/// `GET /publisher`: the submission form and one's own versions.
async fn show_home(
    State(state): State<AppState>,
    PublisherUser(session, publisher): PublisherUser,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Publisher portal", "portal").await?;
    html(&home(&state, page, &publisher, String::new(), None, Vec::new()).await?)
}

/// `POST /publisher/submit`: publish the pasted `server.json`.
async fn submit(
    State(state): State<AppState>,
    PublisherUser(_, publisher): PublisherUser,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let draft = form.get("server_json").unwrap_or("").to_string();
    if draft.len() > crate::http::api::publish::MAX_BODY {
        return refuse(
            &state,
            &form,
            &publisher,
            draft,
            "The server.json is larger than 256 KiB.".into(),
            vec![],
        )
        .await;
    }
    match publish::publish(&state.db, &state.net, &publisher, draft.as_bytes()).await {
        Ok(row) => {
            form.session
                .flash(
                    &state,
                    Flash::ok(format!(
                        "Submitted {}@{}. It is queued for a scan, then for review.",
                        row.server_name, row.version
                    )),
                )
                .await?;
            Ok(Redirect::to(&own_url(&row.server_name, &row.version)).into_response())
        }
        Err(PublishError::Db(e)) => Err(e.into()),
        Err(PublishError::Invalid(errors)) => {
            let problems = errors
                .iter()
                .map(|e| Problem {
                    pointer: text::visible(if e.pointer.is_empty() {
                        "(document)"
                    } else {
                        &e.pointer
                    }),
                    detail: text::visible(&e.detail),
                })
                .collect();
            refuse(
                &state,
                &form,
                &publisher,
                draft,
                "The server.json is invalid:".into(),
                problems,
            )
            .await
        }
        Err(e) => refuse(&state, &form, &publisher, draft, e.to_string(), vec![]).await,
    }
}

/// The form again, with the draft kept and the problems shown next to it.
async fn refuse(
    state: &AppState,
    form: &CsrfForm,
    publisher: &crate::storage::accounts::Publisher,
    draft: String,
    summary: String,
    problems: Vec<Problem>,
) -> Result<Response, UiError> {
    let page = form
        .session
        .page(state, "Publisher portal", "portal")
        .await?;
    let mut response = html(&home(state, page, publisher, draft, Some(summary), problems).await?)?;
    *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
    Ok(response)
}

#[derive(Template)]
#[template(path = "publisher/version.html")]
struct VersionPage {
    page: PageCtx,
    name: Text,
    version: Text,
    status: &'static str,
    severity: String,
    published: String,
    updated: String,
    scanned: Option<String>,
    scan_error: Option<Text>,
    findings: Vec<FindingView>,
    server_json: Text,
    credentials_url: String,
}

/// `GET /publisher/servers/{name}/versions/{version}`: status and findings of an own version.
async fn show_version(
    State(state): State<AppState>,
    PublisherUser(session, publisher): PublisherUser,
    Path((name, version)): Path<(String, String)>,
) -> Result<Response, UiError> {
    // Ownership, redaction and decoding are the publisher API's (`review::read`).
    let d =
        read::read_version(&state.db, Reader::Publisher(&publisher.id), &name, &version).await?;
    let page = session
        .page(&state, format!("{name}@{version}"), "portal")
        .await?;
    let v = &d.version;
    let scan = d.scan.as_ref().map(|s| &s.row);
    let pretty =
        serde_json::to_string_pretty(&d.server_json).unwrap_or_else(|_| v.server_json.clone());
    html(&VersionPage {
        page,
        name: text::visible(&v.server_name),
        version: text::visible(&v.version),
        status: v.status.as_str(),
        severity: crate::registry::lifecycle::severity_badge(v.status, v.max_severity.as_deref()),
        published: short_ts(&v.published_at),
        updated: short_ts(&v.updated_at),
        scanned: scan.map(|s| short_ts(&s.finished_at)),
        scan_error: scan.and_then(|s| s.error.as_deref()).map(text::visible),
        findings: d
            .findings()
            .iter()
            .map(|f| super::admin::finding_view(f, String::new()))
            .collect(),
        server_json: text::visible(&pretty),
        credentials_url: format!(
            "/publisher/servers/{}/crawl-credentials",
            enc(&v.server_name)
        ),
    })
}
