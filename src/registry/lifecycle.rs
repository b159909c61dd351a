//! The version lifecycle (docs/DESIGN.md §3) and the transitions each action may make.
//!
//! ```text
//! pending → scanning → in_review → approved | rejected
//! rejected → in_review               (reopen; a rescan alone keeps the rejection)
//! scanning → scan_failed            (after retries; can be rescanned)
//! approved → suspended              (drift or unreachable) → approved after re-review
//! approved | suspended → revoked    (final)
//! ```

use serde::{Deserialize, Serialize};

/// Where a version is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Published, waiting for a scan.
    Pending,
    /// A worker is crawling it.
    Scanning,
    /// Scanned; waiting for a reviewer.
    InReview,
    /// Approved: in the allowlist and the public read API.
    Approved,
    /// Rejected by a reviewer.
    Rejected,
    /// The scan failed after its retries.
    ScanFailed,
    /// Drifted from its pins or became unreachable; out of the allowlist until re-reviewed.
    Suspended,
    /// Withdrawn for good; listed under `revoked` in the allowlist.
    Revoked,
}

impl Status {
    /// Every status, in lifecycle order.
    pub const ALL: [Status; 8] = [
        Status::Pending,
        Status::Scanning,
        Status::InReview,
        Status::Approved,
        Status::Rejected,
        Status::ScanFailed,
        Status::Suspended,
        Status::Revoked,
    ];

    /// Stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Scanning => "scanning",
            Status::InReview => "in_review",
            Status::Approved => "approved",
            Status::Rejected => "rejected",
            Status::ScanFailed => "scan_failed",
            Status::Suspended => "suspended",
            Status::Revoked => "revoked",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// Statuses that wait for a reviewer (the queue).
    pub const AWAITING_REVIEW: [Status; 3] =
        [Status::InReview, Status::ScanFailed, Status::Suspended];
}

/// The severity badge of a version: its latest scan's maximum severity, or why
/// there is none. A missing maximum means "no findings" only after a completed
/// scan; a version never scanned (`unscanned`) or whose scan failed (`failed`)
/// must not look clean (issue 11).
pub fn severity_badge(status: Status, max_severity: Option<&str>) -> String {
    match (status, max_severity) {
        (Status::ScanFailed, _) => "failed".into(),
        (_, Some(max)) => max.to_string(),
        (Status::Pending | Status::Scanning, None) => "unscanned".into(),
        (_, None) => "none".into(),
    }
}

/// What a publisher is told about a failed scan: a category, never the
/// network detail (refused, no route, an internal host's HTTP status), which
/// would make the scanner a probe of the registry's network. Reviewers and the
/// log keep the full message.
pub fn publisher_scan_error(error: &str) -> &'static str {
    if error.contains("(transport)") {
        "the server could not be reached"
    } else if error.contains("(bound)") {
        "the server exceeded a scan limit (time, size or nesting)"
    } else if error.contains("(initialize)") {
        "the server did not complete the MCP handshake"
    } else if error.contains("(auth)") && error.contains("add crawl credentials") {
        "the server requires OAuth; add crawl credentials"
    } else if error.contains("(auth)") {
        "the server requires OAuth and the crawl credentials obtained no token"
    } else if error.starts_with("crawl incomplete") {
        "a capability list the server declared could not be read"
    } else {
        "the scan could not be completed"
    }
}

/// Whether a finding's evidence may carry network detail of a failed crawl
/// step (`GH-PRO-001` bound hit, `GH-PRO-002` step failed): shown to reviewers,
/// withheld from publishers like [`publisher_scan_error`].
pub fn evidence_is_network_detail(rule: &str) -> bool {
    matches!(rule, "GH-PRO-001" | "GH-PRO-002")
}

/// A reviewer's or the system's action on a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Approve (optionally forced past a failed scan).
    Approve {
        /// Allow approving a version whose scan failed.
        force: bool,
    },
    /// Reject with a reason.
    Reject,
    /// Revoke for good.
    Revoke,
    /// Queue a new scan. A rejected version stays rejected: a new scan is
    /// evidence for a reviewer, not a decision.
    Rescan,
    /// Take a rejected version back to review (a reviewer's decision, audited).
    Reopen,
}

impl Action {
    /// The audit name of the action.
    pub fn name(self) -> &'static str {
        match self {
            Action::Approve { .. } => "approve",
            Action::Reject => "reject",
            Action::Revoke => "revoke",
            Action::Rescan => "rescan",
            Action::Reopen => "reopen",
        }
    }
}

/// Why an action is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot {action} a version that is {from}{hint}")]
pub struct TransitionError {
    /// Action attempted.
    pub action: &'static str,
    /// Current status.
    pub from: &'static str,
    /// How to proceed, if there is a way.
    pub hint: &'static str,
}

/// The status an action leads to from `from`, or why it may not happen.
pub fn transition(from: Status, action: Action) -> Result<Status, TransitionError> {
    use Status::*;
    let to = match (action, from) {
        (Action::Approve { .. }, InReview | Suspended) => Some(Approved),
        (Action::Approve { force: true }, ScanFailed) => Some(Approved),
        (Action::Reject, Pending | Scanning | InReview | ScanFailed | Suspended) => Some(Rejected),
        (Action::Revoke, Approved | Suspended) => Some(Revoked),
        (Action::Rescan, InReview | ScanFailed | Suspended | Rejected | Approved) => {
            Some(if matches!(from, Approved | Rejected) {
                from
            } else {
                Pending
            })
        }
        (Action::Reopen, Rejected) => Some(InReview),
        _ => None,
    };
    to.ok_or(TransitionError {
        action: action.name(),
        from: from.as_str(),
        hint: match (action, from) {
            (Action::Approve { force: false }, ScanFailed) => {
                " (pass \"force\": true to approve without a scan)"
            }
            (Action::Approve { .. }, Pending | Scanning) => " (wait for its scan to finish)",
            _ => "",
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_without_a_completed_scan_never_badge_as_clean() {
        assert_eq!(severity_badge(Status::Pending, None), "unscanned");
        assert_eq!(severity_badge(Status::Scanning, None), "unscanned");
        assert_eq!(severity_badge(Status::ScanFailed, None), "failed");
        assert_eq!(severity_badge(Status::ScanFailed, Some("low")), "failed");
        assert_eq!(severity_badge(Status::InReview, None), "none");
        assert_eq!(severity_badge(Status::InReview, Some("high")), "high");
    }

    #[test]
    fn publishers_see_a_category_not_the_network_detail() {
        let told = publisher_scan_error(
            "crawl failed (transport): initialize: error connecting to 10.0.0.7:8080: connection refused",
        );
        assert_eq!(told, "the server could not be reached");
        assert!(!told.contains("10.0.0.7"));
        assert_eq!(
            publisher_scan_error(
                "crawl incomplete: the declared list(s) tools could not be read (list_failed: HTTP 502)"
            ),
            "a capability list the server declared could not be read"
        );
    }

    #[test]
    fn approve_needs_a_finished_scan_or_force() {
        assert_eq!(
            transition(Status::InReview, Action::Approve { force: false }),
            Ok(Status::Approved)
        );
        assert!(transition(Status::Pending, Action::Approve { force: false }).is_err());
        assert!(transition(Status::ScanFailed, Action::Approve { force: false }).is_err());
        assert_eq!(
            transition(Status::ScanFailed, Action::Approve { force: true }),
            Ok(Status::Approved)
        );
    }

    #[test]
    fn revoked_is_final() {
        for action in [
            Action::Approve { force: true },
            Action::Reject,
            Action::Revoke,
            Action::Rescan,
        ] {
            assert!(transition(Status::Revoked, action).is_err());
        }
    }

    #[test]
    fn only_approved_or_suspended_versions_can_be_revoked() {
        assert_eq!(
            transition(Status::Approved, Action::Revoke),
            Ok(Status::Revoked)
        );
        assert_eq!(
            transition(Status::Suspended, Action::Revoke),
            Ok(Status::Revoked)
        );
        assert!(transition(Status::InReview, Action::Revoke).is_err());
    }

    #[test]
    fn statuses_round_trip_their_names() {
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
    }
}
