//! Command-line front ends (DESIGN.md §4). Each file is one command family; the
//! argument structs live beside the code that runs them and are mounted into
//! the single clap tree in `config.rs`.

pub mod admin;
pub mod demo;
pub mod keys;
pub mod scan;
pub mod serve;
pub mod verify;

/// Exit code for success.
pub const EXIT_OK: i32 = 0;
/// Exit code of `scan` when a high or critical finding exists.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code for usage errors and crawl failures.
pub const EXIT_USAGE: i32 = 2;
