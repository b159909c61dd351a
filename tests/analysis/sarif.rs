//! The SARIF rendering validates against the official SARIF 2.1.0 JSON
//! Schema (vendored in `schemas/sarif-2.1.0.json`), and each result's
//! location names the capability and the field.

use std::path::Path;

use gatehouse::analysis::{self, Context, RulesConfig, format};
use gatehouse::snapshot::Snapshot;
use serde_json::Value;

fn load(rel: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    serde_json::from_slice(&std::fs::read(&path).expect("file readable")).expect("valid JSON")
}

fn sarif_of(fixture: &str, cfg: &RulesConfig) -> Value {
    let snap: Snapshot = serde_json::from_value(load(fixture)).expect("fixture is a snapshot");
    format::sarif(&analysis::analyze(&snap, &Context::default(), cfg))
}

fn errors(log: &Value) -> Vec<String> {
    let mut schema = load("schemas/sarif-2.1.0.json");
    // The official schema's `language` patterns have a stray `]`, legal in
    // ECMA-262 without the `u` flag but rejected by the crate's strict
    // `format: regex` check. Escaping it keeps the meaning (a literal `]`);
    // nothing else of the vendored file is touched.
    assert!(
        escape_stray_bracket(&mut schema) > 0,
        "upstream pattern changed"
    );
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn assert_valid(log: &Value) {
    let errors = errors(log);
    assert!(errors.is_empty(), "SARIF log is invalid: {errors:#?}");
}

/// The upstream pattern with the stray bracket.
const STRAY: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

/// Escapes the stray bracket wherever the pattern occurs; returns how often.
fn escape_stray_bracket(v: &mut Value) -> usize {
    match v {
        Value::String(s) if s == STRAY => {
            *s = r"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\]?$".to_string();
            1
        }
        Value::Object(map) => map.values_mut().map(escape_stray_bracket).sum(),
        Value::Array(items) => items.iter_mut().map(escape_stray_bracket).sum(),
        _ => 0,
    }
}

#[test]
fn sarif_for_an_attack_validates_against_the_sarif_2_1_0_schema() {
    let log = sarif_of(
        "tests/fixtures/analysis/attacks/tagged_enum.json",
        &RulesConfig::default(),
    );
    assert_valid(&log);
    assert_eq!(log["version"], "2.1.0");
    assert!(
        !log["runs"][0]["results"]
            .as_array()
            .expect("results")
            .is_empty()
    );
    // The check has teeth: a wrong level is rejected.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!errors(&broken).is_empty());
}

#[test]
fn sarif_for_an_honest_server_and_custom_rules_validates_too() {
    let cfg = RulesConfig::from_toml(
        "[[rules]]\nid = \"ACME-001\"\ncategory = \"quality\"\nseverity = \"low\"\ntitle = \"Mentions directories\"\npattern = 'director'",
    )
    .expect("rules parse");
    let log = sarif_of("tests/fixtures/analysis/honest/filesystem.json", &cfg);
    assert_valid(&log);
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "ACME-001"));
}

#[test]
fn each_sarif_result_names_the_capability_and_the_field() {
    let log = sarif_of(
        "tests/fixtures/analysis/attacks/tagged_enum.json",
        &RulesConfig::default(),
    );
    let results = log["runs"][0]["results"].as_array().expect("results");
    let hidden = results
        .iter()
        .find(|r| r["ruleId"] == "GH-HID-001")
        .expect("tag finding");
    let locations = &hidden["locations"][0]["logicalLocations"];
    assert_eq!(locations[0]["name"], "pick_color");
    assert_eq!(locations[0]["fullyQualifiedName"], "tool:pick_color");
    assert_eq!(locations[1]["name"], "inputSchema.properties.color.enum[2]");
    assert_eq!(hidden["level"], "error");
    let index = hidden["ruleIndex"].as_u64().expect("rule index") as usize;
    assert_eq!(
        log["runs"][0]["tool"]["driver"]["rules"][index]["id"],
        "GH-HID-001"
    );
}
