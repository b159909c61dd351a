//! What the package tests share: finding the tools they need, skipping loudly.

#[path = "../support/backends.rs"]
#[allow(dead_code)]
mod backends;
pub use backends::{Backend, fresh_database_url, start, verified_allowlist};

use std::path::PathBuf;

/// Whether CI demands every peer.
fn require_peers() -> bool {
    std::env::var("GATEHOUSE_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// `true` when `what` is usable; otherwise says so loudly (or fails under
/// `GATEHOUSE_REQUIRE_PEERS=1`) and returns `false`.
pub fn have(what: &str, usable: bool) -> bool {
    if !usable {
        if require_peers() {
            panic!(
                "{what} is missing and GATEHOUSE_REQUIRE_PEERS=1 (run .ci/setup.d/25-package-sandbox.sh)"
            );
        }
        eprintln!("SKIPPED: {what} is missing");
    }
    usable
}

fn runs(program: &str, arg: &str) -> bool {
    std::process::Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// bubblewrap can make a sandbox here.
pub fn sandbox_works() -> bool {
    have(
        "bubblewrap (bwrap)",
        gatehouse::packages::sandbox::available(),
    )
}

/// bubblewrap and node.
pub fn node_sandbox() -> bool {
    sandbox_works() && have("node", runs("node", "--version"))
}

/// bubblewrap, node and npm (the registry reachable).
pub fn npm_sandbox() -> bool {
    node_sandbox() && have("npm", runs("npm", "--version"))
}

/// bubblewrap and python3 with pip.
pub fn pip_sandbox() -> bool {
    sandbox_works()
        && have(
            "python3 with pip",
            std::process::Command::new(
                gatehouse::packages::PackagesConfig::new(std::path::Path::new("/")).python,
            )
            .args(["-m", "pip", "--version"])
            .output()
            .is_ok_and(|o| o.status.success()),
        )
}

/// The directory of the TypeScript SDK reference client (`tests/interop`,
/// installed by `.ci/setup.d/20-mcp-peers.sh`), when present.
pub fn interop_dir() -> Option<PathBuf> {
    let dir = std::env::var("GATEHOUSE_INTEROP_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop"));
    let ok = dir
        .join("node_modules/@modelcontextprotocol/sdk/package.json")
        .is_file();
    have("the TypeScript SDK (tests/interop/node_modules)", ok).then_some(dir)
}

/// A shared install cache for the real packages: the first test installs
/// (cold), the others reuse it (cached).
pub fn shared_cache() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("package-cache");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
