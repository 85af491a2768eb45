//! The HTTP layer: what every route shares and nothing domain-specific.
//!
//! - [`error`]: the one error type, [`ApiError`], and its JSON envelope (also for sqlx and
//!   score-core errors);
//! - [`envelope`]: the success envelopes of spec 4;
//! - [`paging`]: `page`/`limit` and the `pagination` object;
//! - [`text`]: checks of the texts a request brings;
//! - [`extract`]: body, query and path extractors that answer with the envelope, the client
//!   address, the authenticated caller and the caller of a score endpoint (API key or address).
//!
//! Only [`extract`] reads the application state (to check a bearer token); the other four are
//! leaves that the domain modules use too.

pub mod connection;
pub mod envelope;
pub mod error;
pub mod extract;
pub mod paging;
pub mod text;
pub mod upload;

pub use envelope::{DataResponse, StatusMessage, SuccessMessage, SuccessResponse};
pub use error::{ApiError, ApiResult, ErrorBody};
pub use extract::{ApiJson, ApiPath, ApiQuery, AuthUser, ClientIp, JsonContentType, ScoreClient};
pub use paging::{Pagination, Paging};
