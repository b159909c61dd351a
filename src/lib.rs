//! Gatehouse: a trusted registry for MCP servers.
//!
//! The modules follow the flow of data in ARCHITECTURE.md (and docs/DESIGN.md
//! §1): publishers submit to the `registry`; `jobs` run `discovery` (crawl) and
//! `analysis` (rules), and for package servers `packages` (install, sandbox,
//! ownership); reviewers decide through `review`; `allowlist` pins and
//! signs what was approved; the `monitor` watches for drift. `http` is the thin
//! edge, `accounts` the account service, `storage` the database; `startup`
//! builds a running registry from a `config`; `cli` is the command line, which
//! only the binary imports. ARCHITECTURE.md lists what each module may import.

pub mod accounts;
pub mod allowlist;
pub mod analysis;
pub mod cli;
pub mod config;
pub mod discovery;
pub mod gateway;
pub mod http;
pub mod jobs;
pub mod monitor;
pub mod packages;
pub mod registry;
pub mod review;
pub mod signing;
pub mod snapshot;
pub mod startup;
pub mod storage;
pub mod strict_json;
pub mod visible;
