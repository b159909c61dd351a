//! Reviewer pages, one file per page: the dashboard, the review queue, the
//! review page of a version with its decisions, the servers list and the rule
//! catalogue.

mod dashboard;
mod history;
mod queue;
mod review;
mod rules;
mod servers;

use axum::Router;
use axum::routing::{get, post};

use crate::http::AppState;

pub use queue::{QUEUE_PAGE, QueueQuery, render_queue};
pub use review::{CapView, CrawlErrorView, FindingView, finding_view, render_review};

/// Routes of the reviewer pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin", get(dashboard::show_dashboard))
        .route("/admin/", get(dashboard::show_dashboard))
        .route("/admin/queue", get(queue::show_queue))
        .route("/admin/servers", get(servers::show_servers))
        .route("/admin/rules", get(rules::show_rules))
        .route("/admin/servers/{name}/history", get(history::show_history))
        .route(
            "/admin/servers/{name}/versions/{version}",
            get(review::show_review),
        )
        .route(
            "/admin/servers/{name}/versions/{version}/{action}",
            post(review::decide_version),
        )
}
