//! The stdio transport (MCP 2025-11-25 and 2026-07-28, Transports §stdio):
//! the scanner starts the server as a child process, writes one JSON-RPC
//! message per line on its standard input and reads newline-delimited
//! messages from its standard output. Its standard error is discarded.
//!
//! Used by `gatehouse scan --stdio -- COMMAND…`, and meant for the package
//! sandbox: a package is a command, not a URL. The era negotiation is the
//! crawler's and the same as over HTTP — `server/discover` first, then
//! `initialize` for an older server (2026-07-28, Versioning §Backward
//! Compatibility) — on the one process.
//!
//! Every line is bounded like an HTTP body (the per-message and per-crawl
//! byte bounds, the JSON depth and value bounds), and a partly read line is
//! kept in [`StdioPipe`] so that a request the crawler abandoned at its
//! timeout does not leave the next read in the middle of a message. Requests
//! the server sends (a `ping`, `roots/list`) are answered with "method not
//! found": the scanner offers no capabilities. The process is killed when the
//! crawl ends.

use std::process::Stdio;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::http::Fault;
use super::jsonrpc;
use super::transport::Link;

/// A running server process.
pub(crate) struct StdioPipe {
    _child: Child,
    /// The process group to kill when the pipe is dropped, when the process
    /// was started as the leader of its own group (a sandboxed package).
    group: Option<i32>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The bytes of a line not yet ended by a newline.
    partial: Vec<u8>,
}

impl StdioPipe {
    /// Starts `command` (program and arguments), with piped stdin and stdout.
    pub fn spawn(command: &[String]) -> Result<StdioPipe, String> {
        let (program, args) = command
            .split_first()
            .ok_or("no command to start was given")?;
        let mut prepared = tokio::process::Command::new(program);
        prepared.args(args);
        StdioPipe::spawn_prepared(prepared, false)
    }

    /// Starts a command its caller prepared (the package sandbox: `bwrap`
    /// with its limits), with piped stdin and stdout and stderr discarded.
    /// With `own_group`, the process leads a new process group and the whole
    /// group is killed when the pipe is dropped, whatever its children did.
    pub fn spawn_prepared(
        mut command: tokio::process::Command,
        own_group: bool,
    ) -> Result<StdioPipe, String> {
        let program = command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned();
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        if own_group {
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("starting {program:?}: {e}"))?;
        let group = if own_group {
            child.id().and_then(|id| i32::try_from(id).ok())
        } else {
            None
        };
        let stdin = child.stdin.take().ok_or("the process has no stdin")?;
        let stdout = child.stdout.take().ok_or("the process has no stdout")?;
        Ok(StdioPipe {
            _child: child,
            group,
            stdin,
            stdout: BufReader::new(stdout),
            partial: Vec::new(),
        })
    }

    fn kill_group(&self) {
        if let Some(group) = self.group {
            // SAFETY: killpg has no memory effects; a group that is gone is ESRCH.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }

    /// Writes one message and its newline.
    pub async fn send(&mut self, message: &Value) -> Result<(), Fault> {
        let mut line = serde_json::to_vec(message).expect("a message serialises");
        line.push(b'\n');
        let broken = |e: std::io::Error| Fault::Transport(format!("writing to the server: {e}"));
        self.stdin.write_all(&line).await.map_err(broken)?;
        self.stdin.flush().await.map_err(broken)
    }

    /// Reads messages until the answer to `id`.
    pub async fn answer(&mut self, link: &mut Link, id: u64) -> Result<Value, Fault> {
        loop {
            let line = self.read_line(link).await?;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let message = jsonrpc::parse(
                &line,
                link.max_depth,
                &mut link.meter,
                &mut link.duplicate_keys,
            )?;
            // A request from the server would wait for an answer forever.
            if message.get("method").is_some()
                && let Some(request_id) = message.get("id")
            {
                let refusal = json!({"jsonrpc": "2.0", "id": request_id,
                    "error": {"code": -32601, "message": "the scanner offers no capabilities"}});
                self.send(&refusal).await?;
                continue;
            }
            if let Some(answer) = jsonrpc::answer_to(message, id) {
                return answer;
            }
        }
    }

    /// One line from stdout, within the message and crawl bounds.
    async fn read_line(&mut self, link: &mut Link) -> Result<Vec<u8>, Fault> {
        loop {
            let chunk = self
                .stdout
                .fill_buf()
                .await
                .map_err(|e| Fault::Transport(format!("reading from the server: {e}")))?;
            if chunk.is_empty() {
                return Err(Fault::Transport(
                    "the server process closed its output".into(),
                ));
            }
            let (used, ended) = match memchr::memchr(b'\n', chunk) {
                Some(at) => (at + 1, true),
                None => (chunk.len(), false),
            };
            if (self.partial.len() + used) as u64 > link.meter.max_message {
                return Err(link.meter.message_too_large());
            }
            link.meter.take(used)?;
            self.partial.extend_from_slice(&chunk[..used]);
            self.stdout.consume(used);
            if ended {
                return Ok(std::mem::take(&mut self.partial));
            }
        }
    }
}

impl Drop for StdioPipe {
    // `kill_on_drop` ends the direct child only; a sandboxed server's own
    // children share its process group, and go with it.
    fn drop(&mut self) {
        self.kill_group();
    }
}
