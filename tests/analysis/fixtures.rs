//! Snapshot fixtures: servers shaped like common honest ones (filesystem,
//! git, memory, time, fetch, GitHub, the everything server, tools that
//! honestly touch credentials) must yield no high or critical finding, and
//! attack variants (in output schemas, enum values, resource templates,
//! prompts, server instructions, hex, tag characters, Chinese) must be found
//! at high or above on the right capability.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gatehouse::analysis::{self, Context, Report, RulesConfig, Severity};
use gatehouse::snapshot::Snapshot;

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/analysis")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixture directory exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && p.file_name().is_some_and(|n| n != "labels.json")
        })
        .collect();
    files.sort();
    files
}

fn scan(path: &Path) -> Report {
    let bytes = std::fs::read(path).expect("fixture readable");
    let snap: Snapshot = serde_json::from_slice(&bytes).expect("fixture is a snapshot");
    analysis::analyze(&snap, &Context::default(), &RulesConfig::default())
}

#[test]
fn honest_servers_have_no_high_or_critical_finding() {
    let files = fixtures("honest");
    assert!(
        files.len() >= 7,
        "expected the honest fixtures, found {}",
        files.len()
    );
    for path in files {
        let report = scan(&path);
        let high: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity >= Severity::High)
            .map(|f| {
                format!(
                    "{} {}:{} {} — {}",
                    f.rule,
                    f.target.kind.as_str(),
                    f.target.name,
                    f.field,
                    f.evidence
                )
            })
            .collect();
        assert!(high.is_empty(), "{}: {high:#?}", path.display());
    }
}

#[test]
fn attack_variants_are_found_at_high_on_the_right_capability() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/analysis/attacks");
    let labels: BTreeMap<String, String> =
        serde_json::from_slice(&std::fs::read(root.join("labels.json")).expect("labels"))
            .expect("labels parse");
    let files = fixtures("attacks");
    assert_eq!(
        files.len(),
        labels.len(),
        "every attack fixture has a label"
    );
    for path in files {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name")
            .to_string();
        let (kind, name) = labels[&stem].split_once(':').expect("label is kind:name");
        let report = scan(&path);
        let found = report.findings.iter().any(|f| {
            f.severity >= Severity::High && f.target.kind.as_str() == kind && f.target.name == name
        });
        assert!(
            found,
            "{stem}: no high finding on {kind}:{name}; findings: {:#?}",
            report.findings
        );
    }
}
