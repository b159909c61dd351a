//! The OpenAPI 3.1 document served at `/openapi.json`, built from the route
//! table below so that the document and the router are reviewed side by side.

use serde_json::{Value, json};

/// `(method, path, summary, who may call it)` for every API route.
pub const ROUTES: &[(&str, &str, &str, &str)] = &[
    (
        "post",
        "/v0/publish",
        "Publish a server.json (official registry format)",
        "publisher",
    ),
    (
        "get",
        "/v0.1/servers",
        "List approved server versions",
        "anyone",
    ),
    (
        "get",
        "/v0.1/servers/{name}/versions",
        "List approved versions of a server",
        "anyone",
    ),
    (
        "get",
        "/v0.1/servers/{name}/versions/{version}",
        "Get an approved version (or `latest`)",
        "anyone",
    ),
    (
        "get",
        "/api/v1/publisher/versions",
        "List the caller's own versions",
        "publisher",
    ),
    (
        "get",
        "/api/v1/publisher/servers/{name}/versions/{version}",
        "Get one of the caller's versions with findings",
        "publisher",
    ),
    (
        "get",
        "/api/v1/admin/queue",
        "Versions awaiting review",
        "reviewer",
    ),
    (
        "get",
        "/api/v1/admin/servers/{name}/versions/{version}",
        "Version detail: server.json, snapshot, findings, diff",
        "reviewer",
    ),
    (
        "post",
        "/api/v1/admin/servers/{name}/versions/{version}/{action}",
        "approve | reject | revoke | rescan | reopen",
        "reviewer",
    ),
    (
        "get",
        "/api/v1/servers/{name}/crawl-credentials",
        "Which crawl credentials are set (never their values)",
        "publisher (own server) or admin",
    ),
    (
        "put",
        "/api/v1/servers/{name}/crawl-credentials/oauth",
        "Set OAuth client credentials: clientId with clientSecret or privateKey (PKCS#8 PEM)",
        "publisher (own server) or admin",
    ),
    (
        "delete",
        "/api/v1/servers/{name}/crawl-credentials/oauth",
        "Delete the OAuth client credentials",
        "publisher (own server) or admin",
    ),
    (
        "put",
        "/api/v1/servers/{name}/crawl-credentials/headers/{header}",
        "Set the value of a header a version declares isSecret",
        "publisher (own server) or admin",
    ),
    (
        "delete",
        "/api/v1/servers/{name}/crawl-credentials/headers/{header}",
        "Delete a secret header value",
        "publisher (own server) or admin",
    ),
    ("get", "/api/v1/audit", "Audit log, newest first", "admin"),
    ("get", "/healthz", "Liveness", "anyone"),
    ("get", "/readyz", "Readiness (database reachable)", "anyone"),
    ("get", "/metrics", "Prometheus metrics", "anyone"),
    ("get", "/openapi.json", "This document", "anyone"),
];

/// Builds the document.
pub fn openapi_document() -> Value {
    let mut paths = serde_json::Map::new();
    for (method, path, summary, who) in ROUTES {
        let params: Vec<Value> = path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .map(|p| json!({"name": p, "in": "path", "required": true, "schema": {"type": "string"},
                "description": if p == "name" { "URL-encoded server name (com.example%2Fweather)" } else { "" }}))
            .collect();
        let mut op = json!({
            "summary": summary,
            "parameters": params,
            "responses": {
                "200": {"description": "OK"},
                "default": {"description": "Error", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
            },
            "x-gatehouse-access": who,
        });
        if *who != "anyone" {
            op["security"] = json!([{"bearerAuth": []}]);
        }
        if *path == "/v0/publish" {
            op["requestBody"] = json!({"required": true, "content": {"application/json": {"schema": {"$ref": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"}}}});
            op["responses"]["201"] =
                json!({"description": "Stored as pending; official ServerResponse shape"});
        }
        paths.entry(path.to_string()).or_insert_with(|| json!({}))[*method] = op;
    }
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Gatehouse API", "version": env!("CARGO_PKG_VERSION")},
        "paths": paths,
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Problem": {
                "type": "object",
                "required": ["type", "title", "status", "detail"],
                "properties": {
                    "type": {"type": "string", "format": "uri"},
                    "title": {"type": "string"},
                    "status": {"type": "integer"},
                    "detail": {"type": "string"},
                    "errors": {"type": "array", "items": {"type": "object", "properties": {
                        "pointer": {"type": "string"}, "detail": {"type": "string"}}}},
                },
            }},
        },
    })
}
