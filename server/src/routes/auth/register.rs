//! `POST /api/auth/register` and the verification e-mail of a new account.

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    domain::accounts::{self, NewUser, TokenKind},
    domain::users::{Role, UserRow},
    http::envelope::json_with as json,
    http::error::{ApiError, ApiResult},
    http::{ApiJson, ClientIp, ErrorBody},
    mail,
    security::check_password_rules,
    state::AppState,
};

use super::{
    fields::{optional_text, required_text, valid_email},
    messages::{MSG_REGISTERED, MSG_TERMS},
};

/// Registration body. Every field is checked by the server; `role` may not be `admin`, and
/// fields such as `status` or `emailVerified` are ignored.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    #[schema(example = "ana@example.com")]
    pub email: Option<String>,
    /// 12 to 128 characters.
    pub password: Option<String>,
    pub phone: Option<String>,
    /// One of `agency_admin`, `agent`, `broker`, `developer`, `comprador`.
    #[schema(example = "comprador")]
    pub role: Option<String>,
    /// Must be `true`.
    pub accepted_terms: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub message: String,
    pub requires_email_verification: bool,
    /// The verification e-mail was queued for delivery.
    pub email_sent: bool,
    pub email: String,
    pub redirect_to_login: bool,
}

/// Register a new account (status `pending`); a verification e-mail is sent. No token.
///
/// When the e-mail is already registered the response is the same (no account enumeration)
/// and the owner of the address gets a notice instead.
#[utoipa::path(post, path = "/api/auth/register", tag = "auth",
    request_body(content = RegisterRequest, example = crate::routes::examples::register),
    responses(
        (status = 201, description = "Registered; verification e-mail sent", body = RegisterResponse),
        (status = 422, description = "Terms not accepted (`TERMS_NOT_ACCEPTED`) or invalid data (`VALIDATION_ERROR`, `INVALID_ROLE`)", body = ErrorBody),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<RegisterRequest>,
) -> ApiResult<axum::response::Response> {
    state
        .limiter
        .check_scope("register", &ip, req.email.as_deref()).await?;
    if req.accepted_terms != Some(true) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "TERMS_NOT_ACCEPTED",
            MSG_TERMS,
        ));
    }
    let first_name = required_text(req.first_name, "firstName", "firstName", 100)?;
    let last_name = required_text(req.last_name, "lastName", "lastName", 100)?;
    let email = valid_email(req.email)?;
    let password = req.password.unwrap_or_default();
    check_password_rules(&password)?;
    let phone = optional_text(req.phone, "phone", "phone", 30)?;
    let role = req
        .role
        .as_deref()
        .and_then(Role::parse)
        .filter(|r| Role::SELF_REGISTRABLE.contains(r))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "INVALID_ROLE",
                "Rol inválido. Valores permitidos: agency_admin, agent, broker, developer, comprador",
            )
            .with("field", "role")
        })?;
    let password_hash = state.passwords.hash(&password).await?;
    let new = NewUser {
        email: email.clone(),
        password_hash: Some(password_hash),
        first_name,
        last_name,
        phone,
        company_name: None,
        role,
        verified: false,
    };
    // The account, its verification token and the e-mail commit together (durable outbox).
    let ttl = state.config.verification_token_ttl;
    let created = accounts::register(&state.db, &new, ttl, |user, token| verification_email(&state, user, token)).await?;
    if created.is_some() {
        state.mailer.wake();
    } else if let Some(existing) = UserRow::find_by_email(&state.db, &email).await? {
        if existing.status == "pending" {
            send_verification(&state, &existing).await?;
        } else {
            let login = state.config.frontend_link("/login", "email", &existing.email);
            state
                .mailer
                .send(&mail::account_exists_email(&existing.email, &existing.first_name, &login))
                .await?;
        }
        tracing::info!("registration attempted for an existing e-mail");
    }
    Ok(json(
        StatusCode::CREATED,
        RegisterResponse {
            status: "success",
            message: MSG_REGISTERED.into(),
            requires_email_verification: true,
            email_sent: true,
            email,
            redirect_to_login: true,
        },
    ))
}

/// A new verification token for `user` and its e-mail, committed together.
pub(super) async fn send_verification(state: &AppState, user: &UserRow) -> ApiResult<()> {
    let ttl = state.config.verification_token_ttl;
    accounts::issue_token_by_email(&state.db, &user.id, TokenKind::VerifyEmail, ttl, |token| {
        verification_email(state, user, token)
    })
    .await?;
    state.mailer.wake();
    Ok(())
}

/// The verification e-mail of `user` carrying `token`.
fn verification_email(state: &AppState, user: &UserRow, token: &str) -> mail::Email {
    let link = state.config.frontend_link(&state.config.frontend_verify_path, "token", token);
    mail::verification_email(&user.email, &user.first_name, &link, state.config.verification_token_ttl)
}
