//! Prometheus metrics: requests by route and status with latency histograms,
//! and versions by status (read from the database at scrape time, so every
//! process reports the shared truth).

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::AppState;

/// Labels of a request counter.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// HTTP method.
    pub method: String,
    /// Route template (never the raw path: bounded cardinality).
    pub route: String,
    /// Status code.
    pub status: u16,
}

/// Labels of the latency histogram.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// HTTP method.
    pub method: String,
    /// Route template.
    pub route: String,
}

type HistogramFamily = Family<RouteLabels, Histogram, fn() -> Histogram>;

/// The process's metrics registry.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// A registry with the HTTP metrics registered.
    pub fn new() -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        let latency: HistogramFamily =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.0005, 2.0, 16)));
        registry.register(
            "gatehouse_http_requests",
            "HTTP requests by route and status",
            requests.clone(),
        );
        registry.register(
            "gatehouse_http_request_duration_seconds",
            "HTTP request latency",
            latency.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
        }
    }

    /// Renders the registry in the OpenMetrics text format, plus `extra` lines before `# EOF`.
    pub fn render(&self, extra: &str) -> String {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)
            .expect("writing to a String cannot fail");
        let body = out.strip_suffix("# EOF\n").unwrap_or(&out).to_string();
        format!("{body}{extra}# EOF\n")
    }
}

/// Middleware recording every request.
pub async fn track(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".to_string());
    let method = req.method().to_string();
    let start = Instant::now();
    let response = next.run(req).await;
    let status = response.status().as_u16();
    state
        .metrics
        .requests
        .get_or_create(&RequestLabels {
            method: method.clone(),
            route: route.clone(),
            status,
        })
        .inc();
    state
        .metrics
        .latency
        .get_or_create(&RouteLabels { method, route })
        .observe(start.elapsed().as_secs_f64());
    response
}
