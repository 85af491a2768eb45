//! The success envelopes of the API (spec 4). Errors have their own, [`super::error::ErrorBody`].
//!
//! | shape                                   | type                | used by                         |
//! |-----------------------------------------|---------------------|---------------------------------|
//! | `{status: "success", data}`             | [`DataResponse`]    | auth, score, leads, my-agency   |
//! | `{status: "success", message}`          | [`StatusMessage`]   | auth writes without data        |
//! | `{success: true, data}`                 | [`SuccessResponse`] | reads of agents, offices, listings |
//! | `{success: true, message, data}`        | [`SuccessMessage`]  | writes of agents, offices, listings |

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;

/// `{status: "success", data}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataResponse<T> {
    #[schema(example = "success")]
    pub status: &'static str,
    pub data: T,
}

impl<T> DataResponse<T> {
    pub fn new(data: T) -> Self {
        Self {
            status: "success",
            data,
        }
    }
}

/// `{status: "success", message}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatusMessage {
    #[schema(example = "success")]
    pub status: &'static str,
    pub message: String,
}

impl StatusMessage {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            status: "success",
            message: message.into(),
        }
    }
}

/// `{"success": true, "data": ...}`: the envelope of the public agent endpoints (spec 4),
/// used by the whole agents area for reads.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuccessResponse<T> {
    /// Always `true`.
    pub success: bool,
    pub data: T,
}

impl<T> SuccessResponse<T> {
    pub fn new(data: T) -> Self {
        SuccessResponse {
            success: true,
            data,
        }
    }
}

/// `{"success": true, "message": ..., "data": ...}`: writes of the agents area other than
/// agent creation.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuccessMessage<T> {
    /// Always `true`.
    pub success: bool,
    pub message: String,
    pub data: T,
}

impl<T> SuccessMessage<T> {
    pub fn new(message: &str, data: T) -> Self {
        SuccessMessage {
            success: true,
            message: message.to_string(),
            data,
        }
    }
}

// ------------------------------------------------------------------------- input helpers

/// A JSON body with a status other than 200.
pub fn json_with<T: Serialize>(status: StatusCode, body: T) -> Response {
    (status, axum::Json(body)).into_response()
}
