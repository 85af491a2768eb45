//! The domain: one module per area, each owning its rows, views, rules and SQL. Modules here
//! use the database, their one error type (`error`: no HTTP status, `http::error` maps it),
//! the small leaves `http::paging` and `http::text` and each other, never the application
//! state or the routes.

pub mod accounts;
pub mod api_keys;
pub mod agencies;
pub mod agents;
pub mod buyers;
pub mod document_reads;
pub mod documents;
pub mod error;
pub mod leads;
pub mod matching;
pub mod oidc;
pub mod properties;
pub mod reviews;
pub mod users;
pub mod verification;
