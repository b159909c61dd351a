//! The gateway over stdio (2025-11-25, Transports §stdio): one JSON-RPC
//! message per line on stdin, answers and notifications one per line on
//! stdout; logs go to stderr. The audience is `--audience` (a process has no
//! bearer token). List changes are sent as `notifications/*/list_changed`
//! once the client has initialised, and to a 2026-07-28 client on the
//! `subscriptions/listen` it opened, tagged with its subscription id.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use super::server::{self, Caller, codes};
use super::{Gateway, ListKind};

/// Longest line accepted on stdin.
const MAX_LINE_BYTES: usize = 4 << 20;

/// Serves `input` and `output` until the input ends.
pub async fn serve(
    gateway: Arc<Gateway>,
    input: impl AsyncBufRead + Unpin,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> std::io::Result<()> {
    let audience = gateway
        .audience(&gateway.options.audience)
        .expect("the default audience exists")
        .clone();
    let caller = Caller {
        client: "stdio".into(),
        audience: audience.clone(),
    };
    let (out, mut out_rx) = mpsc::channel::<String>(64);
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = out_rx.recv().await {
            if output.write_all(line.as_bytes()).await.is_err()
                || output.write_all(b"\n").await.is_err()
                || output.flush().await.is_err()
            {
                return;
            }
        }
    });
    // Which changes the client hears of: after `initialize`, every list; after
    // `subscriptions/listen`, what it asked for, tagged.
    let (subscribe, mut subscriptions) = mpsc::channel::<(Vec<ListKind>, Option<Value>)>(8);
    let notifier = {
        let out = out.clone();
        let mut changes = audience.subscribe();
        tokio::spawn(async move {
            let mut listeners: Vec<(Vec<ListKind>, Option<Value>)> = Vec::new();
            loop {
                tokio::select! {
                    added = subscriptions.recv() => match added {
                        Some(listener) => listeners.push(listener),
                        None => return,
                    },
                    change = changes.recv() => {
                        let kinds: Vec<ListKind> = match change {
                            Ok(kind) => vec![kind],
                            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => ListKind::ALL.to_vec(),
                            Err(_) => return,
                        };
                        for kind in kinds {
                            for (accepted, id) in &listeners {
                                if !accepted.contains(&kind) {
                                    continue;
                                }
                                let mut message = json!({"jsonrpc": "2.0", "method": kind.notification()});
                                if let Some(id) = id {
                                    message["params"] = json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id}});
                                }
                                if out.send(message.to_string()).await.is_err() {
                                    return;
                                }
                            }
                        }
                    }
                }
            }
        })
    };
    let mut lines = input;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = AsyncReadExt::take(&mut lines, MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .await?;
        if read == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES {
            let _ = out
                .send(
                    server::error(
                        Value::Null,
                        codes::INVALID_REQUEST,
                        "message too large",
                        None,
                    )
                    .to_string(),
                )
                .await;
            // Skip the rest of the oversized line.
            let mut rest = Vec::new();
            lines.read_until(b'\n', &mut rest).await?;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let Ok(message) = serde_json::from_str::<Value>(&text) else {
            let _ = out
                .send(server::error(Value::Null, -32700, "Parse error", None).to_string())
                .await;
            continue;
        };
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if method == "subscriptions/listen" && server::modern_version(&message).is_some() {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            let asked = message
                .get("params")
                .and_then(|p| p.get("notifications"))
                .cloned()
                .unwrap_or(json!({}));
            let accepted: Vec<ListKind> = ListKind::ALL
                .into_iter()
                .filter(|k| asked.get(k.filter_key()) == Some(&Value::Bool(true)))
                .collect();
            let filter: serde_json::Map<String, Value> = accepted
                .iter()
                .map(|k| (k.filter_key().to_string(), Value::Bool(true)))
                .collect();
            let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id}, "notifications": filter}});
            let _ = out.send(ack.to_string()).await;
            let _ = subscribe.send((accepted, Some(id))).await;
            continue;
        }
        if method == "notifications/initialized" {
            let _ = subscribe.send((ListKind::ALL.to_vec(), None)).await;
        }
        // Requests are answered concurrently: a slow upstream call does not hold up a list.
        let gateway = gateway.clone();
        let caller = caller.clone();
        let out = out.clone();
        tokio::spawn(async move {
            if let Some(answer) = server::handle(&gateway, &caller, message).await {
                let _ = out.send(answer.to_string()).await;
            }
        });
    }
    notifier.abort();
    drop(out);
    drop(subscribe);
    let _ = writer.await;
    Ok(())
}
