//! The HTTP edge: router, API handlers, auth, errors and middleware. Handlers
//! are thin: they authenticate, parse, call `registry`/`review`/`storage`, and
//! shape the answer.

pub mod api;
pub mod auth;
pub mod error;
pub mod metrics;
pub mod openapi;
pub mod trace;
pub mod ui;

pub use openapi::openapi_document;

use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderName, HeaderValue, header};
use tokio::net::TcpListener;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::discovery::NetPolicy;
use crate::storage::Db;

/// Everything a handler may need, cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub db: Db,
    /// Which remote addresses publishers may register (the scanner's SSRF policy).
    pub net: NetPolicy,
    /// Public base URL (issuer, links).
    pub public_url: Arc<str>,
    /// Request metrics.
    pub metrics: Arc<metrics::Metrics>,
    /// Signs, stores and caches the allowlists.
    pub allowlists: Arc<crate::signing::Publisher>,
    /// Rendered pages of the public read API.
    pub page_cache: Arc<PageCache>,
    /// Proxies whose `X-Forwarded-For` names the client (`GATEHOUSE_TRUSTED_PROXIES`);
    /// empty: the connected peer is the client.
    pub trusted_proxies: Arc<[crate::discovery::Cidr]>,
    /// Seals the crawl credentials publishers set (key in `DATA_DIR`).
    pub crawl_secrets: Arc<crate::registry::crawl_secrets::Vault>,
}

/// Rendered public pages keyed by query string, valid while the registry's
/// change marker is the one they were rendered under.
#[derive(Default)]
pub struct PageCache {
    pages: std::sync::RwLock<std::collections::HashMap<String, (String, axum::body::Bytes)>>,
}

impl PageCache {
    /// Most pages kept; the cache is cleared when full (queries are attacker-chosen).
    const MAX_PAGES: usize = 4096;

    /// The cached page for `key` if it was rendered under `marker`.
    pub fn get(&self, key: &str, marker: &str) -> Option<axum::body::Bytes> {
        let pages = self.pages.read().expect("page cache lock");
        pages
            .get(key)
            .filter(|(m, _)| m == marker)
            .map(|(_, body)| body.clone())
    }

    /// Stores a page rendered under `marker`.
    pub fn put(&self, key: String, marker: String, body: axum::body::Bytes) {
        let mut pages = self.pages.write().expect("page cache lock");
        if pages.len() >= Self::MAX_PAGES {
            pages.clear();
        }
        pages.insert(key, (marker, body));
    }
}

impl AppState {
    /// State for a server on `db`, with the signing keys in `DATA_DIR/keys`.
    pub fn new(
        db: Db,
        net: NetPolicy,
        public_url: &str,
        data_dir: &std::path::Path,
    ) -> anyhow::Result<AppState> {
        Ok(AppState {
            db,
            net,
            public_url: public_url.trim_end_matches('/').into(),
            metrics: Arc::new(metrics::Metrics::new()),
            allowlists: Arc::new(crate::signing::Publisher::open(data_dir, public_url)?),
            page_cache: Arc::default(),
            trusted_proxies: Vec::new().into(),
            crawl_secrets: Arc::new(crate::registry::crawl_secrets::Vault::new(data_dir)),
        })
    }
}

/// Every route the server answers: the API (whose table is the OpenAPI
/// document, see [`openapi`]) and the web UI, with the problem+json 404 for
/// the rest. [`router`] adds the middleware and the state.
pub fn routes() -> Router<AppState> {
    let (api_routes, _) = api::routes().into_parts();
    api_routes.merge(ui::router()).fallback(api::ops::not_found)
}

/// Builds the full application router.
pub fn router(state: AppState) -> Router {
    routes()
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            metrics::track,
        ))
        .layer(trace::layer())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        .with_state(state)
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains in-flight requests.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
