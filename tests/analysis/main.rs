//! The analysis, one test binary (each binary links the whole crate): the
//! directive model (`directives`), honest and attack snapshot fixtures
//! (`fixtures`), each rule with a near miss (`rules`), and the SARIF output
//! against its schema (`sarif`). The property tests stay a binary of their own
//! (`tests/analysis_fuzz.rs`), which `bench/fuzz_analysis.sh` runs for long.

mod directives;
mod fixtures;
mod rules;
mod sarif;
