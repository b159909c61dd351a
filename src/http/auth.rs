//! Bearer-token authentication for the JSON API. Every handler that needs a
//! principal takes [`Principal`] and checks the role it needs with one of the
//! `require_*` helpers — authorisation is decided per request, never by what a
//! UI chose to show.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use super::AppState;
use super::error::AppError;
use crate::registry::credentials;
use crate::storage::accounts::{self, Publisher, Role, TokenPrincipal};

/// The authenticated caller of an API request.
#[derive(Debug, Clone)]
pub struct Principal(pub TokenPrincipal);

impl FromRequestParts<AppState> for Principal {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let header = parts.headers.get(AUTHORIZATION).ok_or_else(|| {
            AppError::Unauthorized("an Authorization: Bearer token is required".into())
        })?;
        let token = header
            .to_str()
            .ok()
            .and_then(|h| {
                h.strip_prefix("Bearer ")
                    .or_else(|| h.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty() && t.len() <= 256)
            .ok_or_else(|| {
                AppError::Unauthorized("the Authorization header must be 'Bearer <token>'".into())
            })?;
        let principal =
            accounts::principal_by_token_hash(&state.db, &credentials::hash_token(token))
                .await?
                .ok_or_else(|| AppError::Unauthorized("the token is invalid or revoked".into()))?;
        Ok(Principal(principal))
    }
}

impl Principal {
    /// The publisher behind a publisher token.
    pub fn require_publisher(&self) -> Result<&Publisher, AppError> {
        match (&self.0.role, &self.0.publisher) {
            (Role::Publisher, Some(p)) => Ok(p),
            _ => Err(AppError::Forbidden(
                "this endpoint needs a publisher token".into(),
            )),
        }
    }

    /// Admins and reviewers may review.
    pub fn require_reviewer(&self) -> Result<(), AppError> {
        match self.0.role {
            Role::Admin | Role::Reviewer => Ok(()),
            Role::Publisher => Err(AppError::Forbidden(
                "this endpoint needs a reviewer or admin token".into(),
            )),
        }
    }

    /// Only admins.
    pub fn require_admin(&self) -> Result<(), AppError> {
        match self.0.role {
            Role::Admin => Ok(()),
            _ => Err(AppError::Forbidden(
                "this endpoint needs an admin token".into(),
            )),
        }
    }

    /// How the audit log names this caller.
    pub fn actor(&self) -> String {
        match &self.0.publisher {
            Some(p) => format!("publisher:{}", p.name),
            None => format!("token:{}", self.0.label),
        }
    }

    /// The caller's role.
    pub fn role(&self) -> Role {
        self.0.role
    }
}
