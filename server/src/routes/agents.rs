//! Agents (spec 2.2, 4.2, rules 1 to 6): public list and detail, creation, assignment to an
//! office, update, delete, reviews and `GET /api/agent/my-agency`.
//!
//! Decisions the spec leaves open (also in server/README.md and the OpenAPI descriptions):
//! - The public list shows active agents only (`isActive: true`), ordered by rating (highest
//!   first), then id; `limit` is 1..=100 (400 `INVALID_PAGINATION` otherwise). `city` and
//!   `category` match the whole value, `search` a part of the name or company; all three
//!   ignore case and accents. `agencies` holds the offices of the agents of the page.
//!   `type` is `agency` (assigned to an office) or `independent`.
//! - The detail is public for any agent (also inactive ones, with `isActive: false`).
//! - Update: the platform admin and the managers of the agent's office may change every field;
//!   the agent may change its own profile and user fields but not `isActive` or `externalId`
//!   (403); the office only changes through assign-agency. The e-mail cannot be changed here.
//! - Delete: the platform admin and the managers of the agent's office. It removes the profile,
//!   its reviews and the agent's user account in one transaction; the properties stay with
//!   `agentId: null`.
//! - Reviews: any authenticated user except the agent itself; one per user and agent (a second
//!   POST updates it); `rating` and `reviewsCount` are recomputed in the same transaction.

use axum::{extract::State, http::StatusCode, response::Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    db::sql::fold,
    domain::{
        accounts,
        agencies::{self, AgencyBrief, AgencyRef, AgencyRow, manages},
        agents::{
            self, AgentListItem, AgentRow, AgentView, ListFilter,
            profile::{self, NewAgent, ProfileData, ProfileFields},
        },
        properties::{self, PropertiesCount, PropertyRow, PropertyView},
        reviews::{self, ReviewView},
        users::{Role, normalize_email},
    },
    http::{
        ApiJson, ApiPath, ApiQuery, AuthUser, DataResponse, ErrorBody, Pagination, Paging,
        SuccessResponse,
        envelope::json_with,
        error::{ApiError, ApiResult},
        text::{optional_text, required_text},
    },
    mail::{Email, agent_welcome_email},
    security::check_password_rules,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_agents, create_agent))
        .routes(routes!(get_agent))
        .routes(routes!(my_agency))
}

// ------------------------------------------------------------------------- create

/// Body of the three agent-creation endpoints.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateAgentRequest {
    pub first_name: String,
    pub last_name: String,
    /// Login e-mail of the new user (unique: 400 `EMAIL_ALREADY_EXISTS`).
    pub email: String,
    /// 12 to 128 characters.
    pub password: String,
    #[serde(default)]
    pub phone: Option<String>,
    /// Only read by `POST /api/agents`: the office of the new agent (the caller must manage
    /// it); omitted or null creates an unassigned agent.
    #[serde(default)]
    pub agency_id: Option<String>,
    #[serde(flatten)]
    pub profile: ProfileFields,
}

/// `user` of the creation response.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedAgentUser {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// Always `agent`.
    pub role: String,
}

/// `data` of the creation response (spec 4.2).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedAgent {
    pub id: String,
    pub user_id: String,
    pub agency_id: Option<String>,
    pub external_id: Option<String>,
    pub city: Option<String>,
    pub category: Option<String>,
    pub is_active: bool,
    pub user: CreatedAgentUser,
    pub agency: Option<AgencyRef>,
}

/// `{status: "success", message, data}` of agent creation.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedAgentResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub message: String,
    pub data: CreatedAgent,
}

/// Checks the body, creates the agent in `agency` (already authorized by the caller) and
/// enqueues the welcome e-mail. Shared by the three creation endpoints.
pub async fn create_in(
    state: &AppState,
    agency: Option<AgencyRow>,
    req: CreateAgentRequest,
) -> ApiResult<Response> {
    let first_name = required_text(&req.first_name, "firstName", 100)?;
    let last_name = required_text(&req.last_name, "lastName", 100)?;
    let email = required_text(&req.email, "email", 254)?;
    if !accounts::is_valid_email(&email) {
        return Err(ApiError::validation("El correo electrónico no es válido").with("field", "email"));
    }
    let phone = optional_text(req.phone, "phone", 30)?;
    check_password_rules(&req.password)?;
    let mut profile = ProfileData::new();
    profile.apply(req.profile)?;
    let new = NewAgent {
        first_name,
        last_name,
        email,
        password_hash: state.passwords.hash(&req.password).await?,
        phone,
        profile,
    };
    // The welcome e-mail is queued in the transaction that creates the account.
    let welcome = welcome_email(
        state,
        &normalize_email(&new.email),
        &new.first_name,
        agency.as_ref().map(|a| a.name.as_str()),
    );
    let (user, id) = profile::create(&state.db, agency.as_ref(), &new, &welcome).await?;
    state.mailer.wake();
    let data = CreatedAgent {
        id,
        user_id: user.id.clone(),
        agency_id: agency.as_ref().map(|a| a.id.clone()),
        external_id: new.profile.external_id,
        city: new.profile.city,
        category: new.profile.category,
        is_active: new.profile.is_active,
        user: CreatedAgentUser {
            id: user.id,
            first_name: new.first_name,
            last_name: new.last_name,
            email: user.email,
            role: Role::Agent.as_str().to_string(),
        },
        agency: agency.map(|a| AgencyRef {
            id: a.id,
            name: a.name,
        }),
    };
    Ok(json_with(
        StatusCode::CREATED,
        CreatedAgentResponse {
            status: "success",
            message: "Agente creado correctamente".into(),
            data,
        },
    ))
}

fn welcome_email(state: &AppState, to: &str, first_name: &str, agency: Option<&str>) -> Email {
    let login = format!("{}/login", state.config.frontend_url.trim_end_matches('/'));
    agent_welcome_email(to, first_name, agency, &login)
}

// ------------------------------------------------------------------------- list

/// Query of the public list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page number, default 1.
    pub page: Option<i64>,
    /// Page size, default 10, at most 100.
    pub limit: Option<i64>,
    /// Whole city name, case- and accent-insensitive.
    pub city: Option<String>,
    /// Whole category, case- and accent-insensitive.
    pub category: Option<String>,
    /// Part of the first name, last name or company (case- and accent-insensitive, at most 100 characters).
    pub search: Option<String>,
}

/// `data` of the public list.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentListData {
    pub agents: Vec<AgentListItem>,
    /// The offices of the agents on this page (`{id, name, logo, city}`), each once.
    pub agencies: Vec<AgencyBrief>,
    pub pagination: Pagination,
}

fn filter_value(v: Option<String>, field: &str) -> ApiResult<Option<String>> {
    match v {
        Some(s) if s.chars().count() > 100 => Err(ApiError::bad_request(
            "INVALID_QUERY",
            format!("El parámetro {field} admite como máximo 100 caracteres"),
        )
        .with("field", field)),
        Some(s) => {
            let f = fold(&s);
            Ok((!f.is_empty()).then_some(f))
        }
        None => Ok(None),
    }
}

/// Public list of active agents.
#[utoipa::path(get, path = "/api/agents", tag = "agents",
    params(ListQuery),
    description = "Public. Active agents only, highest rating first. `page` >= 1 (default 1), \
        `limit` 1..=100 (default 10). `city` and `category` match the whole value and `search` \
        part of the name or company, ignoring case and accents. `agencies` lists the offices of \
        the agents on the page. `type` is `agency` or `independent`.",
    responses(
        (status = 200, description = "A page of agents", body = SuccessResponse<AgentListData>),
        (status = 400, description = "`INVALID_PAGINATION` or `INVALID_QUERY`", body = ErrorBody),
    ))]
pub async fn list_agents(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> ApiResult<axum::Json<SuccessResponse<AgentListData>>> {
    let paging = Paging::new(q.page, q.limit)?;
    let filter = ListFilter {
        city: filter_value(q.city, "city")?,
        category: filter_value(q.category, "category")?,
        search: filter_value(q.search, "search")?,
    };
    let (rows, pagination) = agents::page_active(&state.db, &filter, paging).await?;
    Ok(axum::Json(SuccessResponse::new(AgentListData {
        agents: rows.iter().map(AgentRow::list_item).collect(),
        agencies: agents::agencies_of(&rows),
        pagination,
    })))
}

// ------------------------------------------------------------------------- detail

/// Query of the detail (the page of the agent's properties).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DetailQuery {
    /// Page of properties, default 1.
    pub page: Option<i64>,
    /// Properties per page, default 10, at most 100.
    pub limit: Option<i64>,
    /// `sale` or `rent`.
    pub r#type: Option<String>,
}

/// `data` of the detail.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentDetailData {
    pub agent: AgentView,
    /// The requested page of the agent's properties (newest first), filtered by `type`.
    pub properties: Vec<PropertyView>,
    /// Pagination of `properties` (its `total` counts the `type` filter).
    pub pagination: Pagination,
    pub properties_count: PropertiesCount,
    /// The 20 most recent reviews; `agent.reviewsCount` has the total.
    pub reviews: Vec<ReviewView>,
}

/// Public detail of an agent with a page of its properties and its latest reviews.
#[utoipa::path(get, path = "/api/agents/{id}", tag = "agents",
    params(("id" = String, Path, description = "Agent id"), DetailQuery),
    description = "Public, also for inactive agents (`isActive: false`). `properties` is a page \
        (page/limit, defaults 1/10, limit at most 100) of the agent's properties, newest first, \
        filtered by `type` (`sale` or `rent`); `pagination` describes it. `reviews` holds the 20 \
        most recent reviews.",
    responses(
        (status = 200, description = "The agent", body = SuccessResponse<AgentDetailData>),
        (status = 400, description = "`INVALID_PAGINATION`, `INVALID_QUERY` (type)", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn get_agent(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<DetailQuery>,
) -> ApiResult<axum::Json<SuccessResponse<AgentDetailData>>> {
    let paging = Paging::new(q.page, q.limit)?;
    let op = match q.r#type.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t @ ("sale" | "rent")) => Some(t.to_string()),
        Some(_) => {
            return Err(ApiError::bad_request(
                "INVALID_QUERY",
                "El parámetro type debe ser sale o rent",
            )
            .with("field", "type"));
        }
    };
    let agent = agents::find_agent(&state.db, &id).await?;
    let counts = properties::count_of_agent(&state.db, &agent.id).await?;
    let props = properties::page_of_agent(&state.db, &agent.id, op.as_deref(), paging).await?;
    let filtered_total = match op.as_deref() {
        Some("sale") => counts.for_sale,
        Some(_) => counts.for_rent,
        None => counts.total,
    };
    let reviews = reviews::latest(&state.db, &agent.id).await?;
    Ok(axum::Json(SuccessResponse::new(AgentDetailData {
        agent: agent.view(),
        properties: props.iter().map(PropertyRow::view).collect(),
        pagination: paging.pagination(filtered_total),
        properties_count: counts,
        reviews,
    })))
}

/// Creates an agent, optionally in an office (rules 1, 2, 5, 6).
#[utoipa::path(post, path = "/api/agents", tag = "agents",
    security(("bearer" = [])),
    request_body(content = CreateAgentRequest, example = crate::routes::examples::create_agent),
    description = "Role `agency_admin` or `admin`. With `agencyId` the caller must manage that \
        office (owner or co-admin; the platform admin manages every office), else 403. Without \
        it the agent is unassigned (only the platform admin manages unassigned agents \
        afterwards, and any manager of an office may assign it to that office, rule 3). Creates \
        the user (role `agent`, active, verified: it can log in at once) and the profile in one \
        transaction and sends a welcome e-mail.",
    responses(
        (status = 201, description = "Created", body = CreatedAgentResponse),
        (status = 400, description = "`EMAIL_ALREADY_EXISTS`, `EXTERNAL_ID_ALREADY_EXISTS`, `INVALID_JSON`", body = ErrorBody),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "Wrong role, or the caller does not manage `agencyId` (`FORBIDDEN`)", body = ErrorBody),
        (status = 404, description = "`AGENCY_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field (`VALIDATION_ERROR`, `WEAK_PASSWORD`...) with `field`", body = ErrorBody),
    ))]
pub async fn create_agent(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreateAgentRequest>,
) -> ApiResult<Response> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let agency = match req.agency_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => {
            let agency = agencies::find_agency(&state.db, id).await?;
            if !manages(&state.db, auth.caller(), &agency.id).await? {
                return Err(ApiError::forbidden());
            }
            Some(agency)
        }
        None => None,
    };
    create_in(&state, agency, req).await
}

/// The office of the authenticated agent.
#[utoipa::path(get, path = "/api/agent/my-agency", tag = "agents",
    security(("bearer" = [])),
    description = "Role `agent`. `{status: \"success\", data: {id, name, logo, city}}`; 404 \
        `NO_AGENCY` when the agent has no profile or is unassigned.",
    responses(
        (status = 200, description = "The office", body = DataResponse<AgencyBrief>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "Not an agent", body = ErrorBody),
        (status = 404, description = "`NO_AGENCY`", body = ErrorBody),
    ))]
pub async fn my_agency(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<axum::Json<DataResponse<AgencyBrief>>> {
    auth.require_role(&[Role::Agent])?;
    let agency = agencies::of_agent_user(&state.db, &auth.user_id).await?;
    Ok(axum::Json(DataResponse::new(agency.brief())))
}
