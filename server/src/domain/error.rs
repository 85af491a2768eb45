//! The domain's one error type: what went wrong ([`ErrorKind`]), a stable UPPER_SNAKE_CASE
//! code, a Spanish message and extra fields of the envelope (`field`, `errores`, ...). It says
//! nothing about HTTP: `http::error` maps each kind to its status and writes the one error
//! envelope, so the CLI, the seed and the tests can call the domain without a web layer.

use serde_json::{Map, Value};

/// What went wrong, as the caller should understand it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is not of the expected shape (a wrong type, a missing or unknown field).
    Malformed,
    /// Well-formed input that a rule refuses.
    Invalid,
    /// The caller is not who it must be (no or a bad credential).
    Unauthenticated,
    /// The caller may not do this.
    Forbidden,
    NotFound,
    /// The state of things does not allow it (a duplicate, a taken value, an ambiguity).
    Conflict,
    /// A document larger than allowed.
    TooLarge,
    /// A service this needs (the database, the identity provider, the document reader) does
    /// not answer now.
    Unavailable,
    /// A fault of this server; the cause is logged, never shown.
    Internal,
}

impl ErrorKind {
    /// True when the caller's request is at fault (not the server nor a service it needs).
    pub fn is_client_error(self) -> bool {
        !matches!(self, Self::Unavailable | Self::Internal)
    }
}

/// A domain error: its kind, stable code, message and the envelope's extra top-level fields.
#[derive(Debug)]
pub struct DomainError {
    pub kind: ErrorKind,
    pub code: &'static str,
    pub message: String,
    pub extra: Map<String, Value>,
}

pub type DomainResult<T> = Result<T, DomainError>;

impl DomainError {
    pub fn new(kind: ErrorKind, code: &'static str, message: impl Into<String>) -> Self {
        Self { kind, code, message: message.into(), extra: Map::new() }
    }

    /// Adds an extra top-level field to the envelope.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// Malformed input with its own code.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed, code, message)
    }

    /// A value a rule refuses: `VALIDATION_ERROR`.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invalid, "VALIDATION_ERROR", message)
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound, code, message)
    }

    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unauthenticated, code, message)
    }

    pub fn forbidden() -> Self {
        Self::new(ErrorKind::Forbidden, "FORBIDDEN", "No tienes permisos para realizar esta acción")
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Conflict, code, message)
    }

    pub fn service_unavailable(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unavailable, code, message)
    }

    /// An internal error whose cause is logged (never sent to the client).
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::internal_generic()
    }

    pub fn internal_generic() -> Self {
        Self::new(ErrorKind::Internal, "INTERNAL_ERROR", "Error interno del servidor")
    }
}

impl std::fmt::Display for DomainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {}: {}", self.kind, self.code, self.message)
    }
}

impl std::error::Error for DomainError {}

impl From<sqlx::Error> for DomainError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::PoolTimedOut => {
                tracing::error!("database pool timed out");
                Self::service_unavailable("DATABASE_UNAVAILABLE", "Base de datos no disponible")
            }
            other => Self::internal(format!("database: {other}")),
        }
    }
}

/// A score-core error: the first mistake's code, message and field, and every mistake in
/// `errores`. Malformed input (the first mistake a bad type, a missing or unknown field) is
/// [`ErrorKind::Malformed`]; well-formed values the model rejects are [`ErrorKind::Invalid`].
impl From<score_core::ScoreError> for DomainError {
    fn from(e: score_core::ScoreError) -> Self {
        use score_core::ErrorCode::*;
        let kind = match e.code {
            InvalidJson | InvalidType | MissingField | UnknownField => ErrorKind::Malformed,
            _ => ErrorKind::Invalid,
        };
        let errores = serde_json::to_value(&e.errors).unwrap_or_default();
        Self::new(kind, e.code.as_str(), e.message).with("field", e.field).with("errores", errores)
    }
}

/// A score-docs error (a document that cannot be used): `DOCUMENT_TOO_LARGE` is too large,
/// `DOCUMENT_OCR_UNAVAILABLE` is a service this server lacks, the other `DOCUMENT_*` codes
/// refuse a well-formed request's document; with `field` when one is at fault.
impl From<score_docs::DocError> for DomainError {
    fn from(e: score_docs::DocError) -> Self {
        let kind = match e.code {
            score_docs::DocErrorCode::DocumentTooLarge => ErrorKind::TooLarge,
            score_docs::DocErrorCode::DocumentOcrUnavailable => ErrorKind::Unavailable,
            _ => ErrorKind::Invalid,
        };
        let error = Self::new(kind, e.code.as_str(), e.message);
        match e.field {
            Some(field) => error.with("field", field),
            None => error,
        }
    }
}

/// True when a database error is a unique-constraint violation.
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}
