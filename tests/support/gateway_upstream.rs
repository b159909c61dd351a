//! An upstream MCP server for the gateway tests, built with the official Rust
//! SDK `rmcp`: its tools, prompts and resources can be changed while it runs
//! (to make a tool drift from its pin), it tells listeners of a change on its
//! `subscriptions/listen` streams (MCP 2026-07-28) when asked to, and it records
//! every call it receives, so a test can prove a refused call never reached it.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::Router;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, SubscriptionContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::sync::broadcast;

/// What one upstream serves, and what it was asked.
#[derive(Default)]
pub struct Served {
    /// `tools/list` items.
    pub tools: Vec<Value>,
    /// `prompts/list` items.
    pub prompts: Vec<Value>,
    /// `resources/list` items.
    pub resources: Vec<Value>,
    /// Every `tools/call`, `prompts/get` and `resources/read` received: (method, name or URI, arguments).
    pub calls: Vec<(String, String, Value)>,
    /// How many `tools/list` requests were answered.
    pub tool_lists: usize,
}

/// A running upstream; dropping it stops the server.
pub struct Upstream {
    /// `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// Its name in answers.
    pub label: String,
    served: Arc<Mutex<Served>>,
    changed: broadcast::Sender<()>,
    sessions: Arc<Mutex<Vec<Peer<RoleServer>>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Upstream {
    /// Replaces the tool called `name` with what `edit` makes of it (a rug pull, say).
    pub fn edit_tool(&self, name: &str, edit: impl FnOnce(&mut Value)) {
        let mut served = self.served.lock().unwrap();
        let tool = served
            .tools
            .iter_mut()
            .find(|t| t["name"] == name)
            .expect("the tool exists");
        edit(tool);
    }

    /// Sends `notifications/tools/list_changed` to every listener: on the
    /// `subscriptions/listen` streams (2026-07-28) and on the GET stream of
    /// every initialised session (2025-11-25).
    pub fn announce_change(&self) {
        let _ = self.changed.send(());
        let peers = self.sessions.lock().unwrap().clone();
        for peer in peers {
            tokio::spawn(async move {
                let _ = peer.notify_tool_list_changed().await;
            });
        }
    }

    /// How many `tools/list` requests were answered.
    pub fn tool_lists(&self) -> usize {
        self.served.lock().unwrap().tool_lists
    }

    /// How many older-era sessions completed their handshake.
    pub fn sessions(&self) -> usize {
        self.sessions.lock().unwrap().len()
    }

    /// How many `subscriptions/listen` streams are open.
    pub fn listeners(&self) -> usize {
        self.changed.receiver_count()
    }

    /// The calls received so far.
    pub fn calls(&self) -> Vec<(String, String, Value)> {
        self.served.lock().unwrap().calls.clone()
    }
}

#[derive(Clone)]
struct Handler {
    label: String,
    served: Arc<Mutex<Served>>,
    changed: broadcast::Sender<()>,
    sessions: Arc<Mutex<Vec<Peer<RoleServer>>>>,
}

fn from<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        serde_json::from_value(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {
                "tools": {"listChanged": true},
                "prompts": {"listChanged": true},
                "resources": {"listChanged": true},
            },
            "serverInfo": {"name": self.label, "version": "1.0.0"},
        }))
        .expect("a valid initialize result")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = {
            let mut served = self.served.lock().unwrap();
            served.tool_lists += 1;
            served.tools.clone()
        };
        from(json!({"tools": tools}))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompts = self.served.lock().unwrap().prompts.clone();
        from(json!({"prompts": prompts}))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self.served.lock().unwrap().resources.clone();
        from(json!({"resources": resources}))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        from(json!({"resourceTemplates": []}))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        self.served.lock().unwrap().calls.push((
            "tools/call".into(),
            request.name.to_string(),
            arguments.clone(),
        ));
        let text = format!("{} ran {} with {}", self.label, request.name, arguments);
        let result: rmcp::model::CallToolResult =
            from(json!({"content": [{"type": "text", "text": text}]}))?;
        Ok(result.into())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        self.served.lock().unwrap().calls.push((
            "prompts/get".into(),
            request.name.clone(),
            arguments,
        ));
        let result: rmcp::model::GetPromptResult = from(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": format!("{} prompt {}", self.label, request.name)}}]
        }))?;
        Ok(result.into())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.served.lock().unwrap().calls.push((
            "resources/read".into(),
            request.uri.clone(),
            Value::Null,
        ));
        let result: rmcp::model::ReadResourceResult = from(json!({
            "contents": [{"uri": request.uri, "mimeType": "text/plain", "text": format!("{} resource", self.label)}]
        }))?;
        Ok(result.into())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.sessions.lock().unwrap().push(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.clone())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changed = self.changed.subscribe();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                change = changed.recv() => {
                    if change.is_err() {
                        return Ok(());
                    }
                    if context.sink().notify_tool_list_changed().await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
}

/// Starts an upstream called `label` serving `served` on 127.0.0.1.
pub async fn spawn_upstream(label: &str, served: Served) -> Upstream {
    let served = Arc::new(Mutex::new(served));
    let (changed, _) = broadcast::channel(16);
    let sessions: Arc<Mutex<Vec<Peer<RoleServer>>>> = Arc::default();
    let handler = Handler {
        label: label.to_string(),
        served: served.clone(),
        changed: changed.clone(),
        sessions: sessions.clone(),
    };
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_sse_keep_alive(None);
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        LocalSessionManager::default().into(),
        config,
    );
    let app = Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Upstream {
        url,
        label: label.to_string(),
        served,
        changed,
        sessions,
        task,
    }
}

/// A tool definition with a string `query` argument.
pub fn tool(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string", "maxLength": 100}},
            "required": ["query"],
            "additionalProperties": false
        }
    })
}
