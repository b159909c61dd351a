//! Review decisions: approve (all tools or a subset, per audience), reject,
//! revoke, rescan. The JSON API and the web UI both call [`act`], so the rules
//! and the audit trail live in one place.

pub mod diff;
pub mod read;

use serde::Deserialize;
use serde_json::json;

use crate::registry::lifecycle::{self, Action, Status};
use crate::registry::server_json::FieldError;
use crate::snapshot::Snapshot;
use crate::storage::audit::{self, AuditEntry};
use crate::storage::versions::{self, ApprovalRow, VersionRow};
use crate::storage::{Db, Tx, jobs, now};

/// Body of an approve request.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApproveRequest {
    /// Tool names to approve; all tools when omitted.
    pub tools: Option<Vec<String>>,
    /// Audiences to publish to; `["default"]` when omitted.
    pub audiences: Option<Vec<String>>,
    /// Reviewer's note.
    #[serde(default)]
    pub note: String,
    /// Approve although the scan failed.
    #[serde(default)]
    pub force: bool,
    /// Approve although the scan found that a package or remote is not
    /// proven to belong to the server (ownership findings `GH-OWN-*`); the
    /// override is recorded in the audit row.
    #[serde(default, rename = "overrideOwnership")]
    pub override_ownership: bool,
}

/// Rule ids of the ownership findings an approval must explicitly override.
pub const OWNERSHIP_RULES: &[&str] = &[
    crate::analysis::catalogue::ids::OWN_NPM,
    crate::analysis::catalogue::ids::OWN_README,
];

/// Body of a reject or revoke request.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReasonRequest {
    /// Why.
    #[serde(default)]
    pub reason: String,
}

/// A decision to apply.
#[derive(Debug, Clone)]
pub enum Decision {
    /// Approve.
    Approve(ApproveRequest),
    /// Reject with a reason.
    Reject(ReasonRequest),
    /// Revoke with a reason.
    Revoke(ReasonRequest),
    /// Scan again.
    Rescan,
    /// Take a rejected version back to review, with a reason.
    Reopen(ReasonRequest),
}

/// Why a decision was refused.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// No such version.
    #[error("no version {0} exists")]
    NotFound(String),
    /// Not allowed from the current status.
    #[error(transparent)]
    Transition(#[from] lifecycle::TransitionError),
    /// Bad input.
    #[error("invalid decision")]
    Invalid(Vec<FieldError>),
    /// Someone else changed the version meanwhile.
    #[error("the version changed while this decision was being made; reload and try again")]
    Raced,
    /// The version's stored scan cannot be read (nothing is decided on it).
    #[error(transparent)]
    Read(#[from] read::ReadError),
    /// Database failure.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// Building or signing an allowlist failed.
    #[error("publishing the allowlist failed: {0:#}")]
    Publish(anyhow::Error),
}

const MAX_REASON: usize = 2000;

/// Whether an audience name is well formed.
pub fn valid_audience(a: &str) -> bool {
    !a.is_empty()
        && a.len() <= 64
        && a.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
        && a.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

/// Applies a decision to `name@version` as `actor`, with its audit row, in one transaction.
pub async fn act(
    db: &Db,
    allowlists: &crate::signing::Publisher,
    name: &str,
    version: &str,
    actor: &str,
    decision: Decision,
) -> Result<VersionRow, ReviewError> {
    let subject = format!("{name}@{version}");
    let current = versions::get_version(db, name, version)
        .await?
        .ok_or_else(|| ReviewError::NotFound(subject.clone()))?;
    let action = match &decision {
        Decision::Approve(req) => Action::Approve { force: req.force },
        Decision::Reject(_) => Action::Reject,
        Decision::Revoke(_) => Action::Revoke,
        Decision::Rescan => Action::Rescan,
        Decision::Reopen(_) => Action::Reopen,
    };
    // An approved version the monitor found changed may be approved again:
    // the re-approval of its latest scan (issue 14). Otherwise approving twice
    // is a conflict, as the lifecycle says.
    let reapproval = matches!(decision, Decision::Approve(_))
        && current.status == Status::Approved
        && crate::storage::monitor::read(db, &current.id)
            .await?
            .is_some_and(|m| m.state == "changed");
    let to = if reapproval {
        Status::Approved
    } else {
        lifecycle::transition(current.status, action)?
    };
    let mut detail = json!({"from": current.status.as_str(), "to": to.as_str()});

    // Everything read from other rows is read before the transaction: a
    // transaction must not wait for a second pool connection while it holds
    // one (and, on PostgreSQL, an audience's row lock) — under load that is a
    // pool deadlock. An approval needs the latest scan: read it once.
    let (snapshot, risk, ownership) = match &decision {
        Decision::Approve(_) => reviewed_scan(db, &current).await?,
        _ => (None, crate::allowlist::Risk::default(), Vec::new()),
    };

    // Validate before opening the transaction: nothing is written for bad input.
    let approval = match &decision {
        Decision::Approve(req) => {
            let approval = validate_approval(snapshot.as_ref(), req, actor)?;
            // A package or remote nobody proved is the server's: only an explicit override approves it.
            if !ownership.is_empty() {
                if !req.override_ownership {
                    return Err(ReviewError::Invalid(vec![FieldError {
                        pointer: "/overrideOwnership".into(),
                        detail: format!(
                            "the scan found ownership findings ({}); approving needs \"overrideOwnership\": true",
                            ownership.join(", ")
                        ),
                    }]));
                }
                detail["overrideOwnership"] = json!(ownership);
            }
            // The admin setting: no approval of a remote nobody proved is the publisher's.
            if crate::storage::ownership::verification_required(db).await? {
                let unverified: Vec<String> =
                    crate::storage::ownership::remotes_of(db, &current.server_id)
                        .await?
                        .into_iter()
                        .filter(|r| r.verification == "unverified")
                        .map(|r| r.url)
                        .collect();
                if !unverified.is_empty() {
                    return Err(ReviewError::Invalid(vec![FieldError {
                        pointer: "/remotes".into(),
                        detail: format!(
                            "this registry requires verified remotes before approval; unverified: {}",
                            unverified.join(", ")
                        ),
                    }]));
                }
            }
            detail["tools"] = json!(approval.tools);
            detail["audiences"] = json!(approval.audiences);
            detail["note"] = json!(approval.note);
            Some(approval)
        }
        Decision::Reject(r) | Decision::Revoke(r) | Decision::Reopen(r) => {
            let reason = r.reason.trim();
            if reason.is_empty() || reason.len() > MAX_REASON {
                return Err(ReviewError::Invalid(vec![FieldError {
                    pointer: "/reason".into(),
                    detail: format!("a reason of 1 to {MAX_REASON} characters is required"),
                }]));
            }
            detail["reason"] = json!(reason);
            None
        }
        Decision::Rescan => None,
    };

    let mut tx = db.begin().await?;
    if to != current.status
        && !versions::set_status(&mut tx, &current.id, current.status, to).await?
    {
        return Err(ReviewError::Raced);
    }
    let mut audiences: Vec<String> = Vec::new();
    if let Some(approval) = &approval {
        versions::upsert_approval(&mut tx, &current.id, approval).await?;
        // A reviewer's approval is the new baseline of the monitor (issue 14).
        crate::storage::monitor::clear(&mut tx, &current.id).await?;
        record_approved_tools(&mut tx, snapshot.as_ref(), &current, approval).await?;
        // Audiences it leaves (a re-approval may name others) are re-signed too.
        audiences.extend(
            allowlists
                .remove_entries(&mut tx, &current, None)
                .await
                .map_err(ReviewError::Publish)?,
        );
        allowlists
            .add_entries(&mut tx, &current, snapshot.as_ref(), approval, risk.clone())
            .await
            .map_err(ReviewError::Publish)?;
        audiences.extend(approval.audiences.iter().cloned());
    }
    if let Decision::Revoke(r) = &decision {
        audiences.extend(
            allowlists
                .remove_entries(&mut tx, &current, Some(r.reason.trim()))
                .await
                .map_err(ReviewError::Publish)?,
        );
    }
    let documents = allowlists
        .publish_audiences(&mut tx, &audiences)
        .await
        .map_err(ReviewError::Publish)?;
    if matches!(to, Status::Revoked | Status::Rejected)
        || (to == Status::Pending && current.status == Status::Suspended)
    {
        versions::clear_approved_tools(&mut tx, &current.id).await?;
    }
    if matches!(decision, Decision::Rescan) {
        let kind = if to == Status::Approved {
            jobs::kinds::MONITOR
        } else {
            jobs::kinds::SCAN
        };
        jobs::enqueue(&mut tx, kind, &current.id).await?;
    }
    versions::recompute_latest(&mut tx, &current.server_id).await?;
    let event = match &decision {
        Decision::Approve(_) => Some("approved"),
        Decision::Reject(_) => Some("rejected"),
        Decision::Revoke(_) => Some("revoked"),
        _ => None,
    };
    if let Some(event) = event {
        let mut data = detail.clone();
        data["name"] = json!(current.server_name);
        data["version"] = json!(current.version);
        data["actor"] = json!(actor);
        crate::storage::webhooks::emit(&mut tx, event, data).await?;
    }
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: &format!("version.{}", action.name()),
            subject: &subject,
            version_id: Some(&current.id),
            detail,
        },
    )
    .await?;
    tx.commit().await?;
    allowlists.remember(documents);
    versions::get_version(db, name, version)
        .await?
        .ok_or(ReviewError::NotFound(subject))
}

/// The snapshot and the risk summary of a version's latest scan: what a
/// reviewer approved. A scan that cannot be read refuses the approval.
/// Also the ownership findings' rule ids, which an approval must override.
async fn reviewed_scan(
    db: &Db,
    v: &VersionRow,
) -> Result<(Option<Snapshot>, crate::allowlist::Risk, Vec<String>), ReviewError> {
    let (snapshot, report) = match read::latest_scan(db, v).await? {
        Some(scan) => (scan.snapshot, scan.report),
        None => (None, None),
    };
    let mut ownership: Vec<String> = report
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| OWNERSHIP_RULES.contains(&f.rule.as_str()))
        .map(|f| f.rule.clone())
        .collect();
    ownership.sort();
    ownership.dedup();
    let risk = crate::allowlist::Risk {
        max_severity: report
            .as_ref()
            .and_then(|r| r.summary.max_severity)
            .map(|s| s.as_str().to_string()),
        findings: report.map(|r| r.findings.len() as u32).unwrap_or(0),
    };
    Ok((snapshot, risk, ownership))
}

/// Checks an approve request against the version's latest snapshot.
fn validate_approval(
    snapshot: Option<&Snapshot>,
    req: &ApproveRequest,
    actor: &str,
) -> Result<ApprovalRow, ReviewError> {
    let mut errors = Vec::new();
    let audiences = req
        .audiences
        .clone()
        .unwrap_or_else(|| vec!["default".to_string()]);
    if audiences.is_empty() {
        errors.push(FieldError {
            pointer: "/audiences".into(),
            detail: "name at least one audience".into(),
        });
    }
    for (i, a) in audiences.iter().enumerate() {
        if !valid_audience(a) {
            errors.push(FieldError {
                pointer: format!("/audiences/{i}"),
                detail: "an audience is 1-64 characters of a-z, 0-9, '-', '_' or '.'".into(),
            });
        }
    }
    if req.note.len() > MAX_REASON {
        errors.push(FieldError {
            pointer: "/note".into(),
            detail: format!("at most {MAX_REASON} characters"),
        });
    }
    if let Some(tools) = &req.tools {
        for (i, t) in tools.iter().enumerate() {
            if !snapshot.is_some_and(|s| s.tools.iter().any(|known| &known.name == t)) {
                errors.push(FieldError {
                    pointer: format!("/tools/{i}"),
                    detail: format!("the latest scan found no tool named {t:?}"),
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(ReviewError::Invalid(errors));
    }
    let mut unique = audiences;
    unique.sort();
    unique.dedup();
    Ok(ApprovalRow {
        tools: req.tools.clone().map(|mut t| {
            t.sort();
            t.dedup();
            t
        }),
        audiences: unique,
        note: req.note.trim().to_string(),
        approved_by: actor.to_string(),
        approved_at: now(),
    })
}

async fn record_approved_tools(
    tx: &mut Tx,
    snapshot: Option<&Snapshot>,
    v: &VersionRow,
    approval: &ApprovalRow,
) -> Result<(), sqlx::Error> {
    let names: Vec<String> = match &approval.tools {
        Some(t) => t.clone(),
        None => snapshot
            .map(|s| s.tools.iter().map(|t| t.name.clone()).collect())
            .unwrap_or_default(),
    };
    versions::replace_approved_tools(tx, &v.id, &v.server_name, &names).await
}

/// Tool names of approved versions, with their server: the analysis context.
pub async fn approved_context(
    db: &Db,
    except_server: &str,
) -> Result<crate::analysis::Context, sqlx::Error> {
    let approved_tools = versions::approved_tools(db, except_server).await?;
    let mut approved_servers: Vec<String> = approved_tools.iter().map(|(_, s)| s.clone()).collect();
    approved_servers.sort();
    approved_servers.dedup();
    Ok(crate::analysis::Context {
        approved_tools,
        approved_servers,
    })
}
