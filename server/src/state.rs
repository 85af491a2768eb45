//! Shared application state, cloned into every handler.

use std::sync::Arc;

use crate::{
    buyers::ProfileWriter,
    config::Config,
    db::Db,
    mail::Mailer,
    metrics::Metrics,
    oidc::OidcState,
    ratelimit::RateLimiter,
    security::{JwtService, PasswordService},
};

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub mailer: Mailer,
    pub jwt: Arc<JwtService>,
    pub passwords: PasswordService,
    pub limiter: Arc<RateLimiter>,
    /// Per-IP limiter of the public score endpoints (`SCORE_RATE_LIMIT_PER_MINUTE`).
    pub score_limiter: Arc<RateLimiter>,
    pub metrics: Arc<Metrics>,
    /// Group-committing writer of new buyer profiles (see [`ProfileWriter`]).
    pub profile_writer: ProfileWriter,
    pub oidc: Arc<OidcState>,
}
