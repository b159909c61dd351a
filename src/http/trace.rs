//! Request logging: one span per request and one event per response, with the
//! method, the *route template* (`/v0.1/servers/{name}/versions`, from axum's
//! [`MatchedPath`]), the status and the latency.
//!
//! What is left out is the point: never the URI as sent (its query string may
//! carry a token or a secret a client put there by mistake, and a path may
//! carry a hostile name), never a header (`Authorization`, `Cookie`). A
//! request that matched no route is logged as `unmatched`.

use std::time::Duration;

use axum::extract::MatchedPath;
use tower_http::trace::{HttpMakeClassifier, MakeSpan, OnResponse, TraceLayer};
use tracing::Span;

/// The span of a request: method and route template only.
#[derive(Clone, Copy, Debug, Default)]
pub struct RouteSpan;

impl<B> MakeSpan<B> for RouteSpan {
    fn make_span(&mut self, request: &axum::http::Request<B>) -> Span {
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .map_or("unmatched", MatchedPath::as_str);
        tracing::info_span!("request", method = %request.method(), route)
    }
}

/// The event at the response: status and latency (inside the request's span).
#[derive(Clone, Copy, Debug, Default)]
pub struct StatusAndLatency;

impl<B> OnResponse<B> for StatusAndLatency {
    fn on_response(self, response: &axum::http::Response<B>, latency: Duration, _: &Span) {
        tracing::info!(
            status = response.status().as_u16(),
            latency_us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX),
            "response"
        );
    }
}

/// The layer: [`RouteSpan`], [`StatusAndLatency`], nothing at the request's
/// start; server errors are also reported by tower-http's default failure event
/// (its classification and latency, no request data).
pub type RequestTrace = TraceLayer<HttpMakeClassifier, RouteSpan, (), StatusAndLatency>;

/// Builds the request-logging layer (applied with `Router::layer`, so the
/// route is already matched when the span is made).
pub fn layer() -> RequestTrace {
    TraceLayer::new_for_http()
        .make_span_with(RouteSpan)
        .on_request(())
        .on_response(StatusAndLatency)
}
