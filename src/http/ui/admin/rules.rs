//! `GET /admin/rules`: the rule catalogue.

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use super::super::session::{PageCtx, Reviewer};
use super::super::{UiError, html};
use crate::analysis;
use crate::http::AppState;

#[derive(Template)]
#[template(path = "admin/rules.html")]
struct RulesPage {
    page: PageCtx,
    rules: &'static [analysis::RuleInfo],
}

/// `GET /admin/rules`: the rule catalogue.
pub(super) async fn show_rules(
    State(state): State<AppState>,
    Reviewer(session): Reviewer,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Rules", "rules").await?;
    html(&RulesPage {
        page,
        rules: analysis::catalogue(),
    })
}
