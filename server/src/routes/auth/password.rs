//! `POST /api/auth/forgot-password` and `POST /api/auth/reset-password`.

use axum::{extract::State, http::StatusCode};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    domain::accounts::{self, TokenKind, TokenUse},
    domain::users::UserRow,
    http::envelope::json_with as json,
    http::error::{ApiError, ApiResult},
    http::{ApiJson, ClientIp, ErrorBody, StatusMessage},
    mail,
    security::check_password_rules,
    state::AppState,
};

use super::{
    email::{EmailRequest, off_the_request_path},
    messages::{MSG_FORGOT, MSG_RESET_INVALID, MSG_USER_NOT_FOUND},
};

/// Request a password-reset e-mail. The answer is the same whether or not the address exists.
#[utoipa::path(post, path = "/api/auth/forgot-password", tag = "auth",
    request_body(content = EmailRequest, example = crate::routes::examples::email),
    responses(
        (status = 200, description = "Accepted (same answer for every address)", body = StatusMessage),
        (status = 422, description = "Invalid body", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn forgot_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<EmailRequest>,
) -> ApiResult<axum::response::Response> {
    state.limiter.check_scope("forgot", &ip, Some(&req.email)).await?;
    if accounts::is_valid_email(&req.email) {
        off_the_request_path("forgot-password", async move {
            if let Some(user) = UserRow::find_by_email(&state.db, &req.email).await?
                && user.status != "disabled"
            {
                let ttl = state.config.reset_token_ttl;
                accounts::issue_token_by_email(&state.db, &user.id, TokenKind::ResetPassword, ttl, |token| {
                    let link = state.config.frontend_link(&state.config.frontend_reset_path, "token", token);
                    mail::reset_email(&user.email, &user.first_name, &link, ttl)
                })
                .await?;
                state.mailer.wake();
            }
            Ok(())
        });
    }
    Ok(json(StatusCode::OK, StatusMessage::new(MSG_FORGOT)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetPasswordRequest {
    /// The token from the reset e-mail.
    pub token: String,
    /// The new password (12 to 128 characters).
    pub password: String,
}

/// Set a new password with the one-time token of the reset e-mail. Every session of the user
/// is revoked.
#[utoipa::path(post, path = "/api/auth/reset-password", tag = "auth",
    request_body(content = ResetPasswordRequest, example = crate::routes::examples::reset_password),
    responses(
        (status = 200, description = "Password changed; all sessions revoked", body = StatusMessage),
        (status = 400, description = "`RESET_TOKEN_INVALID`: unknown, used or expired token", body = ErrorBody),
        (status = 404, description = "`USER_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Password rules not met or invalid body", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<ResetPasswordRequest>,
) -> ApiResult<axum::response::Response> {
    state.limiter.check_scope("reset", &ip, None).await?;
    let invalid = || ApiError::bad_request("RESET_TOKEN_INVALID", MSG_RESET_INVALID);
    let token = req.token.trim();
    if token.is_empty() || token.len() > 256 {
        return Err(invalid());
    }
    check_password_rules(&req.password)?;
    let hash = state.passwords.hash(&req.password).await?;
    let (user_id, revoked) = match accounts::reset_password(&state.db, token, &hash).await? {
        (TokenUse::Done(id), revoked) => (id, revoked),
        (TokenUse::Invalid, _) => return Err(invalid()),
        (TokenUse::UserGone, _) => {
            return Err(ApiError::not_found("USER_NOT_FOUND", MSG_USER_NOT_FOUND));
        }
    };
    tracing::info!(user_id = %user_id, revoked_sessions = revoked, "password reset");
    Ok(json(
        StatusCode::OK,
        StatusMessage::new(
            "Contraseña restablecida correctamente. Inicia sesión con tu nueva contraseña",
        ),
    ))
}
