//! The scanner as an MCP client, one test binary (each binary links the whole
//! crate): `gatehouse scan` as the real binary (`cli`), honest fixture servers
//! (`crawl`), hostile ones (`hostile`), the official SDKs' servers (`interop`),
//! servers behind OAuth (`oauth`), the SSRF guard (`ssrf`) and servers started
//! over stdio (`stdio`).

#[path = "../support/mcp_fixtures.rs"]
mod mcp_fixtures;

mod call;
mod cli;
mod crawl;
mod hostile;
mod interop;
mod oauth;
mod ssrf;
mod stdio;
