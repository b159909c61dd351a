//! `AppError`: the one error type of the HTTP edge. API errors render as
//! `application/problem+json` (RFC 9457) with a stable `type`, a `detail` a
//! person can act on and, for invalid input, per-field `errors`. Server errors
//! are logged with their cause and answered without it.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::registry::lifecycle::TransitionError;
use crate::registry::publish::PublishError;
use crate::registry::server_json::FieldError;

/// Base of the stable problem `type` URIs.
pub const PROBLEM_BASE: &str = "https://gatehouse.dev/problems/";

/// Everything that can go wrong in a request.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No or invalid credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// Valid credentials without the right.
    #[error("{0}")]
    Forbidden(String),
    /// No such resource.
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with stored state.
    #[error("{detail}")]
    Conflict {
        /// Stable problem slug.
        kind: &'static str,
        /// Explanation.
        detail: String,
    },
    /// The input is invalid.
    #[error("{detail}")]
    Invalid {
        /// Stable problem slug.
        kind: &'static str,
        /// Explanation.
        detail: String,
        /// Per-field problems.
        errors: Vec<FieldError>,
    },
    /// Malformed request (bad JSON, bad query).
    #[error("{0}")]
    BadRequest(String),
    /// Body over the limit.
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    /// Wrong content type.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Too many attempts.
    #[error("{0}")]
    TooManyRequests(String),
    /// A stored document (a scan's snapshot or report) that no longer
    /// decodes: answered 500 with its own title and a detail naming the
    /// version (never the document), and logged.
    #[error("{detail}")]
    Unreadable {
        /// What cannot be read, for the answer.
        detail: String,
        /// Why, for the log only (a decoding error may quote stored text).
        cause: String,
    },
    /// A bug or an outage; details are logged, not returned.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<crate::review::read::ReadError> for AppError {
    fn from(e: crate::review::read::ReadError) -> Self {
        use crate::review::read::ReadError;
        match e {
            ReadError::NotFound { .. } => AppError::NotFound(e.to_string()),
            ReadError::Unreadable { ref source, .. } => AppError::Unreadable {
                cause: source.to_string(),
                detail: e.to_string(),
            },
            ReadError::Db(db) => db.into(),
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        AppError::Internal(anyhow::Error::new(e).context("database"))
    }
}

impl From<TransitionError> for AppError {
    fn from(e: TransitionError) -> Self {
        AppError::Conflict {
            kind: "invalid-transition",
            detail: e.to_string(),
        }
    }
}

impl From<PublishError> for AppError {
    fn from(e: PublishError) -> Self {
        match e {
            PublishError::InvalidJson(_) => AppError::BadRequest(e.to_string()),
            PublishError::Invalid(errors) => AppError::Invalid {
                kind: "invalid-server-json",
                detail: format!("the server.json is invalid: {}", summarise(&errors)),
                errors,
            },
            PublishError::Forbidden(d) => AppError::Forbidden(d),
            PublishError::DuplicateVersion { .. } => AppError::Conflict {
                kind: "version-exists",
                detail: e.to_string(),
            },
            PublishError::RemoteTaken { .. } => AppError::Conflict {
                kind: "remote-url-taken",
                detail: e.to_string(),
            },
            PublishError::Db(db) => db.into(),
        }
    }
}

fn summarise(errors: &[FieldError]) -> String {
    let mut parts: Vec<String> = errors
        .iter()
        .take(3)
        .map(|e| {
            if e.pointer.is_empty() {
                e.detail.clone()
            } else {
                format!("{}: {}", e.pointer, e.detail)
            }
        })
        .collect();
    if errors.len() > 3 {
        parts.push(format!("and {} more", errors.len() - 3));
    }
    parts.join("; ")
}

impl AppError {
    /// The HTTP status of this error.
    pub fn status_code(&self) -> StatusCode {
        match self {
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict { .. } => StatusCode::CONFLICT,
            AppError::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unreadable { .. } | AppError::Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    /// The stable slug of the problem `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            AppError::Unauthorized(_) => "unauthorized",
            AppError::Forbidden(_) => "forbidden",
            AppError::NotFound(_) => "not-found",
            AppError::Conflict { kind, .. } | AppError::Invalid { kind, .. } => kind,
            AppError::BadRequest(_) => "bad-request",
            AppError::PayloadTooLarge(_) => "payload-too-large",
            AppError::UnsupportedMediaType(_) => "unsupported-media-type",
            AppError::TooManyRequests(_) => "too-many-requests",
            AppError::Unreadable { .. } => "stored-data-unreadable",
            AppError::Internal(_) => "internal",
        }
    }

    /// The problem's `title`: the status's reason, except where one status
    /// covers problems a person must tell apart.
    pub fn title(&self) -> &'static str {
        match self {
            AppError::Unreadable { .. } => "Stored data unreadable",
            other => other.status_code().canonical_reason().unwrap_or("Error"),
        }
    }

    /// Logs a server-side failure with its cause (once, where it is answered).
    pub fn log(&self) {
        match self {
            AppError::Internal(cause) => {
                tracing::error!(error = %format!("{cause:#}"), "request failed")
            }
            // The decoding error may quote the stored (hostile) text:
            // its hidden characters are spelled out before it reaches a log.
            AppError::Unreadable { detail, cause } => tracing::error!(
                what = %detail,
                error = %crate::visible::render(cause),
                "stored data unreadable"
            ),
            _ => {}
        }
    }

    /// The public detail (never the cause of a 5xx).
    pub fn detail(&self) -> String {
        match self {
            AppError::Internal(_) => "an internal error occurred; it has been logged".into(),
            other => other.to_string(),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        self.log();
        let mut body = json!({
            "type": format!("{PROBLEM_BASE}{}", self.kind()),
            "title": self.title(),
            "status": status.as_u16(),
            "detail": self.detail(),
        });
        if let AppError::Invalid { errors, .. } = &self {
            body["errors"] = json!(errors);
        }
        let mut response = (status, body.to_string()).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}
