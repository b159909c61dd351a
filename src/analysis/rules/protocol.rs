//! Protocol rules: the crawl's recorded anomalies and bounds hit
//! (`crawl.errors`, DESIGN.md §8) become findings, so a reviewer knows the
//! snapshot may be incomplete or the server does not follow the spec.

use super::{Sink, default_severity};
use crate::analysis::catalogue::ids;
use crate::analysis::normalize::evidence_window;
use crate::snapshot::{Snapshot, Target, crawl_codes};

/// Longest crawl message quoted (it may contain server-sent text).
const MAX_MESSAGE: usize = 300;

/// Turns every crawl error into a finding.
pub fn check(sink: &mut Sink<'_>, snapshot: &Snapshot) {
    let Some(crawl) = &snapshot.crawl else { return };
    for (i, e) in crawl.errors.iter().enumerate() {
        let (rule, title) = match e.code.as_str() {
            crawl_codes::BOUND => (ids::PRO_BOUND, "Crawl bound hit"),
            crawl_codes::TRANSPORT
            | crawl_codes::INITIALIZE
            | crawl_codes::LIST_FAILED
            | crawl_codes::INVALID_RESPONSE => (ids::PRO_FAILURE, "Crawl step failed"),
            _ => (ids::PRO_ANOMALY, "Protocol anomaly"),
        };
        let target = e.target.clone().unwrap_or_else(Target::server);
        let text = format!("{}: {}", e.code, e.message);
        // One finding per error: the field names its position in the crawl log.
        sink.add(
            rule,
            default_severity(rule),
            &target,
            &format!("crawl.errors[{i}]"),
            format!(
                "{title} ({})",
                evidence_window(&e.code, 0..e.code.len().min(40))
            ),
            evidence_window(&text, 0..text.len().min(MAX_MESSAGE)),
        );
    }
}
