//! Reviews of agents: any authenticated user except the agent itself, one review per user and
//! agent (a second POST replaces it).

use axum::{extract::State, http::StatusCode, response::Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        agents::{self, round2},
        reviews::{self, ReviewView},
    },
    http::{
        ApiJson, ApiPath, AuthUser, ErrorBody, SuccessMessage,
        envelope::json_with,
        error::{ApiError, ApiResult},
        text::optional_text_ml,
    },
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(review_agent))
}

/// Body of a review.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewRequest {
    /// Integer 1 to 5.
    pub rating: i64,
    /// At most 2000 characters.
    #[serde(default)]
    pub comment: Option<String>,
}

/// `agent` block of the review response.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentRating {
    pub id: String,
    pub rating: f64,
    pub reviews_count: i64,
}

/// `data` of the review response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewData {
    pub review: ReviewView,
    pub agent: AgentRating,
}

/// Reviews an agent (one review per user and agent; a second one replaces it).
#[utoipa::path(post, path = "/api/agents/{id}/reviews", tag = "agents",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Agent id")),
    request_body(content = ReviewRequest, example = crate::routes::examples::review),
    description = "Any authenticated user except the agent itself (403 `SELF_REVIEW`). One review \
        per user and agent (database constraint): the first POST creates it (201), later ones \
        replace its rating and comment (200). The agent's `rating` (average, 0..5) and \
        `reviewsCount` are recomputed in the same transaction, with the agent row locked.",
    responses(
        (status = 201, description = "Review created", body = SuccessMessage<ReviewData>),
        (status = 200, description = "Review updated", body = SuccessMessage<ReviewData>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`SELF_REVIEW`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "rating not 1..5, comment too long", body = ErrorBody),
    ))]
pub async fn review_agent(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<ReviewRequest>,
) -> ApiResult<Response> {
    if !(1..=5).contains(&req.rating) {
        return Err(
            ApiError::validation("La calificación debe ser un entero de 1 a 5").with("field", "rating")
        );
    }
    let comment = optional_text_ml(req.comment, "comment", 2000, true)?;
    let agent = agents::find_agent(&state.db, &id).await?;
    if agent.user_id == auth.user_id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "SELF_REVIEW",
            "No puedes calificarte a ti mismo",
        ));
    }
    let saved = reviews::upsert(&state.db, &agent.id, &auth.user_id, req.rating, comment)
        .await?
        .ok_or_else(agents::agent_not_found)?;
    let (status, message) = if saved.created {
        (StatusCode::CREATED, "Reseña registrada")
    } else {
        (StatusCode::OK, "Reseña actualizada")
    };
    Ok(json_with(
        status,
        SuccessMessage::new(
            message,
            ReviewData {
                review: saved.review,
                agent: AgentRating {
                    id: agent.id,
                    rating: round2(saved.rating),
                    reviews_count: saved.reviews_count,
                },
            },
        ),
    ))
}

