//! Extractors that turn every rejection into the error envelope, the client IP, and the
//! authenticated user.

use std::net::SocketAddr;

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request, rejection::JsonRejection},
    http::{StatusCode, header, request::Parts},
};
use serde::de::DeserializeOwned;

use super::{
    error::ApiError,
    text::{has_forbidden_char, json_has_forbidden_control},
};
use crate::{
    domain::{
        accounts,
        users::{Caller, Role},
    },
    state::AppState,
};

/// JSON body extractor: malformed JSON → 400 `INVALID_JSON`; wrong types or missing fields →
/// 422 `VALIDATION_ERROR`; a control character in a string (other than a newline or a tab,
/// see [`super::text::is_forbidden_char`]) → 422 `INVALID_CHARACTERS`; no JSON content type →
/// 415; too large → 413. Always the envelope.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = req.into_parts();
        JsonContentType::from_request_parts(&mut parts, state).await?;
        let req = Request::from_parts(parts, body);
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|r| ApiError::from_status(r.status()))?;
        if json_has_forbidden_control(&bytes) {
            return Err(invalid_characters());
        }
        match axum::Json::<T>::from_bytes(&bytes) {
            Ok(axum::Json(v)) => Ok(ApiJson(v)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn invalid_characters() -> ApiError {
    ApiError::validation("El cuerpo contiene caracteres de control no permitidos")
        .with("detail", "Solo los campos de varias líneas admiten saltos de línea y tabuladores")
}

fn json_rejection(r: JsonRejection) -> ApiError {
    match r {
        JsonRejection::JsonDataError(e) => {
            ApiError::validation("Los datos enviados no son válidos").with("detail", e.body_text())
        }
        JsonRejection::JsonSyntaxError(_) => ApiError::bad_request(
            "INVALID_JSON",
            "El cuerpo de la solicitud no es un JSON válido",
        ),
        JsonRejection::MissingJsonContentType(_) => {
            ApiError::from_status(StatusCode::UNSUPPORTED_MEDIA_TYPE)
        }
        other => {
            let status = other.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE || status.is_client_error() {
                ApiError::from_status(status)
            } else {
                ApiError::bad_request("INVALID_BODY", "No se pudo leer el cuerpo de la solicitud")
            }
        }
    }
}

/// Requires the request to declare a JSON body (`application/json` or `application/*+json`,
/// parameters ignored), as `ApiJson` does, for handlers that read the body as raw bytes:
/// 415 with the envelope otherwise. Reads the header in place (no copy of the header map).
#[derive(Debug, Clone, Copy)]
pub struct JsonContentType;

impl<S: Send + Sync> FromRequestParts<S> for JsonContentType {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let is_json = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                let essence = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
                essence == "application/json"
                    || (essence.starts_with("application/") && essence.ends_with("+json"))
            });
        if is_json {
            Ok(JsonContentType)
        } else {
            Err(ApiError::from_status(StatusCode::UNSUPPORTED_MEDIA_TYPE))
        }
    }
}

/// Query-string extractor with the error envelope (400 `INVALID_QUERY`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        if let Some((name, _)) = url::form_urlencoded::parse(query.as_bytes())
            .find(|(k, v)| has_forbidden_char(k, false) || has_forbidden_char(v, false))
        {
            return Err(ApiError::bad_request(
                "INVALID_QUERY",
                "Los parámetros de la consulta contienen caracteres no permitidos",
            )
            .with("field", name.into_owned()));
        }
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(ApiQuery(v)),
            Err(e) => Err(ApiError::bad_request(
                "INVALID_QUERY",
                "Los parámetros de la consulta no son válidos",
            )
            .with("detail", e.body_text())),
        }
    }
}

/// Path extractor with the error envelope (400 `INVALID_PATH`). A parameter with a control
/// character names nothing: 404 `NOT_FOUND`. Ids are then checked as UUIDs by the domain's
/// `find` functions (404 with the area's code) before any query.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if let Ok(raw) = axum::extract::RawPathParams::from_request_parts(parts, state).await
            && raw.iter().any(|(_, v)| has_forbidden_char(v, false))
        {
            return Err(ApiError::not_found("NOT_FOUND", "Recurso no encontrado"));
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(ApiPath(v)),
            Err(e) => Err(
                ApiError::bad_request("INVALID_PATH", "Parámetro de ruta inválido")
                    .with("detail", e.body_text()),
            ),
        }
    }
}

/// The client IP used for rate limiting: the socket peer, or the first `X-Forwarded-For`
/// entry when `TRUST_X_FORWARDED_FOR=true` (only behind a proxy that sets it).
#[derive(Debug, Clone)]
pub struct ClientIp(pub String);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if state.config.trust_x_forwarded_for
            && let Some(first) = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .map(str::trim)
                .filter(|v| v.parse::<std::net::IpAddr>().is_ok())
        {
            return Ok(ClientIp(first.to_string()));
        }
        let ip = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ci| ci.0.ip().to_string())
            .unwrap_or_else(|| "unknown".into());
        Ok(ClientIp(ip))
    }
}

/// Who calls a score endpoint: a partner with a working `X-API-Key` (its own rate limit), or
/// anyone else by client address (`SCORE_RATE_LIMIT_PER_MINUTE`). A key that is unknown or
/// revoked → 401 `API_KEY_INVALID`, never a silent fall back to the per-IP limit.
#[derive(Debug, Clone)]
pub enum ScoreClient {
    Partner(crate::domain::api_keys::ApiKeyRow),
    Anonymous(String),
}

/// The header partners send their key in.
pub const API_KEY_HEADER: &str = "x-api-key";

impl ScoreClient {
    /// Profiles the caller may score per minute.
    pub fn limit_per_minute(&self, state: &AppState) -> u32 {
        match self {
            ScoreClient::Partner(key) => u32::try_from(key.rate_limit_per_minute).unwrap_or(u32::MAX),
            ScoreClient::Anonymous(_) => state.config.score_rate_limit_per_minute,
        }
    }

    /// Spends `cost` profiles of the caller's budget (429 with `Retry-After` when spent).
    pub async fn spend(&self, state: &AppState, cost: u32) -> Result<(), ApiError> {
        let bucket = match self {
            ScoreClient::Partner(key) => format!("score:key:{}", key.id),
            ScoreClient::Anonymous(ip) => format!("score:ip:{ip}"),
        };
        state.score_limiter.take(&bucket, cost, self.limit_per_minute(state)).await
    }
}

impl FromRequestParts<AppState> for ScoreClient {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(API_KEY_HEADER) else {
            let ClientIp(ip) = ClientIp::from_request_parts(parts, state).await?;
            return Ok(ScoreClient::Anonymous(ip));
        };
        let invalid = || ApiError::unauthorized("API_KEY_INVALID", "La clave de API no es válida o fue revocada");
        let key = value.to_str().map_err(|_| invalid())?.trim();
        match crate::domain::api_keys::find_active(&state.db, key).await? {
            Some(row) => Ok(ScoreClient::Partner(row)),
            None => Err(invalid()),
        }
    }
}

/// The authenticated caller: a valid `Authorization: Bearer <JWT>` whose session is not
/// revoked or expired and whose account is active. Missing token → 401 `TOKEN_MISSING`;
/// anything else wrong → 401 `TOKEN_INVALID`.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: String,
    pub role: Role,
    pub session_id: String,
}

impl AuthUser {
    /// The id and role, as the domain's authorization checks take them.
    pub fn caller(&self) -> Caller<'_> {
        Caller {
            user_id: &self.user_id,
            role: self.role,
        }
    }

    /// 403 unless the caller has one of `roles`.
    pub fn require_role(&self, roles: &[Role]) -> Result<(), ApiError> {
        if roles.contains(&self.role) {
            Ok(())
        } else {
            Err(ApiError::forbidden())
        }
    }
}

pub fn token_invalid() -> ApiError {
    ApiError::unauthorized("TOKEN_INVALID", "Token inválido o expirado")
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Err(ApiError::unauthorized(
                "TOKEN_MISSING",
                "Token de acceso requerido",
            ));
        };
        let value = value.to_str().map_err(|_| token_invalid())?;
        let token = match value.split_once(' ') {
            Some((scheme, t)) if scheme.eq_ignore_ascii_case("bearer") => t.trim(),
            _ => return Err(token_invalid()),
        };
        let claims = state.jwt.verify(token).ok_or_else(token_invalid)?;
        let row = accounts::session_user(&state.db, &claims.sid, &claims.sub).await?;
        let (user_id, role) = row.ok_or_else(token_invalid)?;
        let role = Role::parse(&role).ok_or_else(token_invalid)?;
        Ok(AuthUser {
            user_id,
            role,
            session_id: claims.sid,
        })
    }
}
