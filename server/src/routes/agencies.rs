//! Offices (agencies, spec 2.3): create, list, detail, update, co-admins, the agent-creation
//! endpoints tied to an office and the agents of the offices the caller manages.
//!
//! The spec has no agency endpoints; these are the ones issue 6 asks for. Decisions:
//! - `POST /api/agencies`: role agency_admin or admin; the caller becomes the owner.
//! - A user manages an office when they own it or are one of its co-admins (role agency_admin);
//!   the platform admin manages every office.
//! - Co-admins are added by the owner or the platform admin (the user must have role
//!   agency_admin); removed by the owner, the platform admin or the co-admin themself.
//! - `current` (POST/GET /api/agencies/current/agents): the one office the caller owns; if they
//!   own none, the one office they co-administer. Owning several (or co-administering several
//!   and owning none) is ambiguous: 409 `AGENCY_AMBIGUOUS` with the candidate `agencyIds` (use
//!   `POST /api/agencies/{id}/agents`). No office at all: 403 `NO_AGENCY`. For the listing,
//!   `current` means every office the caller manages.

use axum::{extract::State, http::StatusCode, response::Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        agencies::{self, AgencyBrief, AgencyView, find_agency, manages},
        agents::{self, AgentListItem},
        users::{Role, UserRow},
    },
    http::{
        ApiJson, ApiPath, ApiQuery, AuthUser, ErrorBody, Pagination, Paging, SuccessMessage,
        SuccessResponse,
        envelope::json_with,
        error::{ApiError, ApiResult},
        text::{optional_text, optional_url, patch, required_text},
    },
    routes::agents::{CreateAgentRequest, CreatedAgentResponse, create_in},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_agencies, create_agency))
        .routes(routes!(get_agency, update_agency))
        .routes(routes!(add_admin))
        .routes(routes!(remove_admin))
        .routes(routes!(create_agent_in_agency))
        .routes(routes!(current_agents, create_agent_in_current))
}

/// Body of a new office.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateAgencyRequest {
    pub name: String,
    /// Logo URL.
    pub logo: Option<String>,
    pub city: Option<String>,
}

/// Creates an office owned by the caller.
#[utoipa::path(post, path = "/api/agencies", tag = "agencies",
    security(("bearer" = [])),
    request_body(content = CreateAgencyRequest, example = crate::routes::examples::create_agency),
    description = "Role `agency_admin` or `admin`; the caller becomes the owner.",
    responses(
        (status = 201, description = "Created", body = SuccessMessage<AgencyView>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "Wrong role", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn create_agency(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreateAgencyRequest>,
) -> ApiResult<Response> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let name = required_text(&req.name, "name", 200)?;
    let logo = optional_url(req.logo, "logo")?;
    let city = optional_text(req.city, "city", 100)?;
    let id = agencies::insert(&state.db, &auth.user_id, &name, logo.as_deref(), city.as_deref()).await?;
    let view = agencies::view(&state.db, &id).await?;
    Ok(json_with(StatusCode::CREATED, SuccessMessage::new("Oficina creada", view)))
}

/// Paging query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Default 1.
    pub page: Option<i64>,
    /// Default 10, at most 100.
    pub limit: Option<i64>,
}

/// `data` of the office list.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgencyListData {
    pub agencies: Vec<AgencyView>,
    pub pagination: Pagination,
}

/// Public list of offices, by name.
#[utoipa::path(get, path = "/api/agencies", tag = "agencies",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of offices", body = SuccessResponse<AgencyListData>),
        (status = 400, description = "`INVALID_PAGINATION`", body = ErrorBody),
    ))]
pub async fn list_agencies(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> ApiResult<axum::Json<SuccessResponse<AgencyListData>>> {
    let paging = Paging::new(q.page, q.limit)?;
    let (agencies, pagination) = agencies::page(&state.db, paging).await?;
    Ok(axum::Json(SuccessResponse::new(AgencyListData {
        agencies,
        pagination,
    })))
}

/// Public detail of an office.
#[utoipa::path(get, path = "/api/agencies/{id}", tag = "agencies",
    params(("id" = String, Path, description = "Office id")),
    responses(
        (status = 200, description = "The office", body = SuccessResponse<AgencyView>),
        (status = 404, description = "`AGENCY_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn get_agency(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<SuccessResponse<AgencyView>>> {
    Ok(axum::Json(SuccessResponse::new(agencies::view(&state.db, &id).await?)))
}

/// Changes to an office.
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateAgencyRequest {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub logo: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub city: Option<Option<String>>,
}

/// Updates an office.
#[utoipa::path(put, path = "/api/agencies/{id}", tag = "agencies",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Office id")),
    request_body(content = UpdateAgencyRequest, example = crate::routes::examples::update_agency),
    description = "Managers of the office (owner, co-admins) and the platform admin.",
    responses(
        (status = 200, description = "Updated", body = SuccessMessage<AgencyView>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENCY_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn update_agency(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<UpdateAgencyRequest>,
) -> ApiResult<axum::Json<SuccessMessage<AgencyView>>> {
    let mut agency = find_agency(&state.db, &id).await?;
    if !manages(&state.db, auth.caller(), &agency.id).await? {
        return Err(ApiError::forbidden());
    }
    if let Some(n) = &req.name {
        agency.name = required_text(n, "name", 200)?;
    }
    if let Some(l) = req.logo {
        agency.logo = optional_url(l, "logo")?;
    }
    if let Some(c) = req.city {
        agency.city = optional_text(c, "city", 100)?;
    }
    agencies::update(&state.db, &agency).await?;
    let view = agencies::view(&state.db, &agency.id).await?;
    Ok(axum::Json(SuccessMessage::new("Oficina actualizada", view)))
}

/// Body of add co-admin.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddAdminRequest {
    /// A user with role agency_admin.
    pub user_id: String,
}

/// `{agencyId, userId}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CoAdmin {
    pub agency_id: String,
    pub user_id: String,
}

/// Adds a co-admin to an office.
#[utoipa::path(post, path = "/api/agencies/{id}/admins", tag = "agencies",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Office id")),
    request_body(content = AddAdminRequest, example = crate::routes::examples::add_admin),
    description = "The owner of the office or the platform admin (co-admins cannot add others). \
        The user must have role `agency_admin` (422 `INVALID_ROLE`) and not be the owner.",
    responses(
        (status = 201, description = "Added", body = SuccessMessage<CoAdmin>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENCY_NOT_FOUND`, `USER_NOT_FOUND`", body = ErrorBody),
        (status = 409, description = "`ALREADY_ADMIN`", body = ErrorBody),
        (status = 422, description = "`INVALID_ROLE`", body = ErrorBody),
    ))]
pub async fn add_admin(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<AddAdminRequest>,
) -> ApiResult<Response> {
    let agency = find_agency(&state.db, &id).await?;
    if !(auth.role == Role::Admin || agency.owner_id == auth.user_id) {
        return Err(ApiError::forbidden());
    }
    let user = UserRow::find_by_id(&state.db, req.user_id.trim())
        .await?
        .ok_or_else(|| ApiError::not_found("USER_NOT_FOUND", "Usuario no encontrado"))?;
    if user.role != Role::AgencyAdmin.as_str() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "INVALID_ROLE",
            "El usuario debe tener el rol agency_admin",
        )
        .with("field", "userId"));
    }
    agencies::add_admin(&state.db, &agency, &user.id).await?;
    Ok(json_with(
        StatusCode::CREATED,
        SuccessMessage::new(
            "Co-administrador agregado",
            CoAdmin {
                agency_id: agency.id,
                user_id: user.id,
            },
        ),
    ))
}

/// Removes a co-admin.
#[utoipa::path(delete, path = "/api/agencies/{id}/admins/{userId}", tag = "agencies",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Office id"), ("userId" = String, Path, description = "Co-admin user id")),
    description = "The owner, the platform admin, or the co-admin themself (leaving the office).",
    responses(
        (status = 200, description = "Removed", body = SuccessMessage<CoAdmin>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENCY_NOT_FOUND`, `ADMIN_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn remove_admin(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath((id, user_id)): ApiPath<(String, String)>,
) -> ApiResult<axum::Json<SuccessMessage<CoAdmin>>> {
    let agency = find_agency(&state.db, &id).await?;
    if !(auth.role == Role::Admin || agency.owner_id == auth.user_id || auth.user_id == user_id) {
        return Err(ApiError::forbidden());
    }
    agencies::remove_admin(&state.db, &agency.id, &user_id).await?;
    Ok(axum::Json(SuccessMessage::new(
        "Co-administrador eliminado",
        CoAdmin {
            agency_id: agency.id,
            user_id,
        },
    )))
}

/// Creates an agent in the office `id`.
#[utoipa::path(post, path = "/api/agencies/{id}/agents", tag = "agencies",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Office id")),
    request_body(content = CreateAgentRequest, example = crate::routes::examples::create_agent),
    description = "Managers of the office (owner, co-admins) and the platform admin. Same body \
        and response as `POST /api/agents` (`agencyId` of the body is ignored).",
    responses(
        (status = 201, description = "Created", body = CreatedAgentResponse),
        (status = 400, description = "`EMAIL_ALREADY_EXISTS`, `EXTERNAL_ID_ALREADY_EXISTS`", body = ErrorBody),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENCY_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn create_agent_in_agency(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<CreateAgentRequest>,
) -> ApiResult<Response> {
    let agency = find_agency(&state.db, &id).await?;
    if !manages(&state.db, auth.caller(), &agency.id).await? {
        return Err(ApiError::forbidden());
    }
    create_in(&state, Some(agency), req).await
}

/// Creates an agent in the caller's current office (rule 1).
#[utoipa::path(post, path = "/api/agencies/current/agents", tag = "agencies",
    security(("bearer" = [])),
    request_body(content = CreateAgentRequest, example = crate::routes::examples::create_agent),
    description = "Role `agency_admin`. `current` is the one office the caller owns, or, owning \
        none, the one office they co-administer; several: 409 `AGENCY_AMBIGUOUS` (with \
        `agencyIds`; use `POST /api/agencies/{id}/agents`); none: 403 `NO_AGENCY`.",
    responses(
        (status = 201, description = "Created", body = CreatedAgentResponse),
        (status = 400, description = "`EMAIL_ALREADY_EXISTS`, `EXTERNAL_ID_ALREADY_EXISTS`", body = ErrorBody),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN` (role), `NO_AGENCY`", body = ErrorBody),
        (status = 409, description = "`AGENCY_AMBIGUOUS`", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn create_agent_in_current(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreateAgentRequest>,
) -> ApiResult<Response> {
    auth.require_role(&[Role::AgencyAdmin])?;
    let agency = agencies::current(&state.db, &auth.user_id).await?;
    create_in(&state, Some(agency), req).await
}

/// `data` of the agents of the caller's offices.
#[derive(Debug, Serialize, ToSchema)]
pub struct CurrentAgentsData {
    /// Active and inactive agents, each with `propertiesCount` and `agencyId`.
    pub agents: Vec<AgentListItem>,
    /// The offices of the agents on this page.
    pub agencies: Vec<AgencyBrief>,
    /// Every office the caller owns or co-administers, by name, including offices without
    /// agents (for the platform admin: the ones they own or co-administer themself).
    #[serde(rename = "managedAgencies")]
    #[schema(rename = "managedAgencies")]
    pub managed_agencies: Vec<AgencyBrief>,
    pub pagination: Pagination,
}

/// Agents of every office the caller manages.
#[utoipa::path(get, path = "/api/agencies/current/agents", tag = "agencies",
    security(("bearer" = [])),
    params(PageQuery),
    description = "Role `agency_admin` (agents of every office they own or co-administer) or \
        `admin` (agents of every office). Active and inactive agents, paged like the public list.",
    responses(
        (status = 200, description = "A page of agents", body = SuccessResponse<CurrentAgentsData>),
        (status = 400, description = "`INVALID_PAGINATION`", body = ErrorBody),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "Wrong role", body = ErrorBody),
    ))]
pub async fn current_agents(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> ApiResult<axum::Json<SuccessResponse<CurrentAgentsData>>> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let paging = Paging::new(q.page, q.limit)?;
    let (rows, pagination) = agents::page_of_managed(&state.db, auth.caller(), paging).await?;
    Ok(axum::Json(SuccessResponse::new(CurrentAgentsData {
        agents: rows.iter().map(|r| r.list_item()).collect(),
        agencies: agents::agencies_of(&rows),
        managed_agencies: agencies::managed_briefs(&state.db, &auth.user_id).await?,
        pagination,
    })))
}
