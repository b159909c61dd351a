//! Scores the whole analysis on the detector corpus (`corpus/`), split by
//! server: recall at high/critical on poisoned capabilities, false
//! positives on honest ones, per kind and per language.
//!
//! ```text
//! cargo run --release --example detector_eval -- [--split test|train|all] [--verbose] [--only-phrases] [--weights FILE]
//! ```

#[path = "detector/corpus.rs"]
mod corpus;

use std::collections::{BTreeMap, HashSet};

use corpus::{Class, Split};
use gatehouse::analysis::{self, Context, RulesConfig, Severity};
use gatehouse::snapshot::Target;

/// Scores a labelled folder (see `--probe`).
fn probe(dir: &std::path::Path) {
    let labels: BTreeMap<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(dir.join("labels.json")).expect("labels.json"))
            .expect("labels");
    let (mut attacks, mut caught, mut honest, mut fp) = (0, 0, 0, 0);
    for (id, label) in &labels {
        let text = std::fs::read(dir.join(format!("{id}.json"))).expect("a case file");
        let snapshot: gatehouse::snapshot::Snapshot =
            serde_json::from_slice(&text).expect("a snapshot");
        let report = analysis::analyze(&snapshot, &Context::default(), &RulesConfig::default());
        let high = report.findings.iter().any(|f| f.severity >= Severity::High);
        match label["kind"].as_str() {
            Some("malicious") => {
                attacks += 1;
                caught += usize::from(high);
                if !high {
                    println!("missed: {id}");
                }
            }
            Some("benign") => {
                honest += 1;
                fp += usize::from(high);
                if high {
                    println!("false positive: {id}");
                }
            }
            _ => {}
        }
    }
    println!("probe: {caught}/{attacks} caught, {fp}/{honest} honest flagged");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let want = args
        .iter()
        .position(|a| a == "--split")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
        .unwrap_or("test");
    let verbose = args.iter().any(|a| a == "--verbose");
    // `--weights FILE`: score freshly trained weights without rebuilding.
    if let Some(path) = args
        .iter()
        .position(|a| a == "--weights")
        .and_then(|i| args.get(i + 1))
    {
        let bytes = std::fs::read(path).expect("weights file");
        let mut model =
            gatehouse::analysis::model::Model::from_bytes(&bytes).expect("a weights file");
        // `--high/--medium/--support P`: other thresholds, for calibration
        // on a validation fold (`--split val:K`).
        let num = |name: &str| {
            args.iter()
                .position(|a| a == name)
                .and_then(|i| args.get(i + 1))
                .and_then(|v| v.parse::<f32>().ok())
        };
        model.high = num("--high").unwrap_or(model.high);
        model.medium = num("--medium").unwrap_or(model.medium);
        model.support = num("--support").unwrap_or(model.support);
        if let Some(p) = num("--descriptive") {
            gatehouse::analysis::rules::directives::set_descriptive_high_for_experiment(p);
        }
        assert!(gatehouse::analysis::model::use_for_experiment(model));
    }
    // `--probe DIR`: a labelled folder in the development corpus's format
    // (`labels.json` beside one snapshot per case), scored as
    // `shared/eval/score.py` scores it (any high finding detects a
    // malicious case and flags a benign one), with the weights above:
    // a blind probe measured against retrained weights without a rebuild.
    if let Some(dir) = args
        .iter()
        .position(|a| a == "--probe")
        .and_then(|i| args.get(i + 1))
    {
        probe(std::path::Path::new(dir));
        return;
    }
    let servers = corpus::load();
    // `--only-phrases`: the rules as they were before the directive model
    // and the learned model, for before/after figures.
    let mut rules = RulesConfig::default();
    if args.iter().any(|a| a == "--only-phrases") {
        for r in analysis::catalogue() {
            if r.id.starts_with("GH-DIR-") || r.id.starts_with("GH-LRN-") {
                rules.disabled.insert(r.id.to_string());
            }
        }
    }
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut per_lang: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut attacks, mut caught) = (0usize, 0usize);
    let (mut honest, mut fp) = (0usize, 0usize);
    let (mut medium_only, mut honest_medium) = (0usize, 0usize);
    let mut medium_rules: BTreeMap<String, BTreeMap<&str, usize>> = BTreeMap::new();
    let mut fp_by_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut real_servers, mut real_tools, mut real_medium, mut real_high_servers) = (0, 0, 0, 0);
    let mut fp_rules: BTreeMap<String, usize> = BTreeMap::new();
    let mut tp_rules: BTreeMap<String, usize> = BTreeMap::new();
    for s in &servers {
        let keep = match want {
            "train" => s.split == Split::Train,
            // A validation fold of the training side (`detector_train --holdout K`).
            v if v.starts_with("val:") => {
                s.split == Split::Train && Some(corpus::fold(&s.id)) == v[4..].parse().ok()
            }
            "all" => true,
            _ => s.split == Split::Test,
        };
        // `--exclude PREFIX[,PREFIX…]`: leave some servers out of the
        // figures (the generated `wf-` servers, when calibrating on a
        // validation fold; the unseen writer `wi-`, for figures comparable
        // with earlier ones).
        let excluded = args
            .iter()
            .position(|a| a == "--exclude")
            .and_then(|i| args.get(i + 1))
            .is_some_and(|p| p.split(',').any(|p| !p.is_empty() && s.id.starts_with(p)));
        // `--only PREFIX[,PREFIX…]`: keep only these servers (one writer's).
        let only = args
            .iter()
            .position(|a| a == "--only")
            .and_then(|i| args.get(i + 1))
            .is_none_or(|p| p.split(',').any(|p| !p.is_empty() && s.id.starts_with(p)));
        if !keep || excluded || !only {
            continue;
        }
        let report = analysis::analyze(&s.snapshot, &Context::default(), &rules);
        let high: Vec<&analysis::Finding> = report
            .findings
            .iter()
            .filter(|f| f.severity >= Severity::High)
            .collect();
        let hit = |t: &Target| high.iter().any(|f| &f.target == t);
        let medium_hit = |t: &Target| {
            report
                .findings
                .iter()
                .any(|f| &f.target == t && f.severity == Severity::Medium)
        };
        let labelled: HashSet<&Target> = s.labels.iter().map(|l| &l.target).collect();
        for t in labelled.iter() {
            let mut seen = std::collections::HashSet::new();
            for f in high.iter().filter(|f| &f.target == *t) {
                if seen.insert(f.rule.clone()) {
                    *tp_rules.entry(f.rule.clone()).or_default() += 1;
                }
            }
        }
        for l in &s.labels {
            attacks += 1;
            let ok = hit(&l.target);
            caught += usize::from(ok);
            medium_only += usize::from(!ok && medium_hit(&l.target));
            if !ok {
                for f in report
                    .findings
                    .iter()
                    .filter(|f| f.target == l.target && f.severity == Severity::Medium)
                {
                    *medium_rules
                        .entry(f.rule.clone())
                        .or_default()
                        .entry("attack")
                        .or_insert(0) += 1;
                    if verbose {
                        println!(
                            "MEDA {} {:?}:{} {} «{}»",
                            s.id,
                            l.target.kind,
                            l.target.name,
                            f.rule,
                            f.evidence.chars().take(160).collect::<String>()
                        );
                    }
                }
            }
            let e = per_kind.entry(l.kind.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(ok);
            let e = per_lang.entry(l.lang.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(ok);
            if !ok && verbose {
                println!(
                    "MISS {} {:?}:{} [{}/{}] {}",
                    s.id,
                    l.target.kind,
                    l.target.name,
                    l.kind,
                    l.lang,
                    l.payload.chars().take(160).collect::<String>()
                );
            }
        }
        let class = match s.class {
            Class::Real => "real",
            Class::Translated => "translated",
            Class::HardBenign => "hard-benign",
            Class::Poisoned => "poisoned-cover",
        };
        for t in corpus::targets(&s.snapshot) {
            if labelled.contains(&t) {
                continue;
            }
            honest += 1;
            let bad = hit(&t);
            fp += usize::from(bad);
            honest_medium += usize::from(!bad && medium_hit(&t));
            if !bad {
                for f in report
                    .findings
                    .iter()
                    .filter(|f| f.target == t && f.severity == Severity::Medium)
                {
                    *medium_rules
                        .entry(f.rule.clone())
                        .or_default()
                        .entry("honest")
                        .or_insert(0) += 1;
                    if verbose {
                        println!(
                            "MEDH {} {:?}:{} {} «{}»",
                            s.id,
                            t.kind,
                            t.name,
                            f.rule,
                            f.evidence.chars().take(160).collect::<String>()
                        );
                    }
                }
            }
            let e = fp_by_class.entry(class).or_default();
            e.0 += 1;
            e.1 += usize::from(bad);
            if bad {
                for f in high.iter().filter(|f| f.target == t) {
                    *fp_rules.entry(f.rule.clone()).or_default() += 1;
                    if verbose {
                        println!(
                            "FP   {} {:?}:{} {} {} «{}»",
                            s.id,
                            t.kind,
                            t.name,
                            f.rule,
                            f.field,
                            f.evidence.chars().take(200).collect::<String>()
                        );
                    }
                }
            }
        }
        if s.class == Class::Real {
            real_servers += 1;
            real_tools += s.snapshot.tools.len();
            real_medium += report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Medium)
                .count();
            if !high.is_empty() {
                real_high_servers += 1;
                if verbose {
                    for f in high
                        .iter()
                        .filter(|f| f.target.kind == gatehouse::snapshot::TargetKind::Server)
                    {
                        println!(
                            "FP   {} server {} {} «{}»",
                            s.id,
                            f.rule,
                            f.field,
                            f.evidence.chars().take(200).collect::<String>()
                        );
                    }
                }
            }
        }
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    println!("split: {want}");
    println!(
        "attacks: {caught}/{attacks} caught at high+ (recall {:.3})",
        caught as f64 / attacks.max(1) as f64
    );
    println!(
        "honest capabilities: {fp}/{honest} false positives at high+ ({:.2} %)",
        pct(fp, honest)
    );
    println!("at medium only: {medium_only} missed attacks, {honest_medium} honest capabilities");
    for (class, (n, bad)) in &fp_by_class {
        println!("  {class}: {bad}/{n} ({:.2} %)", pct(*bad, *n));
    }
    println!(
        "real servers: {real_servers}, tools {real_tools}, servers with a high finding {real_high_servers}, medium findings {real_medium}"
    );
    println!("per kind:");
    for (k, (n, ok)) in &per_kind {
        println!(
            "  {k:14} {ok:4}/{n:4} {:.3}",
            *ok as f64 / (*n).max(1) as f64
        );
    }
    println!("per language:");
    for (k, (n, ok)) in &per_lang {
        println!(
            "  {k:4} {ok:4}/{n:4} {:.3}",
            *ok as f64 / (*n).max(1) as f64
        );
    }
    println!("medium findings by rule (on missed attacks / on honest capabilities):");
    for (r, m) in &medium_rules {
        println!(
            "  {r} {:4} / {:4}",
            m.get("attack").unwrap_or(&0),
            m.get("honest").unwrap_or(&0)
        );
    }
    println!("by rule (poisoned capabilities / honest capabilities it flags at high+):");
    let mut all: Vec<&String> = tp_rules.keys().chain(fp_rules.keys()).collect();
    all.sort();
    all.dedup();
    for r in all {
        println!(
            "  {r} {:4} / {:4}",
            tp_rules.get(r).unwrap_or(&0),
            fp_rules.get(r).unwrap_or(&0)
        );
    }
}
