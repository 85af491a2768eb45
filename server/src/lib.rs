//! Reference HTTP server of the real-estate platform API.
//!
//! See `server/ARCHITECTURE.md` for the extension points (error type, state, `AuthUser`,
//! migrations, routes, test harness) and `server/README.md` for running it.

pub mod app;
pub mod cli;
pub mod config;
pub mod db;
pub mod domain;
pub mod files;
pub mod http;
pub mod mail;
pub mod metrics;
pub mod ratelimit;
pub mod reader;
pub mod routes;
pub mod security;
pub mod seed;
pub mod state;
pub mod telemetry;
pub mod web;

pub use app::Application;
pub use config::Config;
pub use domain::users::Role;
pub use http::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult, AuthUser};
pub use state::AppState;
