//! Accounts and authentication (spec 3, 4.1, 5, 7): `/api/auth/*`, a file per flow.
//!
//! - `register.rs`: registration and the verification e-mail it queues;
//! - `session.rs`: login, the current user (`me`) and logout;
//! - `profile.rs`: the signed-in user's own fields;
//! - `email.rs`: the verification link and sending it again;
//! - `password.rs`: forgot-password and reset;
//! - `fields.rs`: the checks of the account texts these share.
//!
//! The rules and the SQL are `crate::domain::accounts`'; these files parse, call and answer.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{http::error::ApiResult, state::AppState};

mod email;
mod fields;
mod password;
mod profile;
mod register;
mod session;

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
        .routes(routes!(register::register))
        .routes(routes!(session::login))
        .routes(routes!(session::me))
        .routes(routes!(profile::update_profile))
        .routes(routes!(session::logout))
        .routes(routes!(email::verify_email))
        .routes(routes!(email::resend_verification))
        .routes(routes!(password::forgot_password))
        .routes(routes!(password::reset_password))
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
