//! `PUT /api/auth/profile`: the signed-in user's own fields.

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    domain::accounts,
    domain::agents,
    domain::users::{UserProfile, UserRow},
    http::envelope::json_with as json,
    http::error::ApiResult,
    http::extract::token_invalid,
    http::{ApiJson, AuthUser, ErrorBody},
    state::AppState,
};

use super::fields::{optional_text, required_text};

/// `companyName`. Role, e-mail, status and verification cannot be changed here.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUpdateRequest {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub company_name: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub message: String,
    pub data: UserProfile,
}

/// Update the authenticated user's profile.
#[utoipa::path(put, path = "/api/auth/profile", tag = "auth",
    security(("bearer" = [])),
    request_body(content = ProfileUpdateRequest, example = crate::routes::examples::profile_update),
    responses(
        (status = 200, description = "Updated profile", body = ProfileResponse),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 422, description = "Invalid data", body = ErrorBody),
    ))]
pub async fn update_profile(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<ProfileUpdateRequest>,
) -> ApiResult<axum::response::Response> {
    let mut user = UserRow::find_by_id(&state.db, &auth.user_id)
        .await?
        .ok_or_else(token_invalid)?;
    if req.first_name.is_some() {
        user.first_name = required_text(req.first_name, "firstName", "firstName", 100)?;
    }
    if req.last_name.is_some() {
        user.last_name = required_text(req.last_name, "lastName", "lastName", 100)?;
    }
    if req.phone.is_some() {
        user.phone = optional_text(req.phone, "phone", "phone", 30)?;
    }
    if req.company_name.is_some() {
        user.company_name = optional_text(req.company_name, "companyName", "companyName", 200)?;
    }
    accounts::update_profile(&state.db, &user).await?;
    // Keep the agent search (name or company) in step with the new name.
    agents::refresh_agent_search(&state.db, &user.id).await?;
    Ok(json(
        StatusCode::OK,
        ProfileResponse {
            status: "success",
            message: "Perfil actualizado correctamente".into(),
            data: user.profile(),
        },
    ))
}
