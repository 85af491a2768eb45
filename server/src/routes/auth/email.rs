//! `GET /api/auth/verify-email` and `POST /api/auth/resend-verification`.

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    domain::accounts::{self, TokenUse},
    domain::users::{UserRow, VerifiedUser},
    http::envelope::json_with as json,
    http::error::{ApiError, ApiResult},
    http::{ApiJson, ApiQuery, ClientIp, ErrorBody, StatusMessage},
    state::AppState,
};

use super::{
    messages::{MSG_RESEND, MSG_USER_NOT_FOUND, MSG_VERIFY_INVALID, MSG_VERIFY_REQUIRED},
    register::send_verification,
};

#[derive(Debug, Deserialize, IntoParams)]
pub struct VerifyQuery {
    /// The token from the verification e-mail.
    pub token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerifyResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub message: String,
    pub user: VerifiedUser,
}

/// Verify the e-mail address with the one-time token of the verification e-mail.
#[utoipa::path(get, path = "/api/auth/verify-email", tag = "auth",
    params(VerifyQuery),
    responses(
        (status = 200, description = "Verified; the account is active", body = VerifyResponse),
        (status = 400, description = "`VERIFICATION_TOKEN_REQUIRED` (Token de verificación requerido) or `VERIFICATION_TOKEN_INVALID` (Token de verificación inválido o expirado)", body = ErrorBody),
        (status = 404, description = "`USER_NOT_FOUND` (Usuario no encontrado)", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn verify_email(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiQuery(q): ApiQuery<VerifyQuery>,
) -> ApiResult<axum::response::Response> {
    state.limiter.check_scope("verify", &ip, None).await?;
    let token = q.token.map(|t| t.trim().to_string()).unwrap_or_default();
    if token.is_empty() {
        return Err(ApiError::bad_request(
            "VERIFICATION_TOKEN_REQUIRED",
            MSG_VERIFY_REQUIRED,
        ));
    }
    let invalid = || ApiError::bad_request("VERIFICATION_TOKEN_INVALID", MSG_VERIFY_INVALID);
    if token.len() > 256 {
        return Err(invalid());
    }
    let user_id = match accounts::verify_email(&state.db, &token).await? {
        TokenUse::Done(id) => id,
        TokenUse::Invalid => return Err(invalid()),
        TokenUse::UserGone => {
            return Err(ApiError::not_found("USER_NOT_FOUND", MSG_USER_NOT_FOUND));
        }
    };
    let user = UserRow::find_by_id(&state.db, &user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("USER_NOT_FOUND", MSG_USER_NOT_FOUND))?;
    tracing::info!(user_id = %user.id, "e-mail verified");
    Ok(json(
        StatusCode::OK,
        VerifyResponse {
            status: "success",
            message: "Correo electrónico verificado correctamente".into(),
            user: user.verification_view(),
        },
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EmailRequest {
    #[schema(example = "ana@example.com")]
    pub email: String,
}

/// Send a new verification e-mail (the previous link stops working). The answer is the same
/// whether or not the address exists or is already verified.
#[utoipa::path(post, path = "/api/auth/resend-verification", tag = "auth",
    request_body(content = EmailRequest, example = crate::routes::examples::email),
    responses(
        (status = 200, description = "Accepted (same answer for every address)", body = StatusMessage),
        (status = 422, description = "Invalid body", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn resend_verification(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<EmailRequest>,
) -> ApiResult<axum::response::Response> {
    state.limiter.check_scope("resend", &ip, Some(&req.email)).await?;
    if accounts::is_valid_email(&req.email) {
        off_the_request_path("resend-verification", async move {
            if let Some(user) = UserRow::find_by_email(&state.db, &req.email).await?
                && user.status == "pending"
            {
                send_verification(&state, &user).await?;
            }
            Ok(())
        });
    }
    Ok(json(StatusCode::OK, StatusMessage::new(MSG_RESEND)))
}

/// Runs the lookup and the e-mail of forgot-password and resend-verification after the answer:
/// the request then takes the same time whether or not the address has an account (the body
/// is the same too), so neither reveals which addresses are registered. A failure is logged.
pub(super) fn off_the_request_path(
    what: &'static str,
    work: impl std::future::Future<Output = ApiResult<()>> + Send + 'static,
) {
    tokio::spawn(async move {
        if let Err(e) = work.await {
            tracing::error!(operation = what, error = %e, "background account e-mail failed");
        }
    });
}
