//! Real packages, installed from the npm registry and PyPI, started in the
//! sandbox and crawled: `@modelcontextprotocol/server-memory` and
//! `@modelcontextprotocol/server-filesystem` (npm), `mcp-server-time` (PyPI).
//! Their tool lists equal what the official TypeScript SDK client
//! (`tests/interop/list.mjs`) lists when it starts the same install over
//! stdio, outside the sandbox. A second install comes from the cache.

use std::path::Path;
use std::time::Instant;

use gatehouse::discovery::CrawlOptions;
use gatehouse::packages::{self, Installed, PackageRef, PackagesConfig};
use serde_json::Value;

use crate::helpers::{interop_dir, npm_sandbox, pip_sandbox, shared_cache};

/// Tools as the TypeScript SDK client lists them, starting `installed` over
/// stdio on the host (the sandbox's paths mapped to the install directory).
fn reference_tools(interop: &Path, installed: &Installed, extra_args: &[String]) -> Vec<Value> {
    let inside = packages::sandbox::PACKAGE_DIR;
    let host = installed.dir.display().to_string();
    let args: Vec<String> = installed
        .arguments
        .iter()
        .chain(extra_args)
        .map(|a| match a.strip_prefix(inside) {
            Some(rest) if a.starts_with(&format!("{inside}/")) => format!("{host}{rest}"),
            _ => a.clone(),
        })
        .collect();
    let env: serde_json::Map<String, Value> = installed
        .environment
        .iter()
        .map(|(k, v)| {
            let v = v.replace(inside, &host);
            (k.clone(), Value::String(v))
        })
        .collect();
    let output = std::process::Command::new("node")
        .arg(interop.join("list.mjs"))
        .arg("stdio")
        .arg(&installed.program)
        .args(&args)
        .env("GATEHOUSE_STDIO_ENV", Value::Object(env).to_string())
        .output()
        .expect("node runs the reference client");
    assert!(
        output.status.success(),
        "the reference client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
    listed["tools"].as_array().unwrap().clone()
}

/// The fields of a tool both clients must agree on.
fn comparable(tool: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for key in [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ] {
        if let Some(v) = tool.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Installs `spec` (cold, then again from the cache), crawls it in the
/// sandbox and compares its tools with the reference client's.
async fn installs_crawls_and_matches_the_sdk(
    spec: &str,
    extra_args: &[&str],
    host_args: &[String],
) {
    let Some(interop) = interop_dir() else {
        return;
    };
    // Arrange: a fresh cache, so the first install is a cold one.
    let cache = tempfile::tempdir_in(shared_cache()).unwrap();
    std::fs::set_permissions(
        cache.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let mut config = PackagesConfig::new(cache.path());
    config.cache_dir = cache.path().to_path_buf();
    let mut package = PackageRef::parse_spec(spec).unwrap();
    package.arguments = extra_args.iter().map(|a| a.to_string()).collect();

    // Act: install twice, crawl once.
    let cold = Instant::now();
    let installed = packages::install::install(&package, &config)
        .await
        .expect("installs");
    let cold = cold.elapsed();
    let again = packages::install::install(&package, &config).await.unwrap();
    let started = Instant::now();
    let snapshot = packages::crawl_installed(
        &installed,
        &package,
        &config.limits,
        &CrawlOptions::default(),
    )
    .await
    .expect("crawls in the sandbox");
    let crawl = started.elapsed();
    eprintln!(
        "FIGURES {spec}: install cold {} ms, cached {} ms, crawl {} ms, {} dependencies",
        cold.as_millis(),
        again.facts.install_ms,
        crawl.as_millis(),
        installed.facts.dependencies
    );

    // Assert: what was installed is recorded, the cache was used, the tools match.
    assert!(!installed.facts.cached && again.facts.cached);
    assert_eq!(installed.facts.resolved_version, package.version);
    assert!(
        installed.facts.integrity.starts_with("sha512-")
            || installed.facts.integrity.starts_with("sha256="),
        "integrity {:?}",
        installed.facts.integrity
    );
    assert!(snapshot.crawl.as_ref().unwrap().errors.is_empty());
    let ours: Vec<Value> = snapshot
        .tools
        .iter()
        .map(|t| comparable(&serde_json::to_value(t).unwrap()))
        .collect();
    let theirs: Vec<Value> = reference_tools(&interop, &installed, host_args)
        .iter()
        .map(comparable)
        .collect();
    assert!(!ours.is_empty());
    assert_eq!(ours, theirs);
}

#[tokio::test]
async fn server_memory_from_npm_is_crawled_in_the_sandbox_like_the_sdk_lists_it() {
    if !npm_sandbox() {
        return;
    }
    installs_crawls_and_matches_the_sdk(
        "npm:@modelcontextprotocol/server-memory@2026.8.31",
        &[],
        &[],
    )
    .await;
}

#[tokio::test]
async fn server_filesystem_from_npm_is_crawled_in_the_sandbox_like_the_sdk_lists_it() {
    if !npm_sandbox() {
        return;
    }
    // The server needs an allowed directory: the sandbox's /tmp, and a host one for the reference.
    let host = tempfile::tempdir().unwrap();
    installs_crawls_and_matches_the_sdk(
        "npm:@modelcontextprotocol/server-filesystem@2026.8.31",
        &[packages::PLACEHOLDER_PATH],
        &[host.path().display().to_string()],
    )
    .await;
}

#[tokio::test]
async fn mcp_server_time_from_pypi_is_crawled_in_the_sandbox_like_the_sdk_lists_it() {
    if !pip_sandbox() {
        return;
    }
    installs_crawls_and_matches_the_sdk("pypi:mcp-server-time==2026.10.19", &[], &[]).await;
}
