//! Accounts and authentication (spec 3, 4.1, 5, 7).

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        accounts::{self, CreateUserError, LoginData, NewUser, TokenKind, TokenUse},
        agents,
        users::{Role, UserProfile, UserRow, VerifiedUser, normalize_email},
    },
    http::{
        ApiJson, ApiQuery, AuthUser, ClientIp, DataResponse, ErrorBody, StatusMessage,
        envelope::json_with as json,
        error::{ApiError, ApiResult},
        extract::token_invalid,
        text::has_forbidden_char,
    },
    mail,
    security::check_password_rules,
    state::AppState,
};

pub const MSG_TERMS: &str = "Debes aceptar los Términos y Condiciones y el Aviso de Privacidad";
pub const MSG_VERIFY_REQUIRED: &str = "Token de verificación requerido";
pub const MSG_VERIFY_INVALID: &str = "Token de verificación inválido o expirado";
pub const MSG_USER_NOT_FOUND: &str = "Usuario no encontrado";
pub const MSG_INVALID_CREDENTIALS: &str = "Correo electrónico o contraseña incorrectos";
pub const MSG_EMAIL_NOT_VERIFIED: &str =
    "Debes verificar tu correo electrónico antes de iniciar sesión";
pub const MSG_REGISTERED: &str =
    "Registro exitoso. Revisa tu correo electrónico para verificar tu cuenta";
pub const MSG_RESEND: &str = "Si la cuenta existe y está pendiente de verificación, \
    recibirás un nuevo correo de verificación";
pub const MSG_FORGOT: &str =
    "Si el correo está registrado, recibirás un enlace para restablecer tu contraseña";
pub const MSG_RESET_INVALID: &str = "Token de restablecimiento inválido o expirado";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(me))
        .routes(routes!(update_profile))
        .routes(routes!(logout))
        .routes(routes!(verify_email))
        .routes(routes!(resend_verification))
        .routes(routes!(forgot_password))
        .routes(routes!(reset_password))
}

// ---------------------------------------------------------------- register

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

fn required_text(v: Option<String>, field: &str, label: &str, max: usize) -> ApiResult<String> {
    let v = v.map(|s| s.trim().to_string()).unwrap_or_default();
    if v.is_empty() {
        return Err(
            ApiError::validation(format!("El campo {label} es obligatorio")).with("field", field),
        );
    }
    if v.chars().count() > max {
        return Err(ApiError::validation(format!(
            "El campo {label} admite como máximo {max} caracteres"
        ))
        .with("field", field));
    }
    if has_forbidden_char(&v, false) {
        return Err(forbidden_chars(field, label));
    }
    Ok(v)
}

fn optional_text(
    v: Option<String>,
    field: &str,
    label: &str,
    max: usize,
) -> ApiResult<Option<String>> {
    match v.map(|s| s.trim().to_string()) {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) if s.chars().count() > max => Err(ApiError::validation(format!(
            "El campo {label} admite como máximo {max} caracteres"
        ))
        .with("field", field)),
        Some(s) if has_forbidden_char(&s, false) => Err(forbidden_chars(field, label)),
        Some(s) => Ok(Some(s)),
    }
}

fn forbidden_chars(field: &str, label: &str) -> ApiError {
    ApiError::validation(format!("El campo {label} contiene caracteres no permitidos"))
        .with("field", field)
}

fn valid_email(v: Option<String>) -> ApiResult<String> {
    let email = required_text(v, "email", "email", 254)?;
    if !accounts::is_valid_email(&email) {
        return Err(
            ApiError::validation("El correo electrónico no es válido").with("field", "email")
        );
    }
    Ok(normalize_email(&email))
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
        .check_scope("register", &ip, req.email.as_deref())?;
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
    let mut tx = state.db.begin().await?;
    match accounts::create_user(&mut *tx, &new).await {
        Ok(user) => {
            queue_verification(&state, &mut tx, &user).await?;
            tx.commit().await?;
            state.mailer.wake();
        }
        Err(CreateUserError::EmailTaken) => {
            // PostgreSQL has aborted the transaction at the unique violation.
            tx.rollback().await?;
            if let Some(existing) = UserRow::find_by_email(&state.db, &email).await? {
                if existing.status == "pending" {
                    send_verification(&state, &existing).await?;
                } else {
                    let login = state
                        .config
                        .frontend_link("/login", "email", &existing.email);
                    state
                        .mailer
                        .send(&mail::account_exists_email(
                            &existing.email,
                            &existing.first_name,
                            &login,
                        ))
                        .await?;
                }
            }
            tracing::info!("registration attempted for an existing e-mail");
        }
        Err(e) => return Err(e.into()),
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
async fn send_verification(state: &AppState, user: &UserRow) -> ApiResult<()> {
    let mut tx = state.db.begin().await?;
    queue_verification(state, &mut tx, user).await?;
    tx.commit().await?;
    state.mailer.wake();
    Ok(())
}

/// Issues a verification token for `user` and queues its e-mail on `conn` (a transaction).
async fn queue_verification(
    state: &AppState,
    conn: &mut sqlx::AnyConnection,
    user: &UserRow,
) -> ApiResult<()> {
    let ttl = state.config.verification_token_ttl;
    let token =
        accounts::issue_one_time_token_in(&mut *conn, &user.id, TokenKind::VerifyEmail, ttl).await?;
    let link = state
        .config
        .frontend_link(&state.config.frontend_verify_path, "token", &token);
    let email = mail::verification_email(&user.email, &user.first_name, &link, ttl);
    mail::outbox::enqueue(&mut *conn, &email).await?;
    Ok(())
}

// ---------------------------------------------------------------- login

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
    state.limiter.check_scope("login", &ip, Some(&req.email))?;
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
    let data = accounts::start_session(&state.db, &state.jwt, state.config.access_token_ttl, &user, "password").await?;
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

/// Profile update. Only these four fields can change; an empty string clears `phone` or
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

// ---------------------------------------------------------------- verification

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
    state.limiter.check_scope("verify", &ip, None)?;
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
        TokenUse::UserGone => return Err(ApiError::not_found("USER_NOT_FOUND", MSG_USER_NOT_FOUND)),
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
    state.limiter.check_scope("resend", &ip, Some(&req.email))?;
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

// ---------------------------------------------------------------- password recovery

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
    state.limiter.check_scope("forgot", &ip, Some(&req.email))?;
    if accounts::is_valid_email(&req.email) {
        off_the_request_path("forgot-password", async move {
            if let Some(user) = UserRow::find_by_email(&state.db, &req.email).await?
                && user.status != "disabled"
            {
                let ttl = state.config.reset_token_ttl;
                let mut tx = state.db.begin().await?;
                let token =
                    accounts::issue_one_time_token_in(&mut tx, &user.id, TokenKind::ResetPassword, ttl)
                        .await?;
                let link = state
                    .config
                    .frontend_link(&state.config.frontend_reset_path, "token", &token);
                let email = mail::reset_email(&user.email, &user.first_name, &link, ttl);
                mail::outbox::enqueue(&mut *tx, &email).await?;
                tx.commit().await?;
                state.mailer.wake();
            }
            Ok(())
        });
    }
    Ok(json(StatusCode::OK, StatusMessage::new(MSG_FORGOT)))
}

/// Runs the lookup and the e-mail of forgot-password and resend-verification after the answer:
/// the request then takes the same time whether or not the address has an account (the body
/// is the same too), so neither reveals which addresses are registered. A failure is logged.
fn off_the_request_path(
    what: &'static str,
    work: impl std::future::Future<Output = ApiResult<()>> + Send + 'static,
) {
    tokio::spawn(async move {
        if let Err(e) = work.await {
            tracing::error!(operation = what, error = %e, "background account e-mail failed");
        }
    });
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
    state.limiter.check_scope("reset", &ip, None)?;
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
        (TokenUse::UserGone, _) => return Err(ApiError::not_found("USER_NOT_FOUND", MSG_USER_NOT_FOUND)),
    };
    tracing::info!(user_id = %user_id, revoked_sessions = revoked, "password reset");
    Ok(json(
        StatusCode::OK,
        StatusMessage::new(
            "Contraseña restablecida correctamente. Inicia sesión con tu nueva contraseña",
        ),
    ))
}
