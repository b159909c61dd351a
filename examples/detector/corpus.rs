//! The detector corpus (`corpus/`): real servers (the benign class), poisoned
//! servers written for this project with one label per poisoned capability,
//! and hard-benign servers. Shared by `detector_eval` and `detector_train`
//! so that both see the same split.
//!
//! The split is **by server**: every capability of a server lands on the same
//! side. Poisoned servers `xx-NN` with NN divisible by 5 and the hard-benign
//! servers `xx-benign-04` are held out, so every writer's style is on both
//! sides; real servers are held out by a fixed hash of their file name (one
//! in five). Four writers' servers (`wi-`, `wu-`, `wv-`, `ww-`, see
//! [`UNSEEN_WRITERS`]) are all held out: test sets in wordings that nothing
//! trained on has seen.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gatehouse::snapshot::{Snapshot, Target, TargetKind};

/// Which side of the split a server is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    Train,
    Test,
}

/// What a server is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A real public server.
    Real,
    /// Real public tools translated for this project (honest, non-English).
    Translated,
    /// A hard-benign server written for this project.
    HardBenign,
    /// A poisoned server written for this project.
    Poisoned,
}

/// One label: a poisoned capability.
#[derive(Debug, Clone)]
pub struct Label {
    pub target: Target,
    pub kind: String,
    pub lang: String,
    pub field: String,
    pub payload: String,
}

/// One server of the corpus.
pub struct Server {
    pub id: String,
    pub class: Class,
    pub split: Split,
    pub snapshot: Snapshot,
    pub labels: Vec<Label>,
}

/// FNV-1a, for a split that never changes between runs or platforms.
pub fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The cross-validation fold (of five) of a training server: a hash
/// independent of the split's, so that every fold holds real servers.
pub fn fold(id: &str) -> usize {
    (fnv(&format!("fold:{id}")) % 5) as usize
}

/// Writers whose every server is on the test side.
///
/// `wu`, `wv` and `ww` (tenth pass) were first split as usual. Trained on,
/// they cost 12 of 2,015 validation attacks on average over seeds 0–2 at
/// about the same false positives (and 19 test attacks at equal false
/// positives), so they measure instead: 165 servers in three wordings that
/// the shipped weights never saw.
pub const UNSEEN_WRITERS: &[&str] = &["wi-", "wu-", "wv-", "ww-"];

/// The side of the split of a server file stem.
pub fn split_of(id: &str, class: Class) -> Split {
    if UNSEEN_WRITERS.iter().any(|w| id.starts_with(w)) {
        return Split::Test;
    }
    let held = match class {
        Class::Real => fnv(id) % 5 == 0,
        // A translation lands on its source server's side.
        Class::Translated => {
            let source = id
                .strip_prefix("tr-")
                .and_then(|r| r.split_once('-'))
                .map_or(id, |(_, s)| s);
            fnv(source) % 5 == 0
        }
        Class::HardBenign => id.ends_with("-04"),
        Class::Poisoned => id
            .rsplit('-')
            .next()
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n % 5 == 0),
    };
    if held { Split::Test } else { Split::Train }
}

/// Parses `kind:name` into a target.
pub fn parse_target(s: &str) -> Target {
    let (kind, name) = s.split_once(':').unwrap_or(("tool", s));
    let kind = match kind {
        "prompt" => TargetKind::Prompt,
        "resource" => TargetKind::Resource,
        "resource_template" => TargetKind::ResourceTemplate,
        "server" => TargetKind::Server,
        _ => TargetKind::Tool,
    };
    Target::new(kind, name)
}

/// The corpus folder (next to Cargo.toml).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

fn read_snapshot(path: &Path) -> Snapshot {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Loads every server of the corpus.
pub fn load() -> Vec<Server> {
    let root = root();
    let mut labels: HashMap<String, Vec<Label>> = HashMap::new();
    let text = std::fs::read_to_string(root.join("attacks/labels.jsonl")).expect("labels.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("label line");
        let file = v["file"].as_str().unwrap_or_default();
        let id = Path::new(file)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        labels.entry(id).or_default().push(Label {
            target: parse_target(v["target"].as_str().unwrap_or_default()),
            kind: v["kind"].as_str().unwrap_or_default().to_string(),
            lang: v["lang"].as_str().unwrap_or_default().to_string(),
            field: v["field"].as_str().unwrap_or_default().to_string(),
            payload: v["payload"].as_str().unwrap_or_default().to_string(),
        });
    }
    let mut out = Vec::new();
    for (dir, default_class) in [
        ("real/servers", Class::Real),
        ("translated/servers", Class::Translated),
        ("attacks/servers", Class::Poisoned),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("corpus folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let id = path.file_stem().unwrap().to_string_lossy().to_string();
            let class = if default_class == Class::Poisoned && id.contains("-benign-") {
                Class::HardBenign
            } else {
                default_class
            };
            out.push(Server {
                split: split_of(&id, class),
                snapshot: read_snapshot(&path),
                labels: labels.remove(&id).unwrap_or_default(),
                id,
                class,
            });
        }
    }
    out
}

/// Every capability target of a snapshot (tools, prompts, resources, templates).
pub fn targets(s: &Snapshot) -> Vec<Target> {
    let mut t = Vec::new();
    t.extend(
        s.tools
            .iter()
            .map(|x| Target::new(TargetKind::Tool, &x.name)),
    );
    t.extend(
        s.prompts
            .iter()
            .map(|x| Target::new(TargetKind::Prompt, &x.name)),
    );
    t.extend(
        s.resources
            .iter()
            .map(|x| Target::new(TargetKind::Resource, &x.name)),
    );
    t.extend(
        s.resource_templates
            .iter()
            .map(|x| Target::new(TargetKind::ResourceTemplate, &x.name)),
    );
    t
}
