//! The package sandbox (issue 15): real npm and PyPI packages installed,
//! started in bubblewrap and crawled over stdio, compared with what the
//! official TypeScript SDK client lists (`real`); hostile fixture packages
//! contained, each scan ending with a recorded error in bounded time and the
//! host unchanged (`sandbox`); package versions through the scan queue with
//! the ownership findings (`jobs`); remote-URL ownership: card, challenge,
//! unverified, and a verified owner's takeover (`ownership`).
//!
//! Tests that need bubblewrap, node, npm or pip print `SKIPPED: …` and pass
//! without them, unless `GATEHOUSE_REQUIRE_PEERS=1` (CI), where they fail.
//! `.ci/setup.d/25-package-sandbox.sh` installs bubblewrap.

mod helpers;
#[path = "../support/mcp_fixtures.rs"]
mod mcp_fixtures;

mod cli;
mod jobs;
mod ownership;
mod real;
mod sandbox;
