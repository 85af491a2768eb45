//! The one error type of the server and its JSON envelope.
//!
//! Every error response, from every route and from the framework itself (bad JSON, unknown
//! route, wrong method, oversized body, timeout, panic), has this body:
//!
//! ```json
//! {"status": "error", "success": false, "code": "UPPER_SNAKE_CODE", "message": "...", ...extras}
//! ```

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::domain::error::{DomainError, ErrorKind};
pub use crate::domain::error::is_unique_violation;

/// Body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Always `"error"`.
    #[schema(example = "error")]
    pub status: &'static str,
    /// Always `false`.
    #[schema(example = false)]
    pub success: bool,
    /// Stable machine-readable code (UPPER_SNAKE_CASE).
    #[schema(example = "VALIDATION_ERROR")]
    pub code: String,
    /// Human-readable message (Spanish).
    #[schema(example = "El campo email es obligatorio")]
    pub message: String,
    /// Extra fields of some errors, such as `requiresEmailVerification` or `retryAfter`.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub extra: Map<String, Value>,
}

/// Body of a score-core error (a profile the model cannot score): [`ErrorBody`]'s keys, the
/// first mistake's `code`, `message` and `field`, and every mistake of the profile in
/// `errores`, in score-core's stable order (unknown keys sorted, then each field as read, then
/// the ranges), the first one repeating `code`, `field` and `message`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreErrorBody {
    /// Always `"error"`.
    #[schema(example = "error")]
    pub status: &'static str,
    /// Always `false`.
    #[schema(example = false)]
    pub success: bool,
    /// The first mistake's stable code.
    #[schema(example = "UNKNOWN_STATE")]
    pub code: String,
    /// The first mistake's Spanish message.
    pub message: String,
    /// The first mistake's field (its path, such as `coacreditado.edad`), null for the whole input.
    #[schema(example = "estado")]
    pub field: Option<String>,
    /// Every mistake of the profile, at once, whenever score-core read it. Absent when the
    /// body never reached the model (not UTF-8 text) and on a contact field's
    /// `VALIDATION_ERROR` (fases 1 and 2, onboarding), which are not the profile's mistakes.
    pub errores: Option<Vec<ScoreErrorItem>>,
}

/// One mistake of a profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreErrorItem {
    /// Stable code (UPPER_SNAKE_CASE).
    #[schema(example = "NOT_AN_INTEGER")]
    pub codigo: String,
    /// The field's path (`coacreditado.edad`), null for the whole input.
    #[schema(example = "antiguedad_meses")]
    pub campo: Option<String>,
    /// Spanish message, from score-core's table of messages.
    #[schema(example = "El campo \"antiguedad_meses\" debe ser un número entero, no 1.5.")]
    pub mensaje: String,
}

/// An API error: HTTP status, stable code, message and optional extra top-level fields.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub extra: Map<String, Value>,
    /// Seconds for the `Retry-After` header (429).
    pub retry_after: Option<u64>,
    /// Adds `WWW-Authenticate: Bearer` (401).
    pub www_authenticate: bool,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            extra: Map::new(),
            retry_after: None,
            www_authenticate: false,
        }
    }

    /// Adds an extra top-level field to the envelope.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    // The answers a domain error can be are made as that domain error, so that each kind's
    // status is written once ([`From<DomainError>`]).
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        DomainError::bad_request(code, message).into()
    }

    pub fn validation(message: impl Into<String>) -> Self {
        DomainError::validation(message).into()
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        DomainError::not_found(code, message).into()
    }

    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        DomainError::unauthorized(code, message).into()
    }

    pub fn forbidden() -> Self {
        DomainError::forbidden().into()
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        DomainError::conflict(code, message).into()
    }

    pub fn rate_limited(retry_after_secs: u64) -> Self {
        let mut e = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "RATE_LIMITED",
            "Demasiadas solicitudes. Inténtalo de nuevo más tarde",
        )
        .with("retryAfter", retry_after_secs);
        e.retry_after = Some(retry_after_secs);
        e
    }

    pub fn service_unavailable(code: &'static str, message: impl Into<String>) -> Self {
        DomainError::service_unavailable(code, message).into()
    }

    /// A 500 whose cause is logged (never sent to the client).
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        DomainError::internal(cause).into()
    }

    pub fn internal_generic() -> Self {
        DomainError::internal_generic().into()
    }

    /// The default error for a bare status produced by the framework or a middleware.
    pub fn from_status(status: StatusCode) -> Self {
        match status {
            StatusCode::NOT_FOUND => Self::not_found("ROUTE_NOT_FOUND", "Ruta no encontrada"),
            StatusCode::METHOD_NOT_ALLOWED => Self::new(
                status,
                "METHOD_NOT_ALLOWED",
                "Método no permitido para esta ruta",
            ),
            StatusCode::PAYLOAD_TOO_LARGE => Self::new(
                status,
                "PAYLOAD_TOO_LARGE",
                "El cuerpo de la solicitud es demasiado grande",
            ),
            StatusCode::REQUEST_TIMEOUT => Self::new(
                status,
                "REQUEST_TIMEOUT",
                "La solicitud tardó demasiado en procesarse",
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Self::new(
                status,
                "UNSUPPORTED_MEDIA_TYPE",
                "El cuerpo debe ser JSON (Content-Type: application/json)",
            ),
            StatusCode::UNAUTHORIZED => Self::unauthorized("UNAUTHORIZED", "No autenticado"),
            StatusCode::FORBIDDEN => Self::forbidden(),
            StatusCode::TOO_MANY_REQUESTS => Self::rate_limited(60),
            s if s.is_server_error() => {
                Self::new(s, "INTERNAL_ERROR", "Error interno del servidor")
            }
            s => Self::new(s, "BAD_REQUEST", "Solicitud inválida"),
        }
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            status: "error",
            success: false,
            code: self.code.to_string(),
            message: self.message.clone(),
            extra: self.extra.clone(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status, axum::Json(self.body())).into_response();
        if let Some(secs) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        if self.www_authenticate {
            resp.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        resp.extensions_mut().insert(EnvelopeMarker);
        resp
    }
}

/// Marks a response that already carries the error envelope.
#[derive(Clone, Copy, Debug)]
pub struct EnvelopeMarker;

/// The one place where a domain error becomes an HTTP answer: its kind gives the status, its
/// code, message and extra fields the envelope.
impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        let status = match e.kind {
            ErrorKind::Malformed => StatusCode::BAD_REQUEST,
            ErrorKind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::Unauthenticated => StatusCode::UNAUTHORIZED,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let mut error = ApiError::new(status, e.code, e.message);
        error.extra = e.extra;
        error.www_authenticate = e.kind == ErrorKind::Unauthenticated;
        error
    }
}

/// Database errors as the domain classifies them ([`DomainError`]).
impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        DomainError::from(e).into()
    }
}

/// A score-core error in the common envelope ([`ScoreErrorBody`]): 400 for malformed input,
/// 422 for values the model rejects ([`DomainError`]'s kinds).
impl From<score_core::ScoreError> for ApiError {
    fn from(e: score_core::ScoreError) -> Self {
        DomainError::from(e).into()
    }
}

/// A score-docs error in the common envelope: 413 for `DOCUMENT_TOO_LARGE`, 503 for
/// `DOCUMENT_OCR_UNAVAILABLE`, 422 for the other `DOCUMENT_*` codes ([`DomainError`]'s kinds).
impl From<score_docs::DocError> for ApiError {
    fn from(e: score_docs::DocError) -> Self {
        DomainError::from(e).into()
    }
}
