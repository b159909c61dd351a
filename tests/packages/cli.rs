//! `gatehouse scan --package`: the same install, sandbox, crawl and
//! ownership check from the command line, with the scan's exit codes (0
//! clean, 1 on a high finding, 2 on bad input or a failed crawl).

use std::process::{Command, Output};

use serde_json::Value;

use crate::helpers::{npm_sandbox, pip_sandbox, shared_cache};

/// Runs `gatehouse scan ARGS --format json` with the shared install cache as its data directory.
fn scan(args: &[&str]) -> (Output, Option<Value>) {
    let data = shared_cache().join("cli");
    std::fs::create_dir_all(&data).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("scan")
        .args(args)
        .args(["--format", "json"])
        .env("GATEHOUSE_DATA_DIR", &data)
        .env("GATEHOUSE_LOG", "warn")
        .output()
        .expect("gatehouse runs");
    let report = serde_json::from_slice(&out.stdout).ok();
    (out, report)
}

fn rules(report: &Value) -> Vec<&str> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect()
}

#[test]
fn scan_package_npm_reports_the_ownership_finding_and_exits_1() {
    if !npm_sandbox() {
        return;
    }
    let (out, report) = scan(&[
        "--package",
        "npm:@modelcontextprotocol/server-memory@2026.8.31",
        "--server-name",
        "io.github.impostor/memory",
    ]);
    let report = report.unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(1));
    assert!(rules(&report).contains(&"GH-OWN-001"));
    let package = &report["snapshot"]["crawl"]["package"];
    assert_eq!(package["resolvedVersion"], "2026.8.31");
    assert!(report["snapshot"]["tools"].as_array().unwrap().len() >= 5);
}

#[test]
fn scan_package_pypi_crawls_the_wheel_install() {
    if !pip_sandbox() {
        return;
    }
    let (out, report) = scan(&["--package", "pypi:mcp-server-time==2026.10.19"]);
    let report = report.unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    assert!(matches!(out.status.code(), Some(0 | 1)), "{:?}", out.status);
    let tools: Vec<&str> = report["snapshot"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["get_current_time", "convert_time"]);
    assert!(
        report["snapshot"]["crawl"]["package"]["integrity"]
            .as_str()
            .unwrap()
            .starts_with("sha256=")
    );
}

#[test]
fn scan_package_refuses_a_range_or_an_option_with_exit_2() {
    for spec in ["npm:@scope/name@^1.0.0", "pypi:--index-url==1", "oci:x@1"] {
        let (out, _) = scan(&["--package", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("is not"));
    }
}

#[test]
fn a_source_only_pypi_release_is_a_finding_not_an_install() {
    if !pip_sandbox() {
        return;
    }
    // pyperclip 1.8.2 was published as a source distribution only.
    let (out, report) = scan(&["--package", "pypi:pyperclip==1.8.2"]);
    let report = report.unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(rules(&report), ["GH-PKG-001"]);
    assert!(report["snapshot"].is_null());
    let installed = shared_cache().join("cli/packages/pypi");
    let kept = std::fs::read_dir(&installed)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| {
                    std::fs::read_to_string(e.path().join("install.json"))
                        .is_ok_and(|t| t.contains(r#""pyperclip""#))
                })
                .count()
        })
        .unwrap_or(0);
    assert_eq!(kept, 0, "nothing of it was installed");
}
