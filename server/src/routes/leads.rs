//! `GET /api/agent/leads`: the buyers who documented interest in the authenticated agent's
//! properties (phase 3 of the score area; see `crate::domain::leads`).

use axum::extract::State;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        leads::{self, AgentLeads},
        users::Role,
    },
    http::{ApiQuery, ApiResult, AuthUser, DataResponse, ErrorBody, Paging},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(agent_leads))
}

/// Query of the agent's leads.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct LeadsQuery {
    /// Page number, default 1.
    pub page: Option<i64>,
    /// Page size, default 10, at most 100.
    pub limit: Option<i64>,
    /// Only the leads of this property.
    pub property_id: Option<String>,
}

/// The authenticated agent's leads, most recently updated first, with the contact data the
/// buyers agreed to share with this agent. Role `agent` only; an agent sees only leads of
/// interest documented in its own listings.
#[utoipa::path(get, path = "/api/agent/leads", tag = "agents",
    params(LeadsQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of leads", body = DataResponse<AgentLeads>),
        (status = 400, description = "Bad paging (`INVALID_PAGINATION`) or query (`INVALID_QUERY`)", body = ErrorBody),
        (status = 401, description = "No or invalid token", body = ErrorBody),
        (status = 403, description = "Not an agent (`FORBIDDEN`)", body = ErrorBody),
        (status = 404, description = "No agent profile (`AGENT_NOT_FOUND`)", body = ErrorBody),
    ))]
pub async fn agent_leads(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiQuery(q): ApiQuery<LeadsQuery>,
) -> ApiResult<axum::Json<DataResponse<AgentLeads>>> {
    auth.require_role(&[Role::Agent])?;
    let paging = Paging::new(q.page, q.limit)?;
    let data = leads::of_agent(&state.db, &auth.user_id, q.property_id.as_deref(), paging).await?;
    Ok(axum::Json(DataResponse::new(data)))
}
