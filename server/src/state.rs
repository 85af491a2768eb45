//! Shared application state, cloned into every handler.

use std::{ops::Deref, sync::Arc};

use crate::{
    config::Config,
    db::Db,
    domain::{buyers::ProfileWriter, oidc::OidcState},
    mail::Mailer,
    metrics::Metrics,
    ratelimit::RateLimiter,
    reader::DocumentReader,
    security::{JwtService, PasswordService},
};

/// Handlers and middleware receive a clone of the state on every request, so it is one `Arc`:
/// a clone is one atomic increment instead of one per service (measured: cloning and dropping
/// the flat struct was about 5% of the server's time under load).
#[derive(Clone, Debug)]
pub struct AppState(Arc<Services>);

impl AppState {
    pub fn new(services: Services) -> AppState {
        AppState(Arc::new(services))
    }
}

impl Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

/// The services every request may use.
#[derive(Debug)]
pub struct Services {
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
    /// The pool that reads printed documents off the request path.
    pub reader: DocumentReader,
}
