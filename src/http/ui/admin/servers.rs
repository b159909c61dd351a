//! `GET /admin/servers`: servers by name, linking to their versions in the queue.

use askama::Template;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::Deserialize;

use super::super::session::{PageCtx, Reviewer};
use super::super::text::{self, Text};
use super::super::{UiError, enc, html, short_ts};
use super::QUEUE_PAGE;
use crate::http::AppState;
use crate::storage::versions;

/// Query of the servers list.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ServersQuery {
    #[serde(default)]
    q: Option<String>,
    #[serde(default)]
    page: Option<i64>,
}

struct ServerRowView {
    name: Text,
    url: String,
    history_url: String,
    publisher: Text,
    versions: i64,
    approved: i64,
    updated: String,
}

#[derive(Template)]
#[template(path = "admin/servers.html")]
struct ServersPage {
    page: PageCtx,
    q: String,
    rows: Vec<ServerRowView>,
    total: i64,
    page_no: i64,
    prev_url: Option<String>,
    next_url: Option<String>,
}

/// `GET /admin/servers?q=`: servers by name, linking to their versions in the queue.
pub(super) async fn show_servers(
    State(state): State<AppState>,
    Reviewer(session): Reviewer,
    Query(q): Query<ServersQuery>,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Servers", "servers").await?;
    let search = q.q.unwrap_or_default();
    let page_no = q.page.unwrap_or(1).max(1);
    let (rows, total) = versions::list_servers(
        &state.db,
        Some(search.trim()),
        (page_no - 1) * QUEUE_PAGE,
        QUEUE_PAGE,
    )
    .await?;
    let link = |p: i64| format!("/admin/servers?q={}&page={p}", enc(&search));
    html(&ServersPage {
        page,
        rows: rows
            .iter()
            .map(|s| ServerRowView {
                name: text::visible(&s.name),
                url: format!("/admin/queue?status=all&q={}", enc(&s.name)),
                history_url: format!("/admin/servers/{}/history", enc(&s.name)),
                publisher: text::visible(&s.publisher),
                versions: s.versions,
                approved: s.approved,
                updated: short_ts(&s.updated_at),
            })
            .collect(),
        prev_url: (page_no > 1).then(|| link(page_no - 1)),
        next_url: (page_no * QUEUE_PAGE < total).then(|| link(page_no + 1)),
        q: search,
        total,
        page_no,
    })
}
