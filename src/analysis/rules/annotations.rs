//! Annotation rules: a tool whose name says it destroys something but whose
//! annotations claim it is read-only or non-destructive. Clients use these
//! hints to skip confirmation, so a wrong one removes a safeguard.

use super::{Sink, default_severity};
use crate::analysis::catalogue::ids;
use crate::analysis::normalize::visible;
use crate::analysis::rules::names::words;
use crate::snapshot::{Snapshot, Target, TargetKind};

/// Words that make a tool name sound destructive. Data: extend freely.
pub const DESTRUCTIVE_WORDS: &[&str] = &[
    "delete",
    "remove",
    "destroy",
    "drop",
    "erase",
    "purge",
    "wipe",
    "truncate",
    "kill",
    "terminate",
    "revoke",
    "reset",
    "overwrite",
    "uninstall",
    "shutdown",
    "rm",
    "unlink",
    "nuke",
];

/// Checks every tool's annotations against its name.
pub fn check(sink: &mut Sink<'_>, snapshot: &Snapshot) {
    for tool in &snapshot.tools {
        let Some(a) = tool.annotations.as_ref().and_then(|a| a.as_object()) else {
            continue;
        };
        let w = words(&tool.name);
        let Some(word) = w.iter().find(|x| DESTRUCTIVE_WORDS.contains(&x.as_str())) else {
            continue;
        };
        let read_only = a.get("readOnlyHint").and_then(|v| v.as_bool()) == Some(true);
        let not_destructive = a.get("destructiveHint").and_then(|v| v.as_bool()) == Some(false);
        let t = Target::new(TargetKind::Tool, &tool.name);
        if read_only {
            sink.add(
                ids::ANN_DESTRUCTIVE,
                default_severity(ids::ANN_DESTRUCTIVE),
                &t,
                "annotations.readOnlyHint",
                format!("Name says {word:?} but readOnlyHint is true"),
                visible(&tool.name),
            );
        } else if not_destructive {
            sink.add(
                ids::ANN_DESTRUCTIVE,
                default_severity(ids::ANN_DESTRUCTIVE),
                &t,
                "annotations.destructiveHint",
                format!("Name says {word:?} but destructiveHint is false"),
                visible(&tool.name),
            );
        }
    }
}
