//! One typed read of a version — its row, its server.json, its latest scan
//! (snapshot and report), the diff against the last approved version and the
//! approval decision — used by the admin API, the publisher API, the review
//! page and the publisher's page alike.
//!
//! Two rules live here and nowhere else:
//!
//! - **Ownership.** A publisher reads only versions of servers it owns;
//!   another publisher's version is reported as absent, not forbidden (its
//!   existence is not ours to reveal), for the API and the UI alike.
//! - **Stored data that cannot be read is an error.** A snapshot or report
//!   that no longer decodes is reported as [`ReadError::Unreadable`] (the API
//!   answers a problem+json 500 titled so, the page an error message, both
//!   logged) — never an empty page a reviewer might approve from, nor a
//!   version that silently shows no findings.

use serde_json::Value;

use super::diff::{self, Diff};
use crate::analysis::{Finding, Report};
use crate::registry::lifecycle;
use crate::snapshot::Snapshot;
use crate::storage::Db;
use crate::storage::versions::{self, ApprovalRow, ScanRow, VersionRow};

/// Why a version could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// No such version (or, for a publisher, not one of its own).
    #[error("no version {version:?} of {name:?}")]
    NotFound {
        /// Server name asked for.
        name: String,
        /// Version asked for.
        version: String,
    },
    /// A stored document does not decode.
    #[error("the stored {what} of {subject} cannot be read; rescan the version")]
    Unreadable {
        /// `name@version`.
        subject: String,
        /// Which document (`snapshot`, `report`, `server.json`).
        what: &'static str,
        /// The decoding error.
        source: serde_json::Error,
    },
    /// Database failure.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Who is reading: reviewers see everything, a publisher only its own
/// versions, without the network detail of crawl failures.
#[derive(Debug, Clone, Copy)]
pub enum Reader<'a> {
    /// An admin or reviewer.
    Reviewer,
    /// The publisher with this id.
    Publisher(&'a str),
}

/// The latest completed scan of a version, decoded.
#[derive(Debug, Clone)]
pub struct LatestScan {
    /// The stored row (times, error).
    pub row: ScanRow,
    /// What the crawl saw, when it produced a snapshot.
    pub snapshot: Option<Snapshot>,
    /// What the analysis found, when it ran.
    pub report: Option<Report>,
}

/// The changes since the last approved version.
#[derive(Debug, Clone)]
pub struct VersionDiff {
    /// The version compared against.
    pub against: VersionRow,
    /// What changed.
    pub changes: Diff,
}

/// Everything a reader may see of one version.
#[derive(Debug, Clone)]
pub struct VersionDetail {
    /// The stored row.
    pub version: VersionRow,
    /// Its server.json, parsed.
    pub server_json: Value,
    /// The latest scan.
    pub scan: Option<LatestScan>,
    /// The diff against the last approved version (reviewers only).
    pub diff: Option<VersionDiff>,
    /// The approval decision (reviewers only).
    pub approval: Option<ApprovalRow>,
}

impl VersionDetail {
    /// The latest scan's snapshot, if any.
    pub fn snapshot(&self) -> Option<&Snapshot> {
        self.scan.as_ref().and_then(|s| s.snapshot.as_ref())
    }

    /// The latest scan's report, if any.
    pub fn report(&self) -> Option<&Report> {
        self.scan.as_ref().and_then(|s| s.report.as_ref())
    }

    /// The latest scan's findings (none without a report).
    pub fn findings(&self) -> &[Finding] {
        self.report().map_or(&[], |r| r.findings.as_slice())
    }
}

/// Reads `name@version` for `reader`.
pub async fn read_version(
    db: &Db,
    reader: Reader<'_>,
    name: &str,
    version: &str,
) -> Result<VersionDetail, ReadError> {
    let not_found = || ReadError::NotFound {
        name: name.to_string(),
        version: version.to_string(),
    };
    let row = match reader {
        Reader::Reviewer => versions::get_version(db, name, version).await?,
        Reader::Publisher(id) => versions::get_own_version(db, id, name, version).await?,
    }
    .ok_or_else(not_found)?;
    let subject = format!("{}@{}", row.server_name, row.version);
    let server_json =
        serde_json::from_str(&row.server_json).map_err(|source| ReadError::Unreadable {
            subject: subject.clone(),
            what: "server.json",
            source,
        })?;
    let mut scan = latest_scan(db, &row).await?;
    let (diff, approval) = match reader {
        Reader::Reviewer => {
            let diff = match scan.as_ref().and_then(|s| s.snapshot.as_ref()) {
                Some(now) => match versions::last_approved_before(db, &row).await? {
                    Some(prev) => {
                        latest_scan(db, &prev)
                            .await?
                            .and_then(|s| s.snapshot)
                            .map(|before| VersionDiff {
                                changes: diff::diff(&before, now),
                                against: prev,
                            })
                    }
                    None => None,
                },
                None => None,
            };
            (diff, versions::approval(db, &row.id).await?)
        }
        Reader::Publisher(_) => {
            if let Some(scan) = &mut scan {
                redact_for_publisher(scan);
            }
            (None, None)
        }
    };
    Ok(VersionDetail {
        version: row,
        server_json,
        scan,
        diff,
        approval,
    })
}

/// The latest scan of `v`, decoded; an undecodable snapshot or report is an error.
pub async fn latest_scan(db: &Db, v: &VersionRow) -> Result<Option<LatestScan>, ReadError> {
    let Some(row) = versions::latest_scan(db, &v.id).await? else {
        return Ok(None);
    };
    let unreadable = |what: &'static str| {
        let subject = format!("{}@{}", v.server_name, v.version);
        move |source| ReadError::Unreadable {
            subject,
            what,
            source,
        }
    };
    let snapshot = row
        .snapshot
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(unreadable("snapshot"))?;
    let report = row
        .report
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(unreadable("report"))?;
    Ok(Some(LatestScan {
        row,
        snapshot,
        report,
    }))
}

/// Crawl failures name hosts, addresses and statuses: reviewers keep the
/// detail, a publisher sees the category of the failure only.
fn redact_for_publisher(scan: &mut LatestScan) {
    if let Some(error) = &mut scan.row.error {
        *error = lifecycle::publisher_scan_error(error).to_string();
    }
    if let Some(report) = &mut scan.report {
        for f in &mut report.findings {
            if lifecycle::evidence_is_network_detail(&f.rule) {
                f.evidence.clear();
            }
        }
    }
}
