//! `GET /admin`: the dashboard — versions by status, findings by severity and
//! category, scans per day.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use chrono::Utc;
use serde::Deserialize;

use super::super::charts::{self, BarChart, ColumnChart};
use super::super::session::{PageCtx, Reviewer};
use super::super::{UiError, html};
use crate::analysis::{Category, Severity};
use crate::http::AppState;
use crate::registry::lifecycle::Status;
use crate::storage::versions;

#[derive(Template)]
#[template(path = "admin/dashboard.html")]
struct DashboardPage {
    page: PageCtx,
    by_status: BarChart,
    by_severity: BarChart,
    by_category: BarChart,
    scans: ColumnChart,
    awaiting: i64,
}

/// Number of days the scans-over-time chart covers.
const SCAN_DAYS: i64 = 30;

/// `GET /admin`: versions by status, findings by severity and category, scans per day.
pub(super) async fn show_dashboard(
    State(state): State<AppState>,
    Reviewer(session): Reviewer,
) -> Result<Response, UiError> {
    let page = session.page(&state, "Dashboard", "dashboard").await?;
    html(&dashboard(&state, page).await?)
}

async fn dashboard(state: &AppState, page: PageCtx) -> Result<DashboardPage, UiError> {
    let counts = versions::count_by_status(&state.db).await?;
    let count_of = |s: Status| {
        counts
            .iter()
            .find(|(st, _)| *st == s)
            .map(|(_, n)| *n)
            .unwrap_or(0)
    };
    let by_status = charts::bar_chart(
        Status::ALL
            .iter()
            .map(|s| {
                (
                    s.as_str().replace('_', " "),
                    count_of(*s),
                    format!("st-{}", s.as_str()),
                )
            })
            .collect(),
    );
    let awaiting = Status::AWAITING_REVIEW.iter().map(|s| count_of(*s)).sum();

    let mut sev: BTreeMap<Severity, i64> = BTreeMap::new();
    let mut cat: BTreeMap<Category, i64> = BTreeMap::new();
    for (subject, report) in versions::latest_reports(&state.db).await? {
        // Only the two fields counted are parsed, not whole reports.
        #[derive(Deserialize)]
        struct Slim {
            #[serde(default)]
            findings: Vec<SlimFinding>,
        }
        #[derive(Deserialize)]
        struct SlimFinding {
            severity: Severity,
            category: Category,
        }
        // A report nobody can read must not lower the counts unseen.
        let r = serde_json::from_str::<Slim>(&report).map_err(|source| {
            crate::review::read::ReadError::Unreadable {
                subject,
                what: "report",
                source,
            }
        })?;
        for f in r.findings {
            *sev.entry(f.severity).or_default() += 1;
            *cat.entry(f.category).or_default() += 1;
        }
    }
    let by_severity = charts::bar_chart(
        Severity::ALL
            .iter()
            .rev()
            .map(|s| {
                (
                    s.as_str().to_string(),
                    sev.get(s).copied().unwrap_or(0),
                    format!("sev-{}", s.as_str()),
                )
            })
            .collect(),
    );
    let by_category = charts::bar_chart(
        Category::ALL
            .iter()
            .map(|c| {
                (
                    c.as_str().to_string(),
                    cat.get(c).copied().unwrap_or(0),
                    "cat".to_string(),
                )
            })
            .collect(),
    );
    let today = Utc::now().date_naive();
    let days: Vec<String> = (0..SCAN_DAYS)
        .rev()
        .map(|d| (today - chrono::Duration::days(d)).to_string())
        .collect();
    let per_day = versions::scans_per_day(&state.db, &format!("{}T", days[0])).await?;
    Ok(DashboardPage {
        page,
        by_status,
        by_severity,
        by_category,
        scans: charts::column_chart(&days, &per_day),
        awaiting,
    })
}
