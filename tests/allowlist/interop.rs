//! Interoperability: documents written by Gatehouse are verified by
//! `tests/interop/verify_allowlist.py`, an independent verifier written from
//! the format alone with Python's `cryptography` and `rfc8785`. It recomputes
//! a tool's pin from the tool JSON, so the JCS pins agree across languages.
//!
//! The Python peers are installed by `.ci/setup.d/30-allowlist-peers.sh`.
//! Without them these tests print `SKIPPED: …` and pass, unless
//! `GATEHOUSE_REQUIRE_PEERS=1` (CI), where a missing peer fails the test.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chrono::Utc;
use gatehouse::allowlist::pin_tool;
use serde_json::{Value, json};
use support::*;

/// The Python interpreter with the peers installed (`GATEHOUSE_PYTHON`, else
/// `python3`), or `None` after printing why the test is skipped.
fn python_with_peers(test: &str) -> Option<String> {
    let python = std::env::var("GATEHOUSE_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = Command::new(&python)
        .args(["-c", "import cryptography, rfc8785"])
        .output();
    let available = matches!(&probe, Ok(o) if o.status.success());
    if available {
        return Some(python);
    }
    let why = match probe {
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
        Err(e) => format!("{python}: {e}"),
    };
    if std::env::var("GATEHOUSE_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
        panic!(
            "{test}: GATEHOUSE_REQUIRE_PEERS=1 but the Python peers are missing ({why}); run .ci/setup.d/30-allowlist-peers.sh"
        );
    }
    eprintln!(
        "SKIPPED: {test}: Python with cryptography and rfc8785 is not available ({why}); run .ci/setup.d/30-allowlist-peers.sh"
    );
    None
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/verify_allowlist.py")
}

/// Runs the independent verifier and parses its one-line JSON answer.
fn run_python(python: &str, args: &[&str]) -> (Output, Value) {
    let output = Command::new(python)
        .arg(script())
        .args(args)
        .output()
        .expect("python runs");
    let answer = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON answer ({e}); stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, answer)
}

#[test]
fn the_independent_verifier_accepts_a_gatehouse_allowlist_and_recomputes_the_tool_pin() {
    let Some(python) = python_with_peers(
        "the_independent_verifier_accepts_a_gatehouse_allowlist_and_recomputes_the_tool_pin",
    ) else {
        return;
    };
    let registry = Registry::new();
    let root = registry.pin_root_v1();
    let file = registry.write("allowlist.json", &registry.current_allowlist(4));
    let tool = registry.write("tool.json", &serde_json::to_vec(&forecast_tool()).unwrap());

    let (output, answer) = run_python(
        &python,
        &[
            "--root",
            p(&root),
            "--file",
            p(&file),
            "--tool",
            p(&tool),
            "--server",
            "com.example/weather",
        ],
    );

    assert_eq!(output.status.code(), Some(0), "answer: {answer}");
    assert_eq!(answer["ok"], true);
    assert_eq!(answer["version"], 4);
    assert_eq!(answer["pin_matches"], true);
    let rust_pin = pin_tool(&serde_json::from_value(forecast_tool()).unwrap());
    assert_eq!(answer["tool_pin"], json!(rust_pin));
}

#[test]
fn the_independent_verifier_follows_a_key_rotation() {
    let Some(python) = python_with_peers("the_independent_verifier_follows_a_key_rotation") else {
        return;
    };
    let mut registry = Registry::new();
    let root = registry.pin_root_v1();
    registry.store.rotate_allowlist_key(Utc::now()).unwrap();
    registry.store.rotate_root_key(Utc::now()).unwrap();
    let file = registry.write("allowlist.json", &registry.current_allowlist(2));
    let roots = registry.roots_dir();

    let (output, answer) = run_python(
        &python,
        &[
            "--root",
            p(&root),
            "--file",
            p(&file),
            "--roots-dir",
            p(&roots),
        ],
    );

    assert_eq!(output.status.code(), Some(0), "answer: {answer}");
    assert_eq!(answer["root_version"], 3);
}

#[test]
fn the_independent_verifier_refuses_a_tampered_allowlist() {
    let Some(python) = python_with_peers("the_independent_verifier_refuses_a_tampered_allowlist")
    else {
        return;
    };
    let registry = Registry::new();
    let root = registry.pin_root_v1();
    let forged = tamper_payload(&registry.current_allowlist(1), |p| p["servers"] = json!([]));
    let file = registry.write("allowlist.json", &forged);

    let (output, answer) = run_python(&python, &["--root", p(&root), "--file", p(&file)]);

    assert_eq!(output.status.code(), Some(1), "answer: {answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("valid signature"),
        "answer: {answer}"
    );
}

#[test]
fn the_independent_verifier_reports_a_changed_tool() {
    let Some(python) = python_with_peers("the_independent_verifier_reports_a_changed_tool") else {
        return;
    };
    let registry = Registry::new();
    let root = registry.pin_root_v1();
    let file = registry.write("allowlist.json", &registry.current_allowlist(1));
    let mut changed = forecast_tool();
    changed["inputSchema"]["properties"]["notes"] = json!({"type": "string"});
    let tool = registry.write("tool.json", &serde_json::to_vec(&changed).unwrap());

    let (output, answer) = run_python(
        &python,
        &["--root", p(&root), "--file", p(&file), "--tool", p(&tool)],
    );

    assert_eq!(output.status.code(), Some(1), "answer: {answer}");
    assert_eq!(answer["pin_matches"], false);
}

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}
