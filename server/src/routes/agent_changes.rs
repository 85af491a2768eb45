//! Changes to an agent by the people who manage it: assignment to an office, update and
//! delete (spec 4.2, rules 3 and 4). Who may do what is documented on each handler.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        agencies::{self, AgencyRef},
        agents::{
            self, AgentView, manages_agent,
            profile::{self, ProfileData, ProfileFields},
        },
        users::Role,
    },
    http::{
        ApiJson, ApiPath, AuthUser, ErrorBody, SuccessMessage,
        error::{ApiError, ApiResult},
        text::{optional_text, patch, required_text},
    },
    state::AppState,
};

/// `PUT` and `DELETE /api/agents/{id}` share their path with the public detail (`GET`), which
/// is registered in `routes::agents`: axum merges the methods of one path.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(update_agent, delete_agent))
        .routes(routes!(assign_agency))
}

// ------------------------------------------------------------------------- assign

/// Body of assign-agency.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignRequest {
    /// Target office, or null to unassign. Required.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub agency_id: Option<Option<String>>,
}

/// `data` of assign-agency.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignData {
    pub id: String,
    pub agency_id: Option<String>,
    pub agency: Option<AgencyRef>,
}

/// Assigns, moves or unassigns an agent (rule 3).
#[utoipa::path(put, path = "/api/agents/{id}/assign-agency", tag = "agents",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Agent id")),
    request_body(content = AssignRequest, example = crate::routes::examples::assign_agency),
    description = "Role `agency_admin` or `admin`. The caller must manage the agent's current \
        office (if any) and the target office (if not null); a co-admin moving an agent to or \
        from an office they do not administer gets 403. An unassigned agent can be claimed by \
        any manager of the target office (the spec's rule 3). The change is a compare-and-set \
        on the office checked: if the agent was moved meanwhile, 409 `AGENT_MOVED`.",
    responses(
        (status = 200, description = "Assigned", body = SuccessMessage<AssignData>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`, `AGENCY_NOT_FOUND`", body = ErrorBody),
        (status = 409, description = "`AGENT_MOVED`", body = ErrorBody),
        (status = 422, description = "`agencyId` missing", body = ErrorBody),
    ))]
pub async fn assign_agency(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<AssignRequest>,
) -> ApiResult<axum::Json<SuccessMessage<AssignData>>> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let Some(target) = req.agency_id else {
        return Err(ApiError::validation("El campo agencyId es obligatorio (puede ser null)")
            .with("field", "agencyId"));
    };
    let agent = agents::find_agent(&state.db, &id).await?;
    let target = match target.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(t) => Some(agencies::find_agency(&state.db, t).await?),
        None => None,
    };
    if let Some(current) = &agent.agency_id
        && !agencies::manages(&state.db, auth.caller(), current).await?
    {
        return Err(ApiError::forbidden());
    }
    if let Some(t) = &target
        && !agencies::manages(&state.db, auth.caller(), &t.id).await?
    {
        return Err(ApiError::forbidden());
    }
    if agent.agency_id.is_none() && target.is_none() && auth.role != Role::Admin {
        return Err(ApiError::forbidden());
    }
    let new_id = target.as_ref().map(|t| t.id.clone());
    agents::assign(&state.db, &agent, new_id.as_deref()).await?;
    let message = if target.is_some() {
        "Agente asignado a la oficina"
    } else {
        "Agente desasignado de su oficina"
    };
    Ok(axum::Json(SuccessMessage::new(
        message,
        AssignData {
            id: agent.id,
            agency_id: new_id,
            agency: target.map(|t| AgencyRef {
                id: t.id,
                name: t.name,
            }),
        },
    )))
}

// ------------------------------------------------------------------------- update

/// Body of the agent update: user fields, then the profile fields of spec 2.2.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateAgentRequest {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The user's phone; null clears it.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub phone: Option<Option<String>>,
    /// Not accepted here (422): use `PUT /api/agents/{id}/assign-agency`.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub agency_id: Option<Option<serde_json::Value>>,
    #[serde(flatten)]
    pub profile: ProfileFields,
}

/// Updates an agent.
#[utoipa::path(put, path = "/api/agents/{id}", tag = "agents",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Agent id")),
    request_body(content = UpdateAgentRequest, example = crate::routes::examples::update_agent),
    description = "Who: the platform admin and the managers of the agent's office (every field), \
        and the agent itself (its user and profile fields, but not `isActive` or `externalId`: \
        403). Absent fields are kept; null or empty clears an optional field. `agencyId` is \
        rejected (use assign-agency); the e-mail cannot be changed here. A taken `externalId` \
        gives 400 `EXTERNAL_ID_ALREADY_EXISTS`.",
    responses(
        (status = 200, description = "The updated agent", body = SuccessMessage<AgentView>),
        (status = 400, description = "`EXTERNAL_ID_ALREADY_EXISTS`", body = ErrorBody),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn update_agent(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<UpdateAgentRequest>,
) -> ApiResult<axum::Json<SuccessMessage<AgentView>>> {
    let agent = agents::find_agent(&state.db, &id).await?;
    let manager = manages_agent(&state.db, auth.caller(), agent.agency_id.as_deref()).await?;
    let own = agent.user_id == auth.user_id;
    if !manager && !own {
        return Err(ApiError::forbidden());
    }
    if !manager && (req.profile.is_active.is_some() || req.profile.external_id.is_some()) {
        return Err(ApiError::forbidden()
            .with("detail", "El agente no puede cambiar isActive ni externalId"));
    }
    if req.agency_id.is_some() {
        return Err(ApiError::validation(
            "Para cambiar la oficina usa PUT /api/agents/{id}/assign-agency",
        )
        .with("field", "agencyId"));
    }
    let first_name = match &req.first_name {
        Some(v) => required_text(v, "firstName", 100)?,
        None => agent.first_name.clone(),
    };
    let last_name = match &req.last_name {
        Some(v) => required_text(v, "lastName", 100)?,
        None => agent.last_name.clone(),
    };
    let phone = match req.phone {
        Some(v) => optional_text(v, "phone", 30)?,
        None => agent.user_phone.clone(),
    };
    let mut p = ProfileData::of_row(&agent);
    p.apply(req.profile)?;
    profile::update(&state.db, &agent, &first_name, &last_name, phone.as_deref(), &p).await?;
    let updated = agents::find_agent(&state.db, &agent.id).await?;
    Ok(axum::Json(SuccessMessage::new(
        "Agente actualizado correctamente",
        updated.view(),
    )))
}

// ------------------------------------------------------------------------- delete

/// `data` of the delete.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedAgent {
    pub id: String,
    /// Properties kept with `agentId: null`.
    pub properties_kept: i64,
}

/// Deletes an agent (rule 4).
#[utoipa::path(delete, path = "/api/agents/{id}", tag = "agents",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Agent id")),
    description = "Who: the platform admin and the managers of the agent's office (not the agent \
        itself). In one transaction: the agent's properties are kept with `agentId: null`, the \
        profile, the reviews about the agent and the agent's user account (with its sessions and \
        its reviews of other agents, whose ratings are recomputed) are removed.",
    responses(
        (status = 200, description = "Deleted", body = SuccessMessage<DeletedAgent>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn delete_agent(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<SuccessMessage<DeletedAgent>>> {
    let agent = agents::find_agent(&state.db, &id).await?;
    if !manages_agent(&state.db, auth.caller(), agent.agency_id.as_deref()).await? {
        return Err(ApiError::forbidden());
    }
    let kept = agents::delete(&state.db, &agent).await?;
    Ok(axum::Json(SuccessMessage::new(
        "Agente eliminado correctamente",
        DeletedAgent {
            id: agent.id,
            properties_kept: kept as i64,
        },
    )))
}

