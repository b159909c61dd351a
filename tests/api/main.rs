//! Integration tests of the HTTP API against a real server and a real database,
//! each run on SQLite and (with `GATEHOUSE_TEST_POSTGRES_URL`) on PostgreSQL.

mod helpers;

mod allowlist;
mod authz;
mod concurrency;
mod hardening;
mod logging;
mod publish;
mod read_api;
mod review;
