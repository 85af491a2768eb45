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

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    accounts::{self, CreateUserError, NewUser},
    agents::{
        self, AGENT_SELECT, AgencyBrief, AgentListItem, AgentRow, AgentView, MessageResponse,
        Pagination, Paging, SocialMedia, Sql, SuccessResponse, fold,
        manages, manages_agent, patch,
    },
    db,
    error::{ApiError, ApiResult, ErrorBody, is_unique_violation},
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser},
    mail,
    models::Role,
    routes::{
        auth::DataResponse,
        properties::{PROPERTY_COLUMNS, PropertyRow, PropertyView},
    },
    security::check_password_rules,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_agents, create_agent))
        .routes(routes!(get_agent, update_agent, delete_agent))
        .routes(routes!(assign_agency))
        .routes(routes!(review_agent))
        .routes(routes!(my_agency))
}

// ------------------------------------------------------------------------- inputs

/// Profile fields of spec 2.2 accepted on creation and update. On update an absent field is
/// left as it is and `null` (or an empty text) clears it.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileFields {
    /// The agency's own key for the agent; unique across agents.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub external_id: Option<Option<String>>,
    /// Profile photo URL.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub image: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub city: Option<Option<String>>,
    /// Specialisation, e.g. Residencial, Comercial, Industrial.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub category: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub company: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub bio: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub phone1: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub phone2: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub office_phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub mobile_phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub fax: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub website: Option<Option<String>>,
    /// Start in the industry, YYYY-MM-DD.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub member_since: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub broker_address: Option<Option<String>>,
    /// Keys facebook, instagram, linkedin, twitter (URLs). Replaces the whole object.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<SocialMedia>)]
    pub social_media: Option<Option<SocialMedia>>,
    /// Default true on creation. Not changeable by the agent itself.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<bool>)]
    pub is_active: Option<Option<bool>>,
}

/// The stored profile values.
#[derive(Debug, Clone, Default)]
pub struct ProfileData {
    pub external_id: Option<String>,
    pub image: Option<String>,
    pub city: Option<String>,
    pub category: Option<String>,
    pub company: Option<String>,
    pub bio: Option<String>,
    pub phone1: Option<String>,
    pub phone2: Option<String>,
    pub office_phone: Option<String>,
    pub mobile_phone: Option<String>,
    pub fax: Option<String>,
    pub website: Option<String>,
    pub member_since: Option<String>,
    pub broker_address: Option<String>,
    pub social_media: SocialMedia,
    pub is_active: bool,
}

impl ProfileData {
    pub fn new() -> Self {
        ProfileData {
            is_active: true,
            ..Default::default()
        }
    }

    fn of_row(r: &AgentRow) -> Self {
        ProfileData {
            external_id: r.external_id.clone(),
            image: r.image.clone(),
            city: r.city.clone(),
            category: r.category.clone(),
            company: r.company.clone(),
            bio: r.bio.clone(),
            phone1: r.phone1.clone(),
            phone2: r.phone2.clone(),
            office_phone: r.office_phone.clone(),
            mobile_phone: r.mobile_phone.clone(),
            fax: r.fax.clone(),
            website: r.website.clone(),
            member_since: r.member_since.clone(),
            broker_address: r.broker_address.clone(),
            social_media: r.social(),
            is_active: r.is_active != 0,
        }
    }

    /// Applies and validates the given fields.
    pub fn apply(&mut self, f: ProfileFields) -> ApiResult<()> {
        use agents::{optional_date, optional_text, optional_text_ml, optional_url};
        if let Some(v) = f.external_id {
            self.external_id = optional_text(v, "externalId", 100)?;
        }
        if let Some(v) = f.image {
            self.image = optional_url(v, "image")?;
        }
        if let Some(v) = f.city {
            self.city = optional_text(v, "city", 100)?;
        }
        if let Some(v) = f.category {
            self.category = optional_text(v, "category", 100)?;
        }
        if let Some(v) = f.company {
            self.company = optional_text(v, "company", 200)?;
        }
        if let Some(v) = f.bio {
            self.bio = optional_text_ml(v, "bio", 5000, true)?;
        }
        for (slot, v, name) in [
            (&mut self.phone1, f.phone1, "phone1"),
            (&mut self.phone2, f.phone2, "phone2"),
            (&mut self.office_phone, f.office_phone, "officePhone"),
            (&mut self.mobile_phone, f.mobile_phone, "mobilePhone"),
            (&mut self.fax, f.fax, "fax"),
        ] {
            if let Some(v) = v {
                *slot = optional_text(v, name, 30)?;
            }
        }
        if let Some(v) = f.website {
            self.website = optional_url(v, "website")?;
        }
        if let Some(v) = f.member_since {
            self.member_since = optional_date(v, "memberSince")?;
        }
        if let Some(v) = f.broker_address {
            self.broker_address = optional_text(v, "brokerAddress", 300)?;
        }
        if let Some(v) = f.social_media {
            self.social_media = v.unwrap_or_default().validated()?;
        }
        if let Some(Some(v)) = f.is_active {
            self.is_active = v;
        }
        Ok(())
    }
}

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

/// `{id, name}` of the office.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgencyRef {
    pub id: String,
    pub name: String,
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

/// Creates the user (role agent, active and verified: it can log in at once) and the profile
/// in one transaction, linked to `agency` (already authorized by the caller), then enqueues
/// the welcome e-mail. Shared by the three creation endpoints.
pub async fn create_agent_in(
    state: &AppState,
    agency: Option<agents::AgencyRow>,
    req: CreateAgentRequest,
) -> ApiResult<axum::response::Response> {
    let first_name = agents::required_text(&req.first_name, "firstName", 100)?;
    let last_name = agents::required_text(&req.last_name, "lastName", 100)?;
    let email = agents::required_text(&req.email, "email", 254)?;
    if !accounts::is_valid_email(&email) {
        return Err(ApiError::validation("El correo electrónico no es válido").with("field", "email"));
    }
    let phone = agents::optional_text(req.phone, "phone", 30)?;
    check_password_rules(&req.password)?;
    let mut profile = ProfileData::new();
    profile.apply(req.profile)?;
    let hash = state.passwords.hash(&req.password).await?;

    let mut tx = state.db.begin().await?;
    let user = accounts::create_user(
        &mut *tx,
        &NewUser {
            email,
            password_hash: Some(hash),
            first_name: first_name.clone(),
            last_name: last_name.clone(),
            phone,
            company_name: None,
            role: Role::Agent,
            verified: true,
        },
    )
    .await
    .map_err(|e| match e {
        CreateUserError::EmailTaken => ApiError::bad_request(
            "EMAIL_ALREADY_EXISTS",
            "El correo electrónico ya está registrado",
        ),
        CreateUserError::Db(e) => e.into(),
    })?;
    let id = db::new_id();
    let now = db::now();
    insert_profile(&mut tx, &id, &user.id, agency.as_ref().map(|a| a.id.as_str()), &profile, &first_name, &last_name, now)
        .await?;
    tx.commit().await?;

    state.mailer.send(welcome_email(
        state,
        &user.email,
        &first_name,
        agency.as_ref().map(|a| a.name.as_str()),
    ));
    let data = CreatedAgent {
        id,
        user_id: user.id.clone(),
        agency_id: agency.as_ref().map(|a| a.id.clone()),
        external_id: profile.external_id,
        city: profile.city,
        category: profile.category,
        is_active: profile.is_active,
        user: CreatedAgentUser {
            id: user.id,
            first_name,
            last_name,
            email: user.email,
            role: Role::Agent.as_str().to_string(),
        },
        agency: agency.map(|a| AgencyRef {
            id: a.id,
            name: a.name,
        }),
    };
    Ok((
        StatusCode::CREATED,
        axum::Json(CreatedAgentResponse {
            status: "success",
            message: "Agente creado correctamente".into(),
            data,
        }),
    )
        .into_response())
}

#[allow(clippy::too_many_arguments)]
async fn insert_profile(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    user_id: &str,
    agency_id: Option<&str>,
    p: &ProfileData,
    first_name: &str,
    last_name: &str,
    now: i64,
) -> ApiResult<()> {
    let res = sqlx::query(
        "INSERT INTO agent_profiles (id, user_id, agency_id, external_id, image, city, city_norm, \
         category, category_norm, company, bio, phone1, phone2, office_phone, mobile_phone, fax, \
         website, member_since, broker_address, social_media, search_text, rating, reviews_count, \
         is_active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, 0, $23, $24, $24)",
    )
    .bind(id)
    .bind(user_id)
    .bind(agency_id)
    .bind(&p.external_id)
    .bind(&p.image)
    .bind(&p.city)
    .bind(p.city.as_deref().map(fold))
    .bind(&p.category)
    .bind(p.category.as_deref().map(fold))
    .bind(&p.company)
    .bind(&p.bio)
    .bind(&p.phone1)
    .bind(&p.phone2)
    .bind(&p.office_phone)
    .bind(&p.mobile_phone)
    .bind(&p.fax)
    .bind(&p.website)
    .bind(&p.member_since)
    .bind(&p.broker_address)
    .bind(agents::to_json_text(&p.social_media))
    .bind(agents::search_text(first_name, last_name, p.company.as_deref()))
    .bind(0.0_f64)
    .bind(i64::from(p.is_active))
    .bind(now)
    .execute(&mut *conn)
    .await;
    match res {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(agents::external_id_taken()),
        Err(e) => Err(e.into()),
    }
}

fn welcome_email(state: &AppState, to: &str, first_name: &str, agency: Option<&str>) -> mail::Email {
    let login = format!("{}/login", state.config.frontend_url.trim_end_matches('/'));
    mail::agent_welcome_email(to, first_name, agency, &login)
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

/// Runs a paged agent query: `where_sql` holds the WHERE clause (with its binds).
pub async fn page_of_agents(
    state: &AppState,
    filter: &Sql,
    paging: Paging,
) -> ApiResult<(Vec<AgentRow>, Pagination)> {
    let mut count = Sql {
        text: format!("SELECT COUNT(*) FROM agent_profiles a{}", filter.text),
        args: filter.args.clone(),
    };
    count.push("");
    let (total,): (i64,) = count.query_as().fetch_one(&state.db).await?;
    let mut page = Sql {
        text: format!("{AGENT_SELECT}{}", filter.text),
        args: filter.args.clone(),
    };
    page.push(" ORDER BY a.rating DESC, a.id DESC LIMIT ")
        .bind(agents::Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(agents::Arg::Int(paging.offset()));
    let rows = page.query_as::<AgentRow>().fetch_all(&state.db).await?;
    Ok((rows, paging.pagination(total)))
}

pub fn agencies_of(rows: &[AgentRow]) -> Vec<AgencyBrief> {
    let mut out: Vec<AgencyBrief> = Vec::new();
    for r in rows {
        if let Some(b) = r.agency_brief()
            && !out.iter().any(|x| x.id == b.id)
        {
            out.push(b);
        }
    }
    out
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
    let mut filter = Sql::new(" WHERE a.is_active = 1");
    if let Some(city) = filter_value(q.city, "city")? {
        filter.push(" AND a.city_norm = ").bind_text(city);
    }
    if let Some(cat) = filter_value(q.category, "category")? {
        filter.push(" AND a.category_norm = ").bind_text(cat);
    }
    if let Some(s) = filter_value(q.search, "search")? {
        filter
            .push(" AND a.search_text LIKE ")
            .bind_text(agents::like_pattern(&s))
            .push(" ESCAPE '\\'");
    }
    let (rows, pagination) = page_of_agents(&state, &filter, paging).await?;
    Ok(axum::Json(SuccessResponse::new(AgentListData {
        agents: rows.iter().map(AgentRow::list_item).collect(),
        agencies: agencies_of(&rows),
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

/// `{total, forSale, forRent}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertiesCount {
    pub total: i64,
    pub for_sale: i64,
    pub for_rent: i64,
}

/// A review as shown in the detail.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    pub id: String,
    /// 1 to 5.
    pub rating: i64,
    pub comment: Option<String>,
    /// First name and last-name initial of the reviewer.
    pub author: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, sqlx::FromRow)]
struct ReviewRow {
    id: String,
    rating: i64,
    comment: Option<String>,
    created_at: i64,
    updated_at: i64,
    first_name: String,
    last_name: String,
}

impl ReviewRow {
    fn view(&self) -> ReviewView {
        let initial: String = self.last_name.chars().take(1).collect();
        ReviewView {
            id: self.id.clone(),
            rating: self.rating,
            comment: self.comment.clone(),
            author: if initial.is_empty() {
                self.first_name.clone()
            } else {
                format!("{} {initial}.", self.first_name)
            },
            created_at: db::to_rfc3339(self.created_at),
            updated_at: db::to_rfc3339(self.updated_at),
        }
    }
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
    let (total, for_sale, for_rent): (i64, i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN operation = 'sale' THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN operation = 'rent' THEN 1 ELSE 0 END), 0) \
         FROM properties WHERE agent_id = $1",
    )
    .bind(&agent.id)
    .fetch_one(&state.db)
    .await?;
    let mut sql = Sql::new(&format!("SELECT {PROPERTY_COLUMNS} FROM properties WHERE agent_id = "));
    sql.bind_text(agent.id.clone());
    if let Some(op) = &op {
        sql.push(" AND operation = ").bind_text(op.clone());
    }
    sql.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .bind(agents::Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(agents::Arg::Int(paging.offset()));
    let props = sql.query_as::<PropertyRow>().fetch_all(&state.db).await?;
    let filtered_total = match op.as_deref() {
        Some("sale") => for_sale,
        Some(_) => for_rent,
        None => total,
    };
    let reviews = sqlx::query_as::<_, ReviewRow>(
        "SELECT r.id, r.rating, r.comment, r.created_at, r.updated_at, u.first_name, u.last_name \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.agent_id = $1 \
         ORDER BY r.updated_at DESC, r.id DESC LIMIT $2",
    )
    .bind(&agent.id)
    .bind(agents::DETAIL_REVIEWS)
    .fetch_all(&state.db)
    .await?;
    Ok(axum::Json(SuccessResponse::new(AgentDetailData {
        agent: agent.view(),
        properties: props.iter().map(PropertyRow::view).collect(),
        pagination: paging.pagination(filtered_total),
        properties_count: PropertiesCount {
            total,
            for_sale,
            for_rent,
        },
        reviews: reviews.iter().map(ReviewRow::view).collect(),
    })))
}

// ------------------------------------------------------------------------- create

/// Creates an agent, optionally in an office (rules 1, 2, 5, 6).
#[utoipa::path(post, path = "/api/agents", tag = "agents",
    security(("bearer" = [])),
    request_body = CreateAgentRequest,
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
) -> ApiResult<axum::response::Response> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let agency = match req.agency_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => {
            let agency = agents::find_agency(&state.db, id).await?;
            if !manages(&state.db, &auth, &agency.id).await? {
                return Err(ApiError::forbidden());
            }
            Some(agency)
        }
        None => None,
    };
    create_agent_in(&state, agency, req).await
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
    request_body = AssignRequest,
    description = "Role `agency_admin` or `admin`. The caller must manage the agent's current \
        office (if any) and the target office (if not null); a co-admin moving an agent to or \
        from an office they do not administer gets 403. An unassigned agent can be claimed by \
        any manager of the target office (the spec's rule 3). The change is a compare-and-set \
        on the office checked: if the agent was moved meanwhile, 409 `AGENT_MOVED`.",
    responses(
        (status = 200, description = "Assigned", body = MessageResponse<AssignData>),
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
) -> ApiResult<axum::Json<MessageResponse<AssignData>>> {
    auth.require_role(&[Role::AgencyAdmin, Role::Admin])?;
    let Some(target) = req.agency_id else {
        return Err(ApiError::validation("El campo agencyId es obligatorio (puede ser null)")
            .with("field", "agencyId"));
    };
    let agent = agents::find_agent(&state.db, &id).await?;
    let target = match target.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(t) => Some(agents::find_agency(&state.db, t).await?),
        None => None,
    };
    if let Some(current) = &agent.agency_id
        && !manages(&state.db, &auth, current).await?
    {
        return Err(ApiError::forbidden());
    }
    if let Some(t) = &target
        && !manages(&state.db, &auth, &t.id).await?
    {
        return Err(ApiError::forbidden());
    }
    if agent.agency_id.is_none() && target.is_none() && auth.role != Role::Admin {
        return Err(ApiError::forbidden());
    }
    let new_id = target.as_ref().map(|t| t.id.clone());
    let mut sql = Sql::new("UPDATE agent_profiles SET agency_id = ");
    match &new_id {
        Some(t) => sql.bind_text(t.clone()),
        None => sql.push("NULL"),
    };
    sql.push(", updated_at = ").bind(agents::Arg::Int(db::now()));
    sql.push(" WHERE id = ").bind_text(agent.id.clone());
    match &agent.agency_id {
        Some(c) => sql.push(" AND agency_id = ").bind_text(c.clone()),
        None => sql.push(" AND agency_id IS NULL"),
    };
    let res = sql.query().execute(&state.db).await?;
    if res.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "AGENT_MOVED",
            "El agente cambió de oficina mientras tanto; vuelve a intentarlo",
        ));
    }
    let message = if target.is_some() {
        "Agente asignado a la oficina"
    } else {
        "Agente desasignado de su oficina"
    };
    Ok(axum::Json(MessageResponse::new(
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
    request_body = UpdateAgentRequest,
    description = "Who: the platform admin and the managers of the agent's office (every field), \
        and the agent itself (its user and profile fields, but not `isActive` or `externalId`: \
        403). Absent fields are kept; null or empty clears an optional field. `agencyId` is \
        rejected (use assign-agency); the e-mail cannot be changed here. A taken `externalId` \
        gives 400 `EXTERNAL_ID_ALREADY_EXISTS`.",
    responses(
        (status = 200, description = "The updated agent", body = MessageResponse<AgentView>),
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
) -> ApiResult<axum::Json<MessageResponse<AgentView>>> {
    let agent = agents::find_agent(&state.db, &id).await?;
    let manager = manages_agent(&state.db, &auth, agent.agency_id.as_deref()).await?;
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
        Some(v) => agents::required_text(v, "firstName", 100)?,
        None => agent.first_name.clone(),
    };
    let last_name = match &req.last_name {
        Some(v) => agents::required_text(v, "lastName", 100)?,
        None => agent.last_name.clone(),
    };
    let phone = match req.phone {
        Some(v) => agents::optional_text(v, "phone", 30)?,
        None => agent.user_phone.clone(),
    };
    let mut p = ProfileData::of_row(&agent);
    p.apply(req.profile)?;
    let now = db::now();
    let mut tx = state.db.begin().await?;
    sqlx::query(
        "UPDATE users SET first_name = $1, last_name = $2, phone = $3, updated_at = $4 WHERE id = $5",
    )
    .bind(&first_name)
    .bind(&last_name)
    .bind(&phone)
    .bind(now)
    .bind(&agent.user_id)
    .execute(&mut *tx)
    .await?;
    let res = sqlx::query(
        "UPDATE agent_profiles SET external_id = $1, image = $2, city = $3, city_norm = $4, \
         category = $5, category_norm = $6, company = $7, bio = $8, phone1 = $9, phone2 = $10, \
         office_phone = $11, mobile_phone = $12, fax = $13, website = $14, member_since = $15, \
         broker_address = $16, social_media = $17, search_text = $18, is_active = $19, \
         updated_at = $20 WHERE id = $21",
    )
    .bind(&p.external_id)
    .bind(&p.image)
    .bind(&p.city)
    .bind(p.city.as_deref().map(fold))
    .bind(&p.category)
    .bind(p.category.as_deref().map(fold))
    .bind(&p.company)
    .bind(&p.bio)
    .bind(&p.phone1)
    .bind(&p.phone2)
    .bind(&p.office_phone)
    .bind(&p.mobile_phone)
    .bind(&p.fax)
    .bind(&p.website)
    .bind(&p.member_since)
    .bind(&p.broker_address)
    .bind(agents::to_json_text(&p.social_media))
    .bind(agents::search_text(&first_name, &last_name, p.company.as_deref()))
    .bind(i64::from(p.is_active))
    .bind(now)
    .bind(&agent.id)
    .execute(&mut *tx)
    .await;
    match res {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => return Err(agents::external_id_taken()),
        Err(e) => return Err(e.into()),
    }
    tx.commit().await?;
    let updated = agents::find_agent(&state.db, &agent.id).await?;
    Ok(axum::Json(MessageResponse::new(
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
        (status = 200, description = "Deleted", body = MessageResponse<DeletedAgent>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn delete_agent(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<MessageResponse<DeletedAgent>>> {
    let agent = agents::find_agent(&state.db, &id).await?;
    if !manages_agent(&state.db, &auth, agent.agency_id.as_deref()).await? {
        return Err(ApiError::forbidden());
    }
    let mut tx = state.db.begin().await?;
    let kept = sqlx::query("UPDATE properties SET agent_id = NULL WHERE agent_id = $1")
        .bind(&agent.id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let reviewed: Vec<(String,)> =
        sqlx::query_as("SELECT agent_id FROM reviews WHERE user_id = $1 ORDER BY agent_id")
            .bind(&agent.user_id)
            .fetch_all(&mut *tx)
            .await?;
    sqlx::query("DELETE FROM reviews WHERE user_id = $1 OR agent_id = $2")
        .bind(&agent.user_id)
        .bind(&agent.id)
        .execute(&mut *tx)
        .await?;
    let gone = sqlx::query("DELETE FROM agent_profiles WHERE id = $1")
        .bind(&agent.id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if gone != 1 {
        return Err(agents::agent_not_found());
    }
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(&agent.user_id)
        .execute(&mut *tx)
        .await?;
    for (other,) in reviewed {
        if other != agent.id {
            agents::recompute_rating(&mut tx, &other).await?;
        }
    }
    tx.commit().await?;
    Ok(axum::Json(MessageResponse::new(
        "Agente eliminado correctamente",
        DeletedAgent {
            id: agent.id,
            properties_kept: kept as i64,
        },
    )))
}

// ------------------------------------------------------------------------- reviews

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
    request_body = ReviewRequest,
    description = "Any authenticated user except the agent itself (403 `SELF_REVIEW`). One review \
        per user and agent (database constraint): the first POST creates it (201), later ones \
        replace its rating and comment (200). The agent's `rating` (average, 0..5) and \
        `reviewsCount` are recomputed in the same transaction, with the agent row locked.",
    responses(
        (status = 201, description = "Review created", body = MessageResponse<ReviewData>),
        (status = 200, description = "Review updated", body = MessageResponse<ReviewData>),
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
) -> ApiResult<axum::response::Response> {
    if !(1..=5).contains(&req.rating) {
        return Err(
            ApiError::validation("La calificación debe ser un entero de 1 a 5").with("field", "rating")
        );
    }
    let comment = agents::optional_text_ml(req.comment, "comment", 2000, true)?;
    let agent = agents::find_agent(&state.db, &id).await?;
    if agent.user_id == auth.user_id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "SELF_REVIEW",
            "No puedes calificarte a ti mismo",
        ));
    }
    let now = db::now();
    let mut tx = state.db.begin().await?;
    // Lock the agent row first: concurrent reviews of one agent are serialised, so the
    // recomputed average always counts every committed review.
    let locked = sqlx::query("UPDATE agent_profiles SET updated_at = updated_at WHERE id = $1")
        .bind(&agent.id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if locked != 1 {
        return Err(agents::agent_not_found());
    }
    let existing: Option<(String, i64)> =
        sqlx::query_as("SELECT id, created_at FROM reviews WHERE user_id = $1 AND agent_id = $2")
            .bind(&auth.user_id)
            .bind(&agent.id)
            .fetch_optional(&mut *tx)
            .await?;
    let (review_id, created_at, created) = match existing {
        Some((rid, created_at)) => {
            sqlx::query("UPDATE reviews SET rating = $1, comment = $2, updated_at = $3 WHERE id = $4")
                .bind(req.rating)
                .bind(&comment)
                .bind(now)
                .bind(&rid)
                .execute(&mut *tx)
                .await?;
            (rid, created_at, false)
        }
        None => {
            let rid = db::new_id();
            sqlx::query(
                "INSERT INTO reviews (id, agent_id, user_id, rating, comment, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6)",
            )
            .bind(&rid)
            .bind(&agent.id)
            .bind(&auth.user_id)
            .bind(req.rating)
            .bind(&comment)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            (rid, now, true)
        }
    };
    agents::recompute_rating(&mut tx, &agent.id).await?;
    let (rating, reviews_count): (f64, i64) =
        sqlx::query_as("SELECT rating, reviews_count FROM agent_profiles WHERE id = $1")
            .bind(&agent.id)
            .fetch_one(&mut *tx)
            .await?;
    let (first_name, last_name): (String, String) =
        sqlx::query_as("SELECT first_name, last_name FROM users WHERE id = $1")
            .bind(&auth.user_id)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    let review = ReviewRow {
        id: review_id,
        rating: req.rating,
        comment,
        created_at,
        updated_at: now,
        first_name,
        last_name,
    }
    .view();
    let (status, message) = if created {
        (StatusCode::CREATED, "Reseña registrada")
    } else {
        (StatusCode::OK, "Reseña actualizada")
    };
    Ok((
        status,
        axum::Json(MessageResponse::new(
            message,
            ReviewData {
                review,
                agent: AgentRating {
                    id: agent.id,
                    rating: agents::round2(rating),
                    reviews_count,
                },
            },
        )),
    )
        .into_response())
}

// ------------------------------------------------------------------------- my agency

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
    let row: Option<agents::AgencyRow> = sqlx::query_as(
        "SELECT g.id, g.name, g.logo, g.city, g.owner_id, g.created_at, g.updated_at \
         FROM agent_profiles a JOIN agencies g ON g.id = a.agency_id WHERE a.user_id = $1",
    )
    .bind(&auth.user_id)
    .fetch_optional(&state.db)
    .await?;
    let agency = row.ok_or_else(|| {
        ApiError::not_found("NO_AGENCY", "No perteneces a ninguna oficina")
    })?;
    Ok(axum::Json(DataResponse::new(agency.brief())))
}
