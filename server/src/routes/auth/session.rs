//! `POST /api/auth/login`, `GET /api/auth/me` and `POST /api/auth/logout`.

use axum::{extract::State, http::StatusCode};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    domain::accounts::{self, LoginData},
    domain::users::{UserProfile, UserRow},
    http::envelope::json_with as json,
    http::error::{ApiError, ApiResult},
    http::extract::token_invalid,
    http::{ApiJson, AuthUser, ClientIp, DataResponse, ErrorBody, StatusMessage},
    state::AppState,
};

use super::messages::{MSG_EMAIL_NOT_VERIFIED, MSG_INVALID_CREDENTIALS};

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    #[schema(example = "ana@example.com")]
    pub email: String,
    pub password: String,
}

/// Log in with e-mail and password. Unknown e-mail and wrong password give the same 401;
/// an unverified account gets 403 with `requiresEmailVerification: true` (only after the
/// password is correct).
#[utoipa::path(post, path = "/api/auth/login", tag = "auth",
    request_body(content = LoginRequest, example = crate::routes::examples::login),
    responses(
        (status = 200, description = "Logged in", body = DataResponse<LoginData>),
        (status = 401, description = "Wrong credentials (`INVALID_CREDENTIALS`)", body = ErrorBody),
        (status = 403, description = "E-mail not verified (`EMAIL_NOT_VERIFIED`, `requiresEmailVerification: true`) or account disabled", body = ErrorBody),
        (status = 422, description = "Invalid body", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<LoginRequest>,
) -> ApiResult<axum::response::Response> {
    state.limiter.check_scope("login", &ip, Some(&req.email)).await?;
    let user = if accounts::is_valid_email(&req.email) && req.password.chars().count() <= 1024 {
        UserRow::find_by_email(&state.db, &req.email).await?
    } else {
        None
    };
    let stored = user.as_ref().and_then(|u| u.password_hash.as_deref());
    // With no user (or an IdP-only account) this verifies against a dummy hash.
    let ok = state.passwords.verify(&req.password, stored).await?;
    let user = match user {
        Some(u) if ok => u,
        _ => {
            tracing::info!("login failed");
            return Err(ApiError::unauthorized(
                "INVALID_CREDENTIALS",
                MSG_INVALID_CREDENTIALS,
            ));
        }
    };
    match user.status.as_str() {
        "active" => {}
        "pending" => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "EMAIL_NOT_VERIFIED",
                MSG_EMAIL_NOT_VERIFIED,
            )
            .with("requiresEmailVerification", true)
            .with("email", user.email.clone()));
        }
        _ => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "ACCOUNT_DISABLED",
                "La cuenta está deshabilitada",
            ));
        }
    }
    let data = accounts::start_session(
        &state.db,
        &state.jwt,
        state.config.access_token_ttl,
        &user,
        "password",
    )
    .await?;
    tracing::info!(user_id = %user.id, "login succeeded");
    Ok(json(StatusCode::OK, DataResponse::new(data)))
}

// ---------------------------------------------------------------- me / profile / logout

/// The authenticated user's profile.
#[utoipa::path(get, path = "/api/auth/me", tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Profile", body = DataResponse<UserProfile>),
        (status = 401, description = "Missing (`TOKEN_MISSING`) or invalid/revoked (`TOKEN_INVALID`) token", body = ErrorBody),
    ))]
pub async fn me(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<axum::response::Response> {
    let user = UserRow::find_by_id(&state.db, &auth.user_id)
        .await?
        .ok_or_else(token_invalid)?;
    Ok(json(StatusCode::OK, DataResponse::new(user.profile())))
}

/// Log out: revokes the session of the token, which is rejected (401) from then on.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Logged out", body = StatusMessage),
        (status = 401, description = "Not authenticated", body = ErrorBody),
    ))]
pub async fn logout(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<axum::response::Response> {
    accounts::revoke_session(&state.db, &auth.session_id).await?;
    tracing::info!(user_id = %auth.user_id, "logout");
    Ok(json(
        StatusCode::OK,
        StatusMessage::new("Sesión cerrada correctamente"),
    ))
}
