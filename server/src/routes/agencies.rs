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

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    agents::{
        self, AgencyBrief, AgencyRow, AgentListItem, Arg, MessageResponse, Pagination, Paging,
        Sql, SuccessResponse, manages, patch,
    },
    db,
    error::{ApiError, ApiResult, ErrorBody, is_unique_violation},
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser},
    models::Role,
    routes::agents::{CreateAgentRequest, CreatedAgentResponse, agencies_of, create_agent_in, page_of_agents},
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

/// An office.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgencyView {
    pub id: String,
    pub name: String,
    pub logo: Option<String>,
    pub city: Option<String>,
    /// Number of agents assigned to the office.
    pub agents_count: i64,
    pub created_at: String,
}

#[derive(Debug, sqlx::FromRow)]
struct AgencyListRow {
    id: String,
    name: String,
    logo: Option<String>,
    city: Option<String>,
    created_at: i64,
    agents_count: i64,
}

impl AgencyListRow {
    fn view(self) -> AgencyView {
        AgencyView {
            id: self.id,
            name: self.name,
            logo: self.logo,
            city: self.city,
            agents_count: self.agents_count,
            created_at: db::to_rfc3339(self.created_at),
        }
    }
}

const AGENCY_LIST_SELECT: &str = "SELECT g.id, g.name, g.logo, g.city, g.created_at, \
    (SELECT COUNT(*) FROM agent_profiles a WHERE a.agency_id = g.id) AS agents_count FROM agencies g";

async fn agency_view(state: &AppState, id: &str) -> ApiResult<AgencyView> {
    let mut sql = Sql::new(AGENCY_LIST_SELECT);
    sql.push(" WHERE g.id = ").bind_text(id);
    Ok(sql
        .query_as::<AgencyListRow>()
        .fetch_optional(&state.db)
        .await?
        .ok_or_else(agents::agency_not_found)?
        .view())
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
    request_body = CreateAgencyRequest,
    description = "Role `agency_admin` or `admin`; the caller becomes the owner.",
    responses(
        (status = 201, description = "Created", body = MessageResponse<AgencyView>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "Wrong role", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn create_agency(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreateAgencyRequest>,
) -> ApiResult<axum::response::Response> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let name = agents::required_text(&req.name, "name", 200)?;
    let logo = agents::optional_url(req.logo, "logo")?;
    let city = agents::optional_text(req.city, "city", 100)?;
    let id = db::new_id();
    let now = db::now();
    sqlx::query(
        "INSERT INTO agencies (id, name, logo, city, owner_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(&id)
    .bind(&name)
    .bind(&logo)
    .bind(&city)
    .bind(&auth.user_id)
    .bind(now)
    .execute(&state.db)
    .await?;
    let view = agency_view(&state, &id).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(MessageResponse::new("Oficina creada", view)),
    )
        .into_response())
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
    let (total,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM agencies")
        .fetch_one(&state.db)
        .await?;
    let mut sql = Sql::new(AGENCY_LIST_SELECT);
    sql.push(" ORDER BY g.name, g.id LIMIT ")
        .bind(Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(Arg::Int(paging.offset()));
    let rows = sql.query_as::<AgencyListRow>().fetch_all(&state.db).await?;
    Ok(axum::Json(SuccessResponse::new(AgencyListData {
        agencies: rows.into_iter().map(AgencyListRow::view).collect(),
        pagination: paging.pagination(total),
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
    Ok(axum::Json(SuccessResponse::new(agency_view(&state, &id).await?)))
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
    request_body = UpdateAgencyRequest,
    description = "Managers of the office (owner, co-admins) and the platform admin.",
    responses(
        (status = 200, description = "Updated", body = MessageResponse<AgencyView>),
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
) -> ApiResult<axum::Json<MessageResponse<AgencyView>>> {
    let mut agency = agents::find_agency(&state.db, &id).await?;
    if !manages(&state.db, &auth, &agency.id).await? {
        return Err(ApiError::forbidden());
    }
    if let Some(n) = &req.name {
        agency.name = agents::required_text(n, "name", 200)?;
    }
    if let Some(l) = req.logo {
        agency.logo = agents::optional_url(l, "logo")?;
    }
    if let Some(c) = req.city {
        agency.city = agents::optional_text(c, "city", 100)?;
    }
    sqlx::query("UPDATE agencies SET name = $1, logo = $2, city = $3, updated_at = $4 WHERE id = $5")
        .bind(&agency.name)
        .bind(&agency.logo)
        .bind(&agency.city)
        .bind(db::now())
        .bind(&agency.id)
        .execute(&state.db)
        .await?;
    let view = agency_view(&state, &agency.id).await?;
    Ok(axum::Json(MessageResponse::new("Oficina actualizada", view)))
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
    request_body = AddAdminRequest,
    description = "The owner of the office or the platform admin (co-admins cannot add others). \
        The user must have role `agency_admin` (422 `INVALID_ROLE`) and not be the owner.",
    responses(
        (status = 201, description = "Added", body = MessageResponse<CoAdmin>),
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
) -> ApiResult<axum::response::Response> {
    let agency = agents::find_agency(&state.db, &id).await?;
    if !(auth.role == Role::Admin || agency.owner_id == auth.user_id) {
        return Err(ApiError::forbidden());
    }
    let user = crate::models::UserRow::find_by_id(&state.db, req.user_id.trim())
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
    if user.id == agency.owner_id {
        return Err(ApiError::conflict("ALREADY_ADMIN", "El usuario ya administra la oficina"));
    }
    let res = sqlx::query("INSERT INTO agency_admins (agency_id, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(&agency.id)
        .bind(&user.id)
        .bind(db::now())
        .execute(&state.db)
        .await;
    match res {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => {
            return Err(ApiError::conflict("ALREADY_ADMIN", "El usuario ya administra la oficina"));
        }
        Err(e) => return Err(e.into()),
    }
    Ok((
        StatusCode::CREATED,
        axum::Json(MessageResponse::new(
            "Co-administrador agregado",
            CoAdmin {
                agency_id: agency.id,
                user_id: user.id,
            },
        )),
    )
        .into_response())
}

/// Removes a co-admin.
#[utoipa::path(delete, path = "/api/agencies/{id}/admins/{userId}", tag = "agencies",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Office id"), ("userId" = String, Path, description = "Co-admin user id")),
    description = "The owner, the platform admin, or the co-admin themself (leaving the office).",
    responses(
        (status = 200, description = "Removed", body = MessageResponse<CoAdmin>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENCY_NOT_FOUND`, `ADMIN_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn remove_admin(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath((id, user_id)): ApiPath<(String, String)>,
) -> ApiResult<axum::Json<MessageResponse<CoAdmin>>> {
    let agency = agents::find_agency(&state.db, &id).await?;
    if !(auth.role == Role::Admin || agency.owner_id == auth.user_id || auth.user_id == user_id) {
        return Err(ApiError::forbidden());
    }
    let n = sqlx::query("DELETE FROM agency_admins WHERE agency_id = $1 AND user_id = $2")
        .bind(&agency.id)
        .bind(&user_id)
        .execute(&state.db)
        .await?
        .rows_affected();
    if n == 0 {
        return Err(ApiError::not_found("ADMIN_NOT_FOUND", "El usuario no es co-administrador de la oficina"));
    }
    Ok(axum::Json(MessageResponse::new(
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
    request_body = CreateAgentRequest,
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
) -> ApiResult<axum::response::Response> {
    let agency = agents::find_agency(&state.db, &id).await?;
    if !manages(&state.db, &auth, &agency.id).await? {
        return Err(ApiError::forbidden());
    }
    create_agent_in(&state, Some(agency), req).await
}

/// The caller's `current` office (see the module documentation).
async fn current_agency(state: &AppState, auth: &AuthUser) -> ApiResult<AgencyRow> {
    let (owned, co) = agents::managed_offices(&state.db, &auth.user_id).await?;
    let id = match (owned.as_slice(), co.as_slice()) {
        ([one], _) => one.clone(),
        ([], [one]) => one.clone(),
        ([], []) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "NO_AGENCY",
                "No administras ninguna oficina",
            ));
        }
        _ => {
            let ids: Vec<String> = if owned.is_empty() { co } else { owned };
            return Err(ApiError::conflict(
                "AGENCY_AMBIGUOUS",
                "Administras varias oficinas: usa POST /api/agencies/{id}/agents",
            )
            .with("agencyIds", ids));
        }
    };
    agents::find_agency(&state.db, &id).await
}

/// Creates an agent in the caller's current office (rule 1).
#[utoipa::path(post, path = "/api/agencies/current/agents", tag = "agencies",
    security(("bearer" = [])),
    request_body = CreateAgentRequest,
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
) -> ApiResult<axum::response::Response> {
    auth.require_role(&[Role::AgencyAdmin])?;
    let agency = current_agency(&state, &auth).await?;
    create_agent_in(&state, Some(agency), req).await
}

/// `data` of the agents of the caller's offices.
#[derive(Debug, Serialize, ToSchema)]
pub struct CurrentAgentsData {
    /// Active and inactive agents, each with `propertiesCount` and `agencyId`.
    pub agents: Vec<AgentListItem>,
    /// The offices of the agents on this page.
    pub agencies: Vec<AgencyBrief>,
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
    let mut filter = Sql::new(" WHERE a.agency_id IS NOT NULL");
    if auth.role != Role::Admin {
        filter
            .push(" AND a.agency_id IN (SELECT id FROM agencies WHERE owner_id = ")
            .bind_text(auth.user_id.clone())
            .push(" UNION SELECT agency_id FROM agency_admins WHERE user_id = ")
            .bind_text(auth.user_id.clone())
            .push(")");
    }
    let (rows, pagination) = page_of_agents(&state, &filter, paging).await?;
    Ok(axum::Json(SuccessResponse::new(CurrentAgentsData {
        agents: rows.iter().map(|r| r.list_item()).collect(),
        agencies: agencies_of(&rows),
        pagination,
    })))
}
