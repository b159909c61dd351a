//! Gatehouse: a trusted registry for MCP servers.
//!
//! The modules follow the flow of data in DESIGN.md §1: publishers submit to
//! the `registry`; `jobs` run `discovery` (crawl) and `analysis` (rules);
//! reviewers decide through `review`; `allowlist` pins and signs what was
//! approved; the `monitor` watches for drift. `http` is the thin edge and
//! `storage` the database.

pub mod allowlist;
pub mod analysis;
pub mod cli;
pub mod config;
pub mod discovery;
pub mod http;
pub mod jobs;
pub mod monitor;
pub mod registry;
pub mod review;
pub mod snapshot;
pub mod storage;
pub mod strict_json;
pub mod visible;
