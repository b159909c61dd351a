//! The review page of a version and its decisions.
//!
//! The page is built to make a poisoned tool impossible to miss: the high and
//! critical findings are summarised first, every capability shows its
//! findings next to its text with the evidence marked, hidden characters are
//! spelled out, tools with findings start unticked, and approving over high
//! or critical findings needs an explicit acknowledgement. What it shows is
//! the read the admin API answers with (`review::read`).

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse as _, Redirect, Response};
use serde_json::Value;

use super::super::session::{CsrfForm, Flash, PageCtx, Reviewer};
use super::super::text::{self, DiffSeg, Text};
use super::super::{UiError, review_url, short_ts};
use crate::analysis::{self, Finding, Severity};
use crate::http::AppState;
use crate::registry::lifecycle::{self, Action};
use crate::review::read::{self, Reader};
use crate::review::{self, ApproveRequest, Decision, ReasonRequest, ReviewError};
use crate::snapshot::{Snapshot, TargetKind};
use crate::storage::versions::{self, ScanRow, VersionRow};

/// A finding as shown.
pub struct FindingView {
    /// Severity wire name.
    pub severity: &'static str,
    /// Rule id.
    pub rule: String,
    /// Category wire name.
    pub category: &'static str,
    /// Field path inside the capability.
    pub field: Text,
    /// What is wrong.
    pub message: Text,
    /// The offending text.
    pub evidence: Text,
    /// `kind name` of the target.
    pub target: Text,
    /// In-page link to the capability.
    pub anchor: String,
}

/// One tool, resource, template or prompt with its findings.
pub struct CapView {
    /// In-page anchor.
    pub anchor: String,
    /// `tool`, `resource`, …
    pub kind: &'static str,
    /// Index in its list (a tool's checkbox value).
    pub index: usize,
    /// Name as sent.
    pub name: Text,
    /// Title.
    pub title: Option<Text>,
    /// URI or URI template.
    pub uri: Option<Text>,
    /// Description with evidence marked.
    pub description: Option<Text>,
    /// Everything else (schemas, annotations, arguments), pretty JSON.
    pub details: Option<Text>,
    /// Its findings, most severe first.
    pub findings: Vec<FindingView>,
    /// Its highest severity (`none` without findings).
    pub max: String,
    /// Whether its approval checkbox starts ticked.
    pub checked: bool,
}

/// A crawl anomaly.
pub struct CrawlErrorView {
    code: Text,
    message: Text,
    target: Text,
}

/// A changed field of a capability.
pub struct FieldDiffView {
    field: Text,
    segs: Vec<DiffSeg>,
}

/// A changed capability.
pub struct ChangeView {
    kind: &'static str,
    name: Text,
    fields: Vec<FieldDiffView>,
}

/// The diff against the last approved version.
pub struct DiffView {
    against: Text,
    added: Vec<(&'static str, Text)>,
    removed: Vec<(&'static str, Text)>,
    changed: Vec<ChangeView>,
}

#[derive(Template)]
#[template(path = "admin/review.html")]
struct ReviewPage {
    page: PageCtx,
    name: Text,
    version: Text,
    action_base: String,
    status: &'static str,
    max: String,
    published: String,
    updated: String,
    counts: Vec<(&'static str, u32)>,
    urgent: Vec<FindingView>,
    server_findings: Vec<FindingView>,
    orphan_findings: Vec<FindingView>,
    server_json: Text,
    /// Each remote and who is proven to run it (issue 15).
    remote_verification: Vec<(Text, String)>,
    scan: Option<ScanRow>,
    scan_error: Option<Text>,
    transport: String,
    pages: Vec<(String, u32)>,
    crawl_ms: Option<u64>,
    crawl_errors: Vec<CrawlErrorView>,
    protocol: Option<Text>,
    server_info: Option<Text>,
    instructions: Option<Text>,
    tools: Vec<CapView>,
    resources: Vec<CapView>,
    templates: Vec<CapView>,
    prompts: Vec<CapView>,
    diff: Option<DiffView>,
    approval: Option<versions::ApprovalRow>,
    approval_tools: Option<Vec<Text>>,
    scan_id: String,
    can_approve: bool,
    needs_force: bool,
    can_reject: bool,
    can_revoke: bool,
    can_rescan: bool,
    can_reopen: bool,
    needs_ack: bool,
    serious: usize,
    /// Ownership findings (GH-OWN-*) an approval must explicitly override.
    ownership: usize,
    /// For a suspended version: why, and since when (issue 14, item 6).
    suspended: Option<SuspendedBanner>,
    /// The server's history of changes.
    history_url: String,
}

/// The banner of a suspended version's page.
pub struct SuspendedBanner {
    /// Why, in words.
    reason: String,
    /// Since when.
    since: String,
    /// The last rescan's error, for an unreachable server (hostile text).
    error: Option<Text>,
}

/// `GET /admin/servers/{name}/versions/{version}`.
pub(super) async fn show_review(
    State(state): State<AppState>,
    Reviewer(session): Reviewer,
    Path((name, version)): Path<(String, String)>,
) -> Result<Response, UiError> {
    let page = session
        .page(&state, format!("Review {name}@{version}"), "queue")
        .await?;
    let body = render_review(&state, page, &name, &version).await?;
    Ok(axum::response::Html(body).into_response())
}

/// Turns a finding into its view, linking to `anchor`.
pub fn finding_view(f: &Finding, anchor: String) -> FindingView {
    FindingView {
        severity: f.severity.as_str(),
        rule: f.rule.clone(),
        category: f.category.as_str(),
        field: text::visible(&f.field),
        message: text::visible(&f.message),
        evidence: text::visible(&f.evidence),
        target: text::visible(&if f.target.name.is_empty() {
            f.target.kind.as_str().to_string()
        } else {
            format!("{} {}", f.target.kind.as_str(), f.target.name)
        }),
        anchor,
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Pretty JSON of the fields of a capability not shown on their own.
fn details(fields: &[(&str, Option<Value>)]) -> Option<String> {
    let map: serde_json::Map<String, Value> = fields
        .iter()
        .filter_map(|(k, v)| v.clone().map(|v| (k.to_string(), v)))
        .collect();
    (!map.is_empty()).then(|| pretty(&Value::Object(map)))
}

/// Builds the view of one capability, taking its findings out of `pending`.
#[allow(clippy::too_many_arguments)]
fn cap_view(
    kind: TargetKind,
    index: usize,
    name: &str,
    alt_name: Option<&str>,
    title: Option<&str>,
    uri: Option<&str>,
    description: Option<&str>,
    details_json: Option<String>,
    pending: &mut [Option<&Finding>],
) -> CapView {
    let anchor = format!("{}-{index}", kind.as_str());
    let mut mine: Vec<&Finding> = Vec::new();
    for slot in pending.iter_mut() {
        if let Some(f) = *slot {
            if f.target.kind == kind
                && (f.target.name == name || Some(f.target.name.as_str()) == alt_name)
            {
                mine.push(f);
                *slot = None;
            }
        }
    }
    let evidence: Vec<&str> = mine.iter().map(|f| f.evidence.as_str()).collect();
    let max = mine.iter().map(|f| f.severity).max();
    CapView {
        kind: kind.as_str(),
        index,
        name: text::visible_with(name, &evidence),
        title: title.map(|t| text::visible_with(t, &evidence)),
        uri: uri.map(|u| text::visible_with(u, &evidence)),
        description: description.map(|d| text::visible_with(d, &evidence)),
        details: details_json.map(|d| text::visible_with(&d, &evidence)),
        findings: mine
            .iter()
            .map(|f| finding_view(f, anchor.clone()))
            .collect(),
        max: max
            .map(|s| s.as_str().to_string())
            .unwrap_or_else(|| "none".into()),
        // A tool with a finding of medium or above must be ticked on purpose.
        checked: max.is_none_or(|s| s < Severity::Medium),
        anchor,
    }
}

fn json_or_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => pretty(other),
    }
}

fn diff_view(against: &VersionRow, d: &review::diff::Diff) -> DiffView {
    DiffView {
        against: text::visible(&against.version),
        added: d
            .added
            .iter()
            .map(|i| (i.kind, text::visible(&i.name)))
            .collect(),
        removed: d
            .removed
            .iter()
            .map(|i| (i.kind, text::visible(&i.name)))
            .collect(),
        changed: d
            .changed
            .iter()
            .map(|c| ChangeView {
                kind: c.kind,
                name: text::visible(&c.name),
                fields: c
                    .fields
                    .iter()
                    .map(|f| FieldDiffView {
                        field: text::visible(&f.field),
                        segs: text::word_diff(&json_or_text(&f.before), &json_or_text(&f.after)),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Renders the review page of a version (public for the render benchmark).
pub async fn render_review(
    state: &AppState,
    page: PageCtx,
    name: &str,
    version: &str,
) -> Result<String, UiError> {
    let read::VersionDetail {
        version: v,
        server_json,
        scan,
        diff,
        approval,
    } = read::read_version(&state.db, Reader::Reviewer, name, version).await?;
    let remote_verification = crate::storage::ownership::remotes_of(&state.db, &v.server_id)
        .await?
        .into_iter()
        .map(|r| (text::visible(&r.url), r.verification))
        .collect();
    let diff = diff.map(|d| diff_view(&d.against, &d.changes));
    let (scan, snapshot, report) = match scan {
        Some(s) => (Some(s.row), s.snapshot, s.report),
        None => (None, None, None),
    };
    let findings: Vec<Finding> = report.map(|r| r.findings).unwrap_or_default();
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let mut pending: Vec<Option<&Finding>> = sorted.iter().map(|f| Some(*f)).collect();
    let snap = snapshot.clone().unwrap_or_default();

    let tools: Vec<CapView> = snap
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            cap_view(
                TargetKind::Tool,
                i,
                &t.name,
                None,
                t.title.as_deref(),
                None,
                t.description.as_deref(),
                details(&[
                    ("inputSchema", t.input_schema.clone()),
                    ("outputSchema", t.output_schema.clone()),
                    ("annotations", t.annotations.clone()),
                    ("_meta", t.meta.clone()),
                ]),
                &mut pending,
            )
        })
        .collect();
    let resources: Vec<CapView> = snap
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| {
            cap_view(
                TargetKind::Resource,
                i,
                &r.name,
                Some(&r.uri),
                r.title.as_deref(),
                Some(&r.uri),
                r.description.as_deref(),
                details(&[("mimeType", r.mime_type.clone().map(Value::String))]),
                &mut pending,
            )
        })
        .collect();
    let templates: Vec<CapView> = snap
        .resource_templates
        .iter()
        .enumerate()
        .map(|(i, r)| {
            cap_view(
                TargetKind::ResourceTemplate,
                i,
                &r.name,
                Some(&r.uri_template),
                r.title.as_deref(),
                Some(&r.uri_template),
                r.description.as_deref(),
                details(&[("mimeType", r.mime_type.clone().map(Value::String))]),
                &mut pending,
            )
        })
        .collect();
    let prompts: Vec<CapView> = snap
        .prompts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            cap_view(
                TargetKind::Prompt,
                i,
                &p.name,
                None,
                p.title.as_deref(),
                None,
                p.description.as_deref(),
                details(&[(
                    "arguments",
                    p.arguments
                        .as_ref()
                        .and_then(|a| serde_json::to_value(a).ok()),
                )]),
                &mut pending,
            )
        })
        .collect();
    let mut server_findings: Vec<FindingView> = Vec::new();
    for slot in pending.iter_mut() {
        if let Some(f) = *slot {
            if f.target.kind == TargetKind::Server {
                server_findings.push(finding_view(f, "server".into()));
                *slot = None;
            }
        }
    }
    // Findings about a capability the snapshot does not list (renamed, dropped as invalid).
    let orphan_findings: Vec<FindingView> = pending
        .iter()
        .flatten()
        .map(|f| finding_view(f, "other".into()))
        .collect();
    let server_evidence: Vec<&str> = findings
        .iter()
        .filter(|f| f.target.kind == TargetKind::Server)
        .map(|f| f.evidence.as_str())
        .collect();

    let serious = findings
        .iter()
        .filter(|f| f.severity >= Severity::High)
        .count();
    let urgent: Vec<FindingView> = sorted
        .iter()
        .filter(|f| f.severity >= Severity::High)
        .map(|f| {
            let anchor = anchor_of(f, &snap);
            finding_view(f, anchor)
        })
        .collect();
    let summary = analysis::Summary::of(&findings);
    let counts = Severity::ALL
        .iter()
        .rev()
        .map(|s| (s.as_str(), summary.counts.get(s).copied().unwrap_or(0)))
        .collect();
    let allowed = |a: Action| lifecycle::transition(v.status, a).is_ok();
    let suspended = if v.status == lifecycle::Status::Suspended {
        let m = crate::storage::monitor::read(&state.db, &v.id).await?;
        let m = m.filter(|m| m.state == "suspended");
        Some(SuspendedBanner {
            reason: match m.as_ref().and_then(|m| m.reason.as_deref()) {
                Some("drift") => {
                    "a rescan found a change that introduced a high or critical finding".into()
                }
                Some("unreachable") => {
                    "the server could not be reached in several rescans in a row".into()
                }
                _ => "suspended".into(),
            },
            since: m
                .as_ref()
                .and_then(|m| m.changed_at.as_deref())
                .map(short_ts)
                .unwrap_or_else(|| short_ts(&v.updated_at)),
            error: m
                .as_ref()
                .and_then(|m| m.last_error.as_deref())
                .map(text::visible),
        })
    } else {
        None
    };
    let history_url = format!(
        "/admin/servers/{}/history",
        super::super::enc(&v.server_name)
    );
    let crawl = snap.crawl.clone().unwrap_or_default();
    let server_json = pretty(&server_json);

    let view = ReviewPage {
        page,
        name: text::visible(&v.server_name),
        version: text::visible(&v.version),
        action_base: review_url(&v.server_name, &v.version),
        status: v.status.as_str(),
        max: lifecycle::severity_badge(v.status, v.max_severity.as_deref()),
        published: short_ts(&v.published_at),
        updated: short_ts(&v.updated_at),
        counts,
        urgent,
        server_findings,
        orphan_findings,
        server_json: text::visible(&server_json),
        remote_verification,
        scan_error: scan
            .as_ref()
            .and_then(|s| s.error.as_deref())
            .map(text::visible),
        scan_id: scan.as_ref().map(|s| s.id.clone()).unwrap_or_default(),
        scan,
        transport: crawl.transport.clone(),
        pages: crawl.pages.clone().into_iter().collect(),
        crawl_ms: snap.crawl.as_ref().map(|c| c.duration_ms),
        crawl_errors: crawl
            .errors
            .iter()
            .map(|e| CrawlErrorView {
                code: text::visible(&e.code),
                message: text::visible(&e.message),
                target: text::visible(
                    &e.target
                        .as_ref()
                        .map(|t| format!("{} {}", t.kind.as_str(), t.name))
                        .unwrap_or_default(),
                ),
            })
            .collect(),
        protocol: snap.protocol_version.as_deref().map(text::visible),
        server_info: snap.server_info.as_ref().map(|i| {
            text::visible(&format!(
                "{} {}{}",
                i.name,
                i.version,
                i.title
                    .as_ref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default()
            ))
        }),
        instructions: snap
            .instructions
            .as_deref()
            .map(|i| text::visible_with(i, &server_evidence)),
        tools,
        resources,
        templates,
        prompts,
        diff,
        approval_tools: approval
            .as_ref()
            .and_then(|a| a.tools.as_ref())
            .map(|t| t.iter().map(|n| text::visible(n)).collect()),
        approval,
        can_approve: allowed(Action::Approve { force: false }),
        needs_force: !allowed(Action::Approve { force: false })
            && allowed(Action::Approve { force: true }),
        can_reject: allowed(Action::Reject),
        can_revoke: allowed(Action::Revoke),
        can_rescan: allowed(Action::Rescan),
        can_reopen: allowed(Action::Reopen),
        needs_ack: serious > 0,
        serious,
        ownership: findings
            .iter()
            .filter(|f| crate::review::OWNERSHIP_RULES.contains(&f.rule.as_str()))
            .count(),
        suspended,
        history_url,
    };
    Ok(view.render()?)
}

/// The in-page anchor of a finding's capability.
fn anchor_of(f: &Finding, snap: &Snapshot) -> String {
    let n = &f.target.name;
    let index = match f.target.kind {
        TargetKind::Server => return "server".into(),
        TargetKind::Tool => snap.tools.iter().position(|t| &t.name == n),
        TargetKind::Resource => snap
            .resources
            .iter()
            .position(|r| &r.name == n || &r.uri == n),
        TargetKind::ResourceTemplate => snap
            .resource_templates
            .iter()
            .position(|r| &r.name == n || &r.uri_template == n),
        TargetKind::Prompt => snap.prompts.iter().position(|p| &p.name == n),
    };
    match index {
        Some(i) => format!("{}-{i}", f.target.kind.as_str()),
        None => "other".into(),
    }
}

/// `POST /admin/servers/{name}/versions/{version}/{approve|reject|revoke|rescan|reopen}`:
/// the form becomes the same [`Decision`] the JSON API builds and goes through
/// [`review::act`]; the outcome is flashed on the review page.
pub(super) async fn decide_version(
    State(state): State<AppState>,
    Reviewer(_): Reviewer,
    Path((name, version, action)): Path<(String, String, String)>,
    form: CsrfForm,
) -> Result<Response, UiError> {
    let back = review_url(&name, &version);
    let session = form.session.clone();
    let decision = match decision_from_form(&state, &name, &version, &action, &form).await {
        Ok(d) => d,
        Err(DecisionError::Refused(msg)) => {
            session.flash(&state, Flash::error(msg)).await?;
            return Ok(Redirect::to(&back).into_response());
        }
        Err(DecisionError::Ui(e)) => return Err(e),
    };
    match review::act(
        &state.db,
        &state.allowlists,
        &name,
        &version,
        &session.actor(),
        decision,
    )
    .await
    {
        Ok(v) => {
            let done = match action.as_str() {
                "approve" => "Approved",
                "reject" => "Rejected",
                "revoke" => "Revoked",
                "reopen" => "Reopened",
                _ => "Rescan queued for",
            };
            session
                .flash(
                    &state,
                    Flash::ok(format!(
                        "{done} {}@{} (now {}).",
                        v.server_name,
                        v.version,
                        v.status.as_str()
                    )),
                )
                .await?;
        }
        Err(ReviewError::Invalid(errors)) => {
            let detail: Vec<String> = errors
                .iter()
                .map(|e| format!("{} {}", e.pointer, e.detail))
                .collect();
            session
                .flash(
                    &state,
                    Flash::error(format!("Not done: {}", detail.join("; "))),
                )
                .await?;
        }
        Err(e @ (ReviewError::Transition(_) | ReviewError::Raced)) => {
            session
                .flash(&state, Flash::error(format!("Not done: {e}.")))
                .await?;
        }
        Err(e) => return Err(e.into()),
    }
    Ok(Redirect::to(&back).into_response())
}

enum DecisionError {
    /// Shown to the reviewer; nothing changed.
    Refused(String),
    Ui(UiError),
}

impl<E: Into<UiError>> From<E> for DecisionError {
    fn from(e: E) -> Self {
        DecisionError::Ui(e.into())
    }
}

async fn decision_from_form(
    state: &AppState,
    name: &str,
    version: &str,
    action: &str,
    form: &CsrfForm,
) -> Result<Decision, DecisionError> {
    Ok(match action {
        "approve" => {
            let v = versions::get_version(&state.db, name, version)
                .await?
                .ok_or_else(|| UiError::NotFound(format!("no version {version:?} of {name:?}")))?;
            let scan = read::latest_scan(&state.db, &v).await?;
            // The checkboxes are indices into the scan the page showed; if a
            // newer scan arrived meanwhile they could mean other tools.
            let scan_id = scan.as_ref().map(|s| s.row.id.as_str()).unwrap_or("");
            if form.text("scan") != scan_id {
                return Err(DecisionError::Refused(
                    "A newer scan arrived since this page was loaded; review it and decide again."
                        .into(),
                ));
            }
            let (snapshot, report) = match scan {
                Some(s) => (s.snapshot, s.report),
                None => (None, None),
            };
            let serious = report
                .as_ref()
                .is_some_and(|r| r.findings.iter().any(|f| f.severity >= Severity::High));
            if serious && !form.checked("ack") {
                return Err(DecisionError::Refused(
                    "Tick the box confirming you read the high and critical findings before approving."
                        .into(),
                ));
            }
            let all: Vec<String> = snapshot
                .map(|s| s.tools.into_iter().map(|t| t.name).collect())
                .unwrap_or_default();
            let mut chosen: Vec<String> = Vec::new();
            for raw in form.all("tool") {
                let tool = raw
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| all.get(i))
                    .ok_or_else(|| UiError::BadRequest("unknown tool in the form".into()))?;
                chosen.push(tool.clone());
            }
            if !all.is_empty() && chosen.is_empty() {
                return Err(DecisionError::Refused(
                    "Select at least one tool to approve, or reject the version.".into(),
                ));
            }
            chosen.sort();
            chosen.dedup();
            let audiences: Vec<String> = form
                .text("audiences")
                .split([',', ' ', '\n'])
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_string)
                .collect();
            Decision::Approve(ApproveRequest {
                // Every tool ticked is "all tools", as when the API omits the list.
                tools: (chosen.len() != all.len()).then_some(chosen),
                audiences: (!audiences.is_empty()).then_some(audiences),
                note: form.text("note"),
                force: form.checked("force"),
                override_ownership: form.checked("override_ownership"),
            })
        }
        "reject" => Decision::Reject(ReasonRequest {
            reason: form.text("reason"),
        }),
        "revoke" => {
            if !form.checked("confirm") {
                return Err(DecisionError::Refused(
                    "Revoking is final: tick the confirmation box to revoke.".into(),
                ));
            }
            Decision::Revoke(ReasonRequest {
                reason: form.text("reason"),
            })
        }
        "rescan" => Decision::Rescan,
        "reopen" => Decision::Reopen(ReasonRequest {
            reason: form.text("reason"),
        }),
        other => return Err(UiError::NotFound(format!("unknown action {other:?}")).into()),
    })
}
