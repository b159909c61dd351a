//! `gatehouse call`: one explicit tool call, the one thing a crawl never does
//! (docs/DESIGN.md §4, §8). The user names the tool; nothing else is called.

use std::io::Write;

use clap::Args;
use serde_json::{Map, Value};

use crate::discovery;

use super::scan::ConnectArgs;
use super::{EXIT_CALL_FAILED, EXIT_OK, EXIT_USAGE};

/// Arguments of `gatehouse call`.
#[derive(Args, Debug)]
#[command(after_help = "\
Prints the tool's result (the CallToolResult object, JSON) on stdout. A result
with \"isError\": true is still a result: the tool ran and reported a failure.

Exit codes: 0 a result was printed; 2 bad input (usage, an invalid URL, --arguments
not a JSON object, a malformed header, an unreadable key, or an address refused by
the network policy, see --scan-allow-private); 3 the call failed (the server could
not be reached or answered with an error, declared no tools, needed OAuth that
failed, or a time or size bound was hit).")]
pub struct CallArgs {
    /// URL of the MCP server.
    pub url: String,
    /// Name of the tool to call (exactly as `tools/list` names it).
    pub tool: String,
    /// The tool's arguments, a JSON object (omitted: none are sent).
    #[arg(long, value_name = "JSON")]
    pub arguments: Option<String>,
    /// How to reach the server: headers, transport, era, OAuth credentials.
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Runs `gatehouse call`; returns the process exit code.
pub async fn run(args: &CallArgs, config: &crate::config::Config) -> i32 {
    let arguments = match args.arguments.as_deref().map(parse_arguments).transpose() {
        Ok(arguments) => arguments,
        Err(e) => return fail(&e, EXIT_USAGE),
    };
    let options = match args.connect.options(config) {
        Ok(options) => options,
        Err(e) => return fail(&e, EXIT_USAGE),
    };
    match discovery::call_tool(&args.url, &args.tool, arguments, &options).await {
        Ok(result) => {
            let text = serde_json::to_string_pretty(&result).expect("a result serialises");
            let _ = writeln!(std::io::stdout().lock(), "{text}");
            EXIT_OK
        }
        Err(e) if e.refused() => fail(&e.to_string(), EXIT_USAGE),
        Err(e) => fail(&format!("{} ({})", e.message, e.code), EXIT_CALL_FAILED),
    }
}

/// `--arguments`: one JSON object, no key twice (which value a server would take is anyone's guess).
fn parse_arguments(text: &str) -> Result<Map<String, Value>, String> {
    let parsed = crate::strict_json::parse(text.as_bytes())
        .map_err(|e| format!("--arguments is not JSON: {e}"))?;
    if let Some(pointer) = parsed.duplicate {
        return Err(format!("--arguments repeats the key at {pointer}"));
    }
    match parsed.value {
        Value::Object(map) => Ok(map),
        _ => Err("--arguments must be a JSON object".into()),
    }
}

fn fail(message: &str, code: i32) -> i32 {
    eprintln!("gatehouse call: {message}");
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_must_be_one_json_object_without_repeated_keys() {
        assert_eq!(parse_arguments(r#"{"a": 1}"#).unwrap()["a"], 1);
        assert!(parse_arguments("[1]").is_err());
        assert!(parse_arguments("{").is_err());
        assert!(parse_arguments(r#"{"a": 1, "a": 2}"#).is_err());
    }
}
