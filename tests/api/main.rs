//! Integration tests of the registry against a real server and a real
//! database, each run on SQLite and (with `GATEHOUSE_TEST_POSTGRES_URL`) on
//! PostgreSQL: the HTTP API, and in one binary with it (each binary links the
//! whole crate) the scan queue with a killed worker process (`jobs`), two
//! servers on one database (`two_servers`) and a new user's first run of the
//! binary (`first_run`).

mod helpers;

#[path = "../allowlist/support.rs"]
mod allowlist_support;

mod allowlist;
mod authz;
mod concurrency;
mod first_run;
mod gateway;
mod hardening;
mod jobs;
mod logging;
mod monitor;
mod ownership;
mod publish;
mod read_api;
mod review;
mod two_servers;
mod watch;
mod webhooks;
