//! Partner API keys, for platform administrators: create (the key is shown once), list,
//! revoke. The CLI does the same (`server api-key`).

use axum::{extract::State, http::StatusCode, response::Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        api_keys::{self, ApiKeyView},
        users::Role,
    },
    http::{
        ApiJson, ApiPath, AuthUser, DataResponse, ErrorBody,
        envelope::json_with,
        error::{ApiError, ApiResult},
    },
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_key, list_keys))
        .routes(routes!(revoke_key))
}

/// Body of `POST /api/admin/api-keys`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateKeyRequest {
    /// The partner (1 to 100 characters).
    pub name: String,
    /// Profiles per minute (1 to 10,000,000); default `API_KEY_RATE_LIMIT_PER_MINUTE`.
    pub rate_limit_per_minute: Option<i64>,
}

/// A new key: `key` is shown only in this answer (only its digest is stored).
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedKey {
    /// Send it as `X-API-Key` to the score endpoints.
    #[schema(example = "psk_Q3vD9kLmX0...")]
    pub key: String,
    #[serde(flatten)]
    pub view: ApiKeyView,
}

/// Create a partner API key (administrators).
#[utoipa::path(post, path = "/api/admin/api-keys", tag = "partners",
    security(("bearer" = [])),
    request_body(content = CreateKeyRequest, example = crate::routes::examples::create_api_key),
    responses(
        (status = 201, description = "Created; the key is in this answer only", body = DataResponse<CreatedKey>),
        (status = 403, description = "Not an administrator (`FORBIDDEN`)", body = ErrorBody),
    ))]
pub async fn create_key(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreateKeyRequest>,
) -> ApiResult<Response> {
    auth.require_role(&[Role::Admin])?;
    let limit = req
        .rate_limit_per_minute
        .unwrap_or(i64::from(state.config.api_key_rate_limit_per_minute));
    let (row, key) = api_keys::create(&state.db, &req.name, limit, Some(&auth.user_id)).await?;
    tracing::info!(api_key = %row.id, by = %auth.user_id, "API key created");
    Ok(json_with(StatusCode::CREATED, DataResponse::new(CreatedKey { key, view: row.view() })))
}

/// Every partner API key, newest first (never the keys themselves).
#[utoipa::path(get, path = "/api/admin/api-keys", tag = "partners",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The keys", body = DataResponse<Vec<ApiKeyView>>),
        (status = 403, description = "Not an administrator (`FORBIDDEN`)", body = ErrorBody),
    ))]
pub async fn list_keys(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Response> {
    auth.require_role(&[Role::Admin])?;
    let keys: Vec<ApiKeyView> = api_keys::list(&state.db).await?.iter().map(|r| r.view()).collect();
    Ok(json_with(StatusCode::OK, DataResponse::new(keys)))
}

/// Revoke a partner API key: it stops working at once (401 `API_KEY_INVALID`).
#[utoipa::path(delete, path = "/api/admin/api-keys/{id}", tag = "partners",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Key id")),
    responses(
        (status = 200, description = "Revoked (again: unchanged)", body = DataResponse<ApiKeyView>),
        (status = 403, description = "Not an administrator (`FORBIDDEN`)", body = ErrorBody),
        (status = 404, description = "No such key (`API_KEY_NOT_FOUND`)", body = ErrorBody),
    ))]
pub async fn revoke_key(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Response> {
    auth.require_role(&[Role::Admin])?;
    let row = api_keys::revoke(&state.db, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("API_KEY_NOT_FOUND", "Clave de API no encontrada"))?;
    tracing::info!(api_key = %row.id, by = %auth.user_id, "API key revoked");
    Ok(json_with(StatusCode::OK, DataResponse::new(row.view())))
}
