//! The route table of the JSON API and the OpenAPI 3.1 document generated
//! from it, served at `/openapi.json`.
//!
//! Every API module builds its routes with an [`ApiRouter`]: a route is
//! registered together with what the document says about it (summary, who may
//! call it), so an API route cannot be added without its entry. The document
//! covers the API — every route the server answers except the web UI
//! (`/admin…`, `/publisher…`) and its static assets (`/static/…`), which are
//! pages for a browser session, not a contract for programs
//! ([`is_ui_path`]). A test compares the paths the assembled router serves
//! with the document's paths, so a route added beside the table is caught too.

use std::sync::LazyLock;

use axum::Router;
use axum::handler::Handler;
use axum::routing::{MethodRouter, get, post};
use serde_json::{Map, Value, json};

use crate::http::AppState;

/// Who may call an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, without credentials.
    Anyone,
    /// A publisher's bearer token.
    Publisher,
    /// An admin or reviewer API token.
    Reviewer,
    /// An admin API token.
    Admin,
}

impl Access {
    /// The name in the document's `x-gatehouse-access`.
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Anyone => "anyone",
            Access::Publisher => "publisher",
            Access::Reviewer => "reviewer",
            Access::Admin => "admin",
        }
    }
}

/// One operation of the API, as the document describes it.
#[derive(Debug, Clone)]
pub struct Operation {
    /// HTTP method, lower case as OpenAPI writes it (`get`, `post`).
    pub method: &'static str,
    /// The documented path (an OpenAPI path template).
    pub path: &'static str,
    /// The path the router matches, when it differs from `path`: axum
    /// captures whole segments only, so `/v1/root/{n}.json` is served as
    /// `/v1/root/{file}` (the document says so in `x-gatehouse-route`).
    pub route: Option<&'static str>,
    /// One line on what it does.
    pub summary: &'static str,
    /// Who may call it.
    pub access: Access,
    /// A JSON request body and the schema it follows (a URL), if it takes one.
    pub body_schema: Option<&'static str>,
    /// The success status and its description, when it is not `200 OK`.
    pub success: Option<(&'static str, &'static str)>,
}

impl Operation {
    /// An operation of `path` answering 200, without a request body.
    pub fn new(path: &'static str, summary: &'static str, access: Access) -> Operation {
        Operation {
            method: "get",
            path,
            route: None,
            summary,
            access,
            body_schema: None,
            success: None,
        }
    }

    /// Served by the router at `route` (see [`Operation::route`]).
    pub fn served_at(mut self, route: &'static str) -> Operation {
        self.route = Some(route);
        self
    }

    /// Takes a JSON body following the schema at `url`.
    pub fn body(mut self, url: &'static str) -> Operation {
        self.body_schema = Some(url);
        self
    }

    /// Answers `status` (described) on success instead of 200.
    pub fn success(mut self, status: &'static str, description: &'static str) -> Operation {
        self.success = Some((status, description));
        self
    }

    /// The path the router matches.
    pub fn route_path(&self) -> &'static str {
        self.route.unwrap_or(self.path)
    }
}

/// A router of API routes that writes down every operation it serves.
pub struct ApiRouter {
    router: Router<AppState>,
    operations: Vec<Operation>,
}

impl Default for ApiRouter {
    fn default() -> Self {
        ApiRouter::new()
    }
}

impl ApiRouter {
    /// No routes yet.
    pub fn new() -> ApiRouter {
        ApiRouter {
            router: Router::new(),
            operations: Vec::new(),
        }
    }

    fn add(mut self, method: &'static str, op: Operation, route: MethodRouter<AppState>) -> Self {
        let op = Operation { method, ..op };
        self.router = self.router.route(op.route_path(), route);
        self.operations.push(op);
        self
    }

    /// Serves `GET` of the operation with `handler`.
    pub fn get<H, T>(self, op: Operation, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add("get", op, get(handler))
    }

    /// Serves `POST` of the operation with `handler`.
    pub fn post<H, T>(self, op: Operation, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add("post", op, post(handler))
    }

    /// Serves `DELETE` of the operation with `handler`.
    pub fn delete<H, T>(self, op: Operation, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add("delete", op, axum::routing::delete(handler))
    }

    /// Adds the routes of `other`.
    pub fn merge(mut self, other: ApiRouter) -> Self {
        self.router = self.router.merge(other.router);
        self.operations.extend(other.operations);
        self
    }

    /// Applies `f` to the router (a layer, for instance); the table is unchanged.
    pub fn map_router(mut self, f: impl FnOnce(Router<AppState>) -> Router<AppState>) -> Self {
        self.router = f(self.router);
        self
    }

    /// The operations registered so far.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The router and its table.
    pub fn into_parts(self) -> (Router<AppState>, Vec<Operation>) {
        (self.router, self.operations)
    }
}

/// Whether `path` belongs to the web UI or its assets, which the document
/// leaves out (see the module comment).
pub fn is_ui_path(path: &str) -> bool {
    ["/admin", "/publisher", "/static/"].iter().any(|p| {
        path.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/') || p.ends_with('/'))
    })
}

/// The document, built once from the API's route table.
pub fn openapi_document() -> &'static Value {
    static DOCUMENT: LazyLock<Value> =
        LazyLock::new(|| document(crate::http::api::routes().operations()));
    &DOCUMENT
}

/// Builds the document of `operations`.
pub fn document(operations: &[Operation]) -> Value {
    let mut paths = Map::new();
    for op in operations {
        let params: Vec<Value> = op
            .path
            .split('/')
            .flat_map(|seg| {
                seg.split('{')
                    .skip(1)
                    .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            })
            .map(|p| {
                json!({"name": p, "in": "path", "required": true, "schema": {"type": "string"},
                "description": parameter_description(p)})
            })
            .collect();
        let mut item = json!({
            "summary": op.summary,
            "parameters": params,
            "responses": {
                "default": {"description": "Error", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
            },
            "x-gatehouse-access": op.access.as_str(),
        });
        let (status, description) = op.success.unwrap_or(("200", "OK"));
        item["responses"][status] = json!({"description": description});
        if op.access != Access::Anyone {
            item["security"] = json!([{"bearerAuth": []}]);
        }
        if let Some(url) = op.body_schema {
            item["requestBody"] = json!({"required": true, "content": {"application/json": {"schema": {"$ref": url}}}});
        }
        if let Some(route) = op.route {
            item["x-gatehouse-route"] = json!(route);
        }
        paths
            .entry(op.path.to_string())
            .or_insert_with(|| json!({}))[op.method] = item;
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Gatehouse API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Every route the server answers, except the web UI (/admin…, /publisher…) and its static assets (/static/…).",
        },
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

fn parameter_description(name: &str) -> &'static str {
    match name {
        "name" => "URL-encoded server name (com.example%2Fweather)",
        "version" => "the version string as published (or `latest` where the read API allows it)",
        "action" => "approve, reject, revoke, rescan or reopen",
        "n" => "version of the root document (1, 2, …)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paths the assembled router serves, read from its debug form (axum
    /// lists every path of its route table there), so that a route added
    /// beside the [`ApiRouter`] table is seen too.
    fn served_paths() -> Vec<String> {
        let debug = format!("{:?}", crate::http::routes());
        // The routes come first; the fallback router after them answers
        // every other path with the problem+json 404 and serves nothing.
        let served = &debug[..debug
            .find("fallback_router")
            .expect("axum's Router debug form")];
        // Each entry reads `RouteId(7): "/the/path"`; the route map's entries
        // (`RouteId(7): MethodRouter(…)`) and axum's own fallback routes are skipped.
        let mut paths: Vec<String> = served
            .split("RouteId(")
            .skip(1)
            .filter_map(|s| {
                let digits = s.find(|c: char| !c.is_ascii_digit())?;
                let path = s[digits..].strip_prefix("): \"")?;
                Some(path[..path.find('"')?].to_string())
            })
            .filter(|p| !p.contains("__private__axum"))
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    #[test]
    fn the_document_lists_every_api_route_the_router_serves() {
        let document = openapi_document();
        let mut documented: Vec<String> = document["paths"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(path, item)| {
                let ops = item.as_object().unwrap();
                ops.values()
                    .find_map(|op| op["x-gatehouse-route"].as_str())
                    .unwrap_or(path)
                    .to_string()
            })
            .collect();
        documented.sort();

        let served = served_paths();
        assert!(served.len() > 20, "read too few paths: {served:?}");
        let api: Vec<String> = served.iter().filter(|p| !is_ui_path(p)).cloned().collect();

        assert_eq!(api, documented);
        assert!(
            served
                .iter()
                .any(|p| p == "/admin/servers/{name}/versions/{version}")
        );
    }

    #[test]
    fn the_signed_documents_and_the_export_are_in_the_document() {
        let paths = &openapi_document()["paths"];

        for path in [
            "/v1/allowlist",
            "/v1/root.json",
            "/v1/root/{n}.json",
            "/v1/exports/claude-code",
            "/.well-known/jwks.json",
            "/v0/publish",
            "/openapi.json",
        ] {
            assert!(paths[path].is_object(), "{path} is missing");
        }
        assert_eq!(
            paths["/v1/root/{n}.json"]["get"]["parameters"][0]["name"],
            "n"
        );
        assert_eq!(
            paths["/v0/publish"]["post"]["x-gatehouse-access"],
            "publisher"
        );
        assert!(paths["/v0/publish"]["post"]["requestBody"].is_object());
    }

    #[test]
    fn ui_paths_are_told_from_api_paths() {
        for ui in [
            "/admin",
            "/admin/",
            "/admin/queue",
            "/publisher",
            "/publisher/login",
            "/static/{file}",
        ] {
            assert!(is_ui_path(ui), "{ui}");
        }
        for api in [
            "/api/v1/admin/queue",
            "/v1/allowlist",
            "/administrator",
            "/healthz",
        ] {
            assert!(!is_ui_path(api), "{api}");
        }
    }
}
