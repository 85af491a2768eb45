//! Accounts and authentication (spec 3, 4.1, 5, 7): `/api/auth/*`, a file per flow.
//!
//! - `register.rs`: registration and the verification e-mail it queues;
//! - `session.rs`: login, the current user (`me`) and logout;
//! - `profile.rs`: the signed-in user's own fields;
//! - `email.rs`: the verification link and sending it again;
//! - `password.rs`: forgot-password and reset;
//! - `fields.rs`: the checks of the account texts these share;
//! - `messages.rs`: the answers several flows share.
//!
//! The rules and the SQL are `crate::domain::accounts`'; these files parse, call and answer.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::state::AppState;

mod email;
mod fields;
mod messages;
mod password;
mod profile;
mod register;
mod session;

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

