//! The allowlist as clients see it, one test binary (each binary links the
//! whole crate, so the allowlist tests share one): `gatehouse verify` and
//! `gatehouse keys` as the real binary (`cli`), verification over HTTP
//! (`http`), and documents checked by an independent Python verifier
//! (`interop`).

mod support;

mod cli;
mod http;
mod interop;
