//! `GET /admin/queue`: the review queue, filtered and sorted like the admin
//! API's (`storage::versions::queue_page`).

use askama::Template;
use axum::extract::{Query, State};
use axum::response::{IntoResponse as _, Response};
use chrono::Utc;
use serde::Deserialize;

use super::super::session::{PageCtx, Reviewer};
use super::super::text::{self, Text};
use super::super::{UiError, age, enc, review_url, short_ts};
use crate::analysis::Severity;
use crate::http::AppState;
use crate::registry::lifecycle::{self, Status};
use crate::storage::versions::{self, VersionFilter};

/// Query of the review queue page.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct QueueQuery {
    /// `awaiting` (default), `all`, or one status.
    #[serde(default)]
    pub status: Option<String>,
    /// Only this maximum severity (`none` = no findings).
    #[serde(default)]
    pub severity: Option<String>,
    /// `age` (oldest first), `newest`, `severity`, `name`.
    #[serde(default)]
    pub sort: Option<String>,
    /// Case-insensitive substring of the name.
    #[serde(default)]
    pub q: Option<String>,
    /// Page number, from 1.
    #[serde(default)]
    pub page: Option<i64>,
}

/// One queue row.
struct QueueRow {
    name: Text,
    version: Text,
    url: String,
    status: &'static str,
    severity: String,
    age: String,
    updated: String,
}

#[derive(Template)]
#[template(path = "admin/queue.html")]
struct QueuePage {
    page: PageCtx,
    rows: Vec<QueueRow>,
    total: i64,
    status: String,
    severity: String,
    sort: String,
    q: String,
    page_no: i64,
    pages: i64,
    prev_url: Option<String>,
    next_url: Option<String>,
    statuses: Vec<&'static str>,
    severities: Vec<&'static str>,
}

/// Rows per queue page.
pub const QUEUE_PAGE: i64 = 50;

/// `GET /admin/queue`.
pub(super) async fn show_queue(
    State(state): State<AppState>,
    Reviewer(session): Reviewer,
    Query(q): Query<QueueQuery>,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Review queue", "queue").await?;
    let body = render_queue(&state, page, &q).await?;
    Ok(axum::response::Html(body).into_response())
}

/// Renders the review queue (public for the render benchmark).
pub async fn render_queue(
    state: &AppState,
    page: PageCtx,
    q: &QueueQuery,
) -> Result<String, UiError> {
    let status = q.status.clone().unwrap_or_else(|| "awaiting".into());
    if status == "changed" {
        return render_changed(state, page, q).await;
    }
    let statuses = match status.as_str() {
        "awaiting" | "" => Status::AWAITING_REVIEW.to_vec(),
        "all" => Vec::new(),
        s => vec![
            Status::parse(s).ok_or_else(|| UiError::BadRequest(format!("unknown status {s:?}")))?,
        ],
    };
    let severity = q.severity.clone().unwrap_or_default();
    let severities = match Severity::parse(&severity) {
        Some(s) => vec![s.as_str().to_string()],
        None => Vec::new(),
    };
    let sort = match q.sort.as_deref() {
        Some(s @ ("newest" | "severity" | "name")) => s.to_string(),
        _ => "age".to_string(),
    };
    let search = q.q.clone().unwrap_or_default();
    let page_no = q.page.unwrap_or(1).max(1);
    let filter = VersionFilter {
        statuses,
        severities,
        search: Some(search.trim().to_string()).filter(|s| !s.is_empty()),
        sort: Some(sort.clone()),
        offset: (page_no - 1) * QUEUE_PAGE,
        limit: QUEUE_PAGE,
        ..VersionFilter::default()
    };
    let (rows, total) = versions::queue_page(&state.db, &filter).await?;
    let now = Utc::now();
    let pages = ((total + QUEUE_PAGE - 1) / QUEUE_PAGE).max(1);
    let link = |p: i64| {
        format!(
            "/admin/queue?status={}&severity={}&sort={}&q={}&page={p}",
            enc(&status),
            enc(&severity),
            enc(&sort),
            enc(&search)
        )
    };
    let view = QueuePage {
        page,
        rows: rows
            .iter()
            .map(|v| QueueRow {
                name: text::visible(&v.server_name),
                version: text::visible(&v.version),
                url: review_url(&v.server_name, &v.version),
                status: v.status.as_str(),
                severity: lifecycle::severity_badge(v.status, v.max_severity.as_deref()),
                age: age(&v.updated_at, now),
                updated: short_ts(&v.updated_at),
            })
            .collect(),
        total,
        prev_url: (page_no > 1).then(|| link(page_no - 1)),
        next_url: (page_no < pages).then(|| link(page_no + 1)),
        status,
        severity,
        sort,
        q: search,
        page_no,
        pages,
        statuses: Status::ALL.iter().map(|s| s.as_str()).collect(),
        severities: Severity::ALL.iter().rev().map(|s| s.as_str()).collect(),
    };
    Ok(view.render()?)
}

/// The "changed" filter (issue 14): approved versions whose rescan found a
/// change to a pinned capability, or added ones; each links to its review
/// page (the diff, the one-click re-approval) — from the monitor's verdicts
/// (`storage::monitor::list_attention`), not from a lifecycle status.
async fn render_changed(
    state: &AppState,
    page: PageCtx,
    q: &QueueQuery,
) -> Result<String, UiError> {
    let search = q.q.clone().unwrap_or_default();
    let needle = search.trim().to_lowercase();
    let rows = crate::storage::monitor::list_attention(&state.db, 500).await?;
    let now = Utc::now();
    let rows: Vec<QueueRow> = rows
        .iter()
        .filter(|r| r.monitor.state == "changed")
        .filter(|r| needle.is_empty() || r.server_name.to_lowercase().contains(&needle))
        .map(|r| {
            let introduced: Vec<crate::analysis::Finding> =
                serde_json::from_str(&r.monitor.findings).unwrap_or_default();
            let max = introduced.iter().map(|f| f.severity).max();
            let since = r
                .monitor
                .changed_at
                .clone()
                .unwrap_or_else(|| r.monitor.checked_at.clone());
            QueueRow {
                name: text::visible(&r.server_name),
                version: text::visible(&r.version),
                url: review_url(&r.server_name, &r.version),
                status: "changed",
                severity: max
                    .map(|s| s.as_str().to_string())
                    .unwrap_or_else(|| "none".into()),
                age: age(&since, now),
                updated: short_ts(&since),
            }
        })
        .collect();
    let view = QueuePage {
        page,
        total: rows.len() as i64,
        rows,
        prev_url: None,
        next_url: None,
        status: "changed".into(),
        severity: String::new(),
        sort: "newest".into(),
        q: search,
        page_no: 1,
        pages: 1,
        statuses: Status::ALL.iter().map(|s| s.as_str()).collect(),
        severities: Severity::ALL.iter().rev().map(|s| s.as_str()).collect(),
    };
    Ok(view.render()?)
}
