//! `GET /admin/servers/{name}/history`: a server's history of changes per
//! capability (issue 14, item 6) — what changed (added, removed, which
//! fields), when, which high or critical findings the change introduced, and
//! what was decided (dropped from the allowlist, suspended, reinstated,
//! re-approved, …), read from the audit log (`storage::audit::server_history`).
//! Everything shown comes from a scanned server: rendered through
//! `text::visible`, never as markup.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::Value;

use super::super::session::{PageCtx, Reviewer};
use super::super::text::{self, Text};
use super::super::{UiError, html, review_url, short_ts};
use crate::http::AppState;
use crate::storage::audit;

/// One capability's part in an event.
struct CapChange {
    kind: Text,
    name: Text,
    /// The name as sent (for matching findings; never rendered raw).
    raw: String,
    /// `added`, `removed`, `changed` or `dropped`.
    change: &'static str,
    /// The fields that differ, for `changed`.
    fields: Text,
    /// Findings the change introduced on this capability: `severity rule`.
    findings: Vec<(String, Text)>,
}

/// One event of the history.
struct EventView {
    at: String,
    version: Text,
    version_url: String,
    actor: Text,
    /// What was decided, in words.
    decision: String,
    /// `suspended`, `changed`, `reinstated`, `approved`, … for the badge.
    badge: &'static str,
    caps: Vec<CapChange>,
    /// Findings not about one capability (the server, a bait-and-switch).
    server_findings: Vec<(String, Text)>,
}

#[derive(Template)]
#[template(path = "admin/history.html")]
struct HistoryPage {
    page: PageCtx,
    name: Text,
    events: Vec<EventView>,
}

/// `GET /admin/servers/{name}/history`.
pub(super) async fn show_history(
    State(state): State<AppState>,
    Reviewer(session): Reviewer,
    Path(name): Path<String>,
) -> Result<Response, UiError> {
    let page = session
        .page(&state, format!("History of {name}"), "servers")
        .await?;
    let rows = audit::server_history(&state.db, &name, 300).await?;
    let events = rows
        .iter()
        .filter_map(|(row, version)| event_view(&name, row, version))
        .collect();
    html(&HistoryPage {
        page,
        name: text::visible(&name),
        events,
    })
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn event_view(name: &str, row: &audit::AuditRow, version: &str) -> Option<EventView> {
    let d = &row.detail;
    let (decision, badge) = match row.action.as_str() {
        "monitor.suspend" => (
            format!(
                "Suspended ({}): every allowlist re-signed without this version",
                match str_of(d, "reason") {
                    "unreachable" => "unreachable",
                    _ => "the change introduced a high or critical finding",
                }
            ),
            "suspended",
        ),
        "monitor.changed" => (
            "Changed: the changed capabilities left the allowlist; the change waits for re-approval".to_string(),
            "changed",
        ),
        "monitor.reinstate" => (
            "Reinstated: the server matches the approved pins again".to_string(),
            "reinstated",
        ),
        "monitor.still_suspended" => (
            "Still suspended: the server does not match the approved pins (or the policy does not reinstate)".to_string(),
            "suspended",
        ),
        "monitor.policy" | "monitor.interval" => return None,
        // The monitor's own status changes are told by its verdict rows;
        // the scanner's (pending → scanning → in review) are no decision.
        "version.status" => return None,
        a if a.starts_with("version.") => {
            let what = &a["version.".len()..];
            (format!("Decision: {what}"), "decision")
        }
        _ => return None,
    };
    let mut caps: Vec<CapChange> = Vec::new();
    let diff = d.get("diff").cloned().unwrap_or(Value::Null);
    let introduced: Vec<&Value> = d
        .get("introduced")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let findings_on = |kind: &str, cap: &str| -> Vec<(String, Text)> {
        introduced
            .iter()
            .filter(|f| {
                let t = &f["target"];
                t["name"].as_str() == Some(cap) && t["kind"].as_str().is_some_and(|k| k == kind)
            })
            .map(|f| {
                (
                    str_of(f, "severity").to_string(),
                    text::visible(&format!("{} {}", str_of(f, "rule"), str_of(f, "message"))),
                )
            })
            .collect()
    };
    for (key, change) in [("added", "added"), ("removed", "removed")] {
        for item in diff
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (kind, cap) = (str_of(item, "kind"), str_of(item, "name"));
            caps.push(CapChange {
                kind: text::visible(kind),
                name: text::visible(cap),
                raw: cap.to_string(),
                change,
                fields: text::visible(""),
                findings: findings_on(kind, cap),
            });
        }
    }
    for item in diff
        .get("changed")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (kind, cap) = (str_of(item, "kind"), str_of(item, "name"));
        let fields: Vec<&str> = item["fields"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["field"].as_str())
            .collect();
        caps.push(CapChange {
            kind: text::visible(kind),
            name: text::visible(cap),
            raw: cap.to_string(),
            change: "changed",
            fields: text::visible(&fields.join(", ")),
            findings: findings_on(kind, cap),
        });
    }
    for item in d
        .get("dropped")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (kind, cap) = (str_of(item, "kind"), str_of(item, "name"));
        if !caps.iter().any(|c| c.raw == cap && c.change != "added") {
            caps.push(CapChange {
                kind: text::visible(kind),
                name: text::visible(cap),
                raw: cap.to_string(),
                change: "dropped",
                fields: text::visible(""),
                findings: findings_on(kind, cap),
            });
        }
    }
    let server_findings = introduced
        .iter()
        .filter(|f| {
            let t = &f["target"];
            let (kind, cap) = (
                t["kind"].as_str().unwrap_or_default(),
                t["name"].as_str().unwrap_or_default(),
            );
            kind == "server" || !caps.iter().any(|c| c.raw == cap)
        })
        .map(|f| {
            (
                str_of(f, "severity").to_string(),
                text::visible(&format!("{} {}", str_of(f, "rule"), str_of(f, "message"))),
            )
        })
        .collect();
    Some(EventView {
        at: short_ts(&row.at),
        version: text::visible(version),
        version_url: review_url(name, version),
        actor: text::visible(&row.actor),
        decision,
        badge,
        caps,
        server_findings,
    })
}
