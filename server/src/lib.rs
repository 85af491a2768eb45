//! Reference HTTP server of the real-estate platform API.
//!
//! See `server/ARCHITECTURE.md` for the extension points (error type, state, `AuthUser`,
//! migrations, routes, test harness) and `server/README.md` for running it.

pub mod accounts;
pub mod agents;
pub mod app;
pub mod buyers;
pub mod cli;
pub mod config;
pub mod db;
pub mod error;
pub mod extract;
pub mod leads;
pub mod mail;
pub mod matching;
pub mod metrics;
pub mod models;
pub mod oidc;
pub mod ratelimit;
pub mod routes;
pub mod security;
pub mod seed;
pub mod state;
pub mod telemetry;
pub mod web;

pub use app::Application;
pub use config::Config;
pub use error::{ApiError, ApiResult};
pub use extract::{ApiJson, ApiPath, ApiQuery, AuthUser};
pub use state::AppState;
