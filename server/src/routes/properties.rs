//! Properties (listings) of agents: public list with filters and detail; create, update and
//! delete by the agent, the managers of its office and the platform admin.
//!
//! Fields are kept matching-friendly for the score API: `estado` is the score-core state code
//! (ISO 3166-2:MX without `MX-`, parsed with `score_core::State::parse`, so `Jalisco`, `jal`,
//! `MX-JAL` and `14` are all stored as `JAL`), `operation` is `sale` or `rent`, `price` is MXN
//! and `m2` square metres.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    agents::{
        self, Arg, MessageResponse, Pagination, Paging, Sql, SuccessResponse, fold, manages_agent,
        patch,
    },
    db::{self, Db},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser},
    models::Role,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_properties, create_property))
        .routes(routes!(get_property, update_property, delete_property))
}

pub const PROPERTY_COLUMNS: &str = "id, agent_id, title, description, operation, price, estado, \
    city, m2, bedrooms, bathrooms, images, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PropertyRow {
    pub id: String,
    pub agent_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub operation: String,
    pub price: f64,
    pub estado: String,
    pub city: String,
    pub m2: f64,
    pub bedrooms: Option<i64>,
    pub bathrooms: Option<i64>,
    pub images: String,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A property.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyView {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    /// `sale` or `rent`.
    #[schema(example = "sale")]
    pub operation: String,
    /// MXN (sale price, or monthly rent).
    pub price: f64,
    /// State code of the score profile (ISO 3166-2:MX without `MX-`).
    #[schema(example = "JAL")]
    pub estado: String,
    /// Official name of the state.
    #[schema(example = "Jalisco")]
    pub estado_nombre: String,
    pub city: String,
    /// Square metres.
    pub m2: f64,
    pub bedrooms: Option<i64>,
    pub bathrooms: Option<i64>,
    pub images: Vec<String>,
    /// The listing agent; null once the agent was deleted.
    pub agent_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl PropertyRow {
    pub fn view(&self) -> PropertyView {
        PropertyView {
            id: self.id.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            operation: self.operation.clone(),
            price: self.price,
            estado: self.estado.clone(),
            estado_nombre: score_core::State::parse(&self.estado)
                .map(|s| s.info().nombre.to_string())
                .unwrap_or_default(),
            city: self.city.clone(),
            m2: self.m2,
            bedrooms: self.bedrooms,
            bathrooms: self.bathrooms,
            images: agents::images_from_json(&self.images),
            agent_id: self.agent_id.clone(),
            created_at: db::to_rfc3339(self.created_at),
            updated_at: db::to_rfc3339(self.updated_at),
        }
    }
}

pub async fn find_property(db: &Db, id: &str) -> ApiResult<PropertyRow> {
    let mut sql = Sql::new(&format!("SELECT {PROPERTY_COLUMNS} FROM properties WHERE id = "));
    sql.bind_text(id);
    sql.query_as::<PropertyRow>()
        .fetch_optional(db)
        .await?
        .ok_or_else(|| ApiError::not_found("PROPERTY_NOT_FOUND", "Propiedad no encontrada"))
}

/// Whether the caller may create, change or delete listings of `agent_id`: the agent itself,
/// a manager of its office, or the platform admin. Listings without agent: platform admin only.
async fn may_list_for(db: &Db, auth: &AuthUser, agent_id: Option<&str>) -> ApiResult<bool> {
    if auth.role == Role::Admin {
        return Ok(true);
    }
    let Some(agent_id) = agent_id else {
        return Ok(false);
    };
    let row: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT user_id, agency_id FROM agent_profiles WHERE id = $1")
            .bind(agent_id)
            .fetch_optional(db)
            .await?;
    match row {
        None => Ok(false),
        Some((user_id, _)) if user_id == auth.user_id => Ok(true),
        Some((_, agency)) => manages_agent(db, auth, agency.as_deref()).await,
    }
}

fn invalid(field: &str, message: &str) -> ApiError {
    ApiError::validation(message.to_string()).with("field", field)
}

pub fn parse_operation(v: &str, field: &str) -> ApiResult<String> {
    match v.trim() {
        o @ ("sale" | "rent") => Ok(o.to_string()),
        _ => Err(invalid(field, "operation debe ser sale o rent")),
    }
}

pub fn parse_estado(v: &str) -> ApiResult<String> {
    score_core::State::parse(v)
        .map(|s| s.info().iso.to_string())
        .ok_or_else(|| {
            ApiError::validation(format!("Estado desconocido: {v}"))
                .with("field", "estado")
                .with("detail", "Código ISO 3166-2:MX (CMX, JAL...), clave INEGI o nombre")
        })
}

fn positive(v: f64, field: &str, max: f64) -> ApiResult<f64> {
    if v.is_finite() && v > 0.0 && v <= max {
        Ok(v)
    } else {
        Err(invalid(field, &format!("{field} debe ser un número mayor que 0 y como máximo {max}")))
    }
}

fn small_count(v: Option<i64>, field: &str) -> ApiResult<Option<i64>> {
    match v {
        Some(n) if !(0..=100).contains(&n) => Err(invalid(field, &format!("{field} debe estar entre 0 y 100"))),
        other => Ok(other),
    }
}

fn images(v: Option<Vec<String>>) -> ApiResult<String> {
    let list = v.unwrap_or_default();
    if list.len() > 20 {
        return Err(invalid("images", "Como máximo 20 imágenes"));
    }
    let mut out = Vec::with_capacity(list.len());
    for u in list {
        match agents::optional_url(Some(u), "images")? {
            Some(u) => out.push(u),
            None => return Err(invalid("images", "Las imágenes deben ser URLs http(s)")),
        }
    }
    Ok(agents::to_json_text(&out))
}

/// Body of a new property.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePropertyRequest {
    pub title: String,
    pub description: Option<String>,
    /// `sale` or `rent`.
    pub operation: String,
    /// MXN, > 0.
    pub price: f64,
    /// State: ISO 3166-2:MX code with or without `MX-`, INEGI key or name (stored as the code).
    pub estado: String,
    pub city: String,
    /// Square metres, > 0.
    pub m2: f64,
    pub bedrooms: Option<i64>,
    pub bathrooms: Option<i64>,
    /// Up to 20 http(s) URLs.
    pub images: Option<Vec<String>>,
    /// The listing agent. Default: the caller's own agent profile.
    pub agent_id: Option<String>,
}

/// Creates a property.
#[utoipa::path(post, path = "/api/properties", tag = "properties",
    security(("bearer" = [])),
    request_body = CreatePropertyRequest,
    description = "The agent itself (default `agentId`), a manager of the agent's office, or the \
        platform admin. Others get 403.",
    responses(
        (status = 201, description = "Created", body = MessageResponse<PropertyView>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field (`VALIDATION_ERROR` with `field`)", body = ErrorBody),
    ))]
pub async fn create_property(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreatePropertyRequest>,
) -> ApiResult<axum::response::Response> {
    let agent_id = match req.agent_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => agents::find_agent(&state.db, id).await?.id,
        None => {
            let own: Option<(String,)> =
                sqlx::query_as("SELECT id FROM agent_profiles WHERE user_id = $1")
                    .bind(&auth.user_id)
                    .fetch_optional(&state.db)
                    .await?;
            match own {
                Some((id,)) => id,
                None if auth.role == Role::Admin || auth.role == Role::AgencyAdmin => {
                    return Err(invalid("agentId", "El campo agentId es obligatorio"));
                }
                None => return Err(ApiError::forbidden()),
            }
        }
    };
    if !may_list_for(&state.db, &auth, Some(&agent_id)).await? {
        return Err(ApiError::forbidden());
    }
    let title = agents::required_text(&req.title, "title", 200)?;
    let description = agents::optional_text_ml(req.description, "description", 5000, true)?;
    let operation = parse_operation(&req.operation, "operation")?;
    let price = positive(req.price, "price", 1e12)?;
    let estado = parse_estado(&req.estado)?;
    let city = agents::required_text(&req.city, "city", 100)?;
    let m2 = positive(req.m2, "m2", 1e6)?;
    let bedrooms = small_count(req.bedrooms, "bedrooms")?;
    let bathrooms = small_count(req.bathrooms, "bathrooms")?;
    let images = images(req.images)?;
    let id = db::new_id();
    let now = db::now();
    sqlx::query(
        "INSERT INTO properties (id, agent_id, title, description, operation, price, estado, city, \
         city_norm, m2, bedrooms, bathrooms, images, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)",
    )
    .bind(&id)
    .bind(&agent_id)
    .bind(&title)
    .bind(&description)
    .bind(&operation)
    .bind(price)
    .bind(&estado)
    .bind(&city)
    .bind(fold(&city))
    .bind(m2)
    .bind(bedrooms)
    .bind(bathrooms)
    .bind(&images)
    .bind(now)
    .execute(&state.db)
    .await?;
    let row = find_property(&state.db, &id).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(MessageResponse::new("Propiedad creada", row.view())),
    )
        .into_response())
}

/// Query of the property list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PropertyQuery {
    /// Default 1.
    pub page: Option<i64>,
    /// Default 10, at most 100.
    pub limit: Option<i64>,
    /// `sale` or `rent`.
    pub operation: Option<String>,
    /// State (any form `score_core::State::parse` accepts).
    pub estado: Option<String>,
    /// Whole city name, case- and accent-insensitive.
    pub city: Option<String>,
    pub min_price: Option<f64>,
    pub max_price: Option<f64>,
    pub min_m2: Option<f64>,
    pub max_m2: Option<f64>,
    /// Only this agent's properties.
    pub agent_id: Option<String>,
}

/// `data` of the property list.
#[derive(Debug, Serialize, ToSchema)]
pub struct PropertyListData {
    pub properties: Vec<PropertyView>,
    pub pagination: Pagination,
}

fn query_error(field: &str, message: &str) -> ApiError {
    ApiError::bad_request("INVALID_QUERY", message.to_string()).with("field", field)
}

/// Public list of properties, newest first.
#[utoipa::path(get, path = "/api/properties", tag = "properties",
    params(PropertyQuery),
    description = "Public. Filters: `operation` (sale/rent), `estado` (state in any form \
        score-core accepts; stored and returned as the ISO code), `city` (whole name, case- and \
        accent-insensitive), `minPrice`/`maxPrice`, `minM2`/`maxM2` (inclusive), `agentId`. \
        `page` >= 1, `limit` 1..=100 (defaults 1/10).",
    responses(
        (status = 200, description = "A page of properties", body = SuccessResponse<PropertyListData>),
        (status = 400, description = "`INVALID_QUERY`, `INVALID_PAGINATION`", body = ErrorBody),
    ))]
pub async fn list_properties(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<PropertyQuery>,
) -> ApiResult<axum::Json<SuccessResponse<PropertyListData>>> {
    let paging = Paging::new(q.page, q.limit)?;
    let mut f = Sql::new(" WHERE 1 = 1");
    if let Some(op) = q.operation.as_deref().filter(|s| !s.trim().is_empty()) {
        let op = parse_operation(op, "operation")
            .map_err(|_| query_error("operation", "operation debe ser sale o rent"))?;
        f.push(" AND operation = ").bind_text(op);
    }
    if let Some(e) = q.estado.as_deref().filter(|s| !s.trim().is_empty()) {
        let code = parse_estado(e).map_err(|_| query_error("estado", "Estado desconocido"))?;
        f.push(" AND estado = ").bind_text(code);
    }
    if let Some(c) = q.city.as_deref().map(fold).filter(|s| !s.is_empty()) {
        f.push(" AND city_norm = ").bind_text(c);
    }
    for (v, col, op, name) in [
        (q.min_price, "price", ">=", "minPrice"),
        (q.max_price, "price", "<=", "maxPrice"),
        (q.min_m2, "m2", ">=", "minM2"),
        (q.max_m2, "m2", "<=", "maxM2"),
    ] {
        if let Some(v) = v {
            if !v.is_finite() || v < 0.0 {
                return Err(query_error(name, "Debe ser un número >= 0"));
            }
            f.push(&format!(" AND {col} {op} ")).bind(Arg::Real(v));
        }
    }
    if let Some(a) = q.agent_id.as_deref().filter(|s| !s.trim().is_empty()) {
        f.push(" AND agent_id = ").bind_text(a.trim());
    }
    let count = Sql {
        text: format!("SELECT COUNT(*) FROM properties{}", f.text),
        args: f.args.clone(),
    };
    let (total,): (i64,) = count.query_as().fetch_one(&state.db).await?;
    let mut page = Sql {
        text: format!("SELECT {PROPERTY_COLUMNS} FROM properties{}", f.text),
        args: f.args.clone(),
    };
    page.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .bind(Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(Arg::Int(paging.offset()));
    let rows = page.query_as::<PropertyRow>().fetch_all(&state.db).await?;
    Ok(axum::Json(SuccessResponse::new(PropertyListData {
        properties: rows.iter().map(PropertyRow::view).collect(),
        pagination: paging.pagination(total),
    })))
}

/// A property.
#[utoipa::path(get, path = "/api/properties/{id}", tag = "properties",
    params(("id" = String, Path, description = "Property id")),
    responses(
        (status = 200, description = "The property", body = SuccessResponse<PropertyView>),
        (status = 404, description = "`PROPERTY_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn get_property(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<SuccessResponse<PropertyView>>> {
    Ok(axum::Json(SuccessResponse::new(
        find_property(&state.db, &id).await?.view(),
    )))
}

/// Changes to a property (absent fields are kept; null clears an optional one).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePropertyRequest {
    pub title: Option<String>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    pub operation: Option<String>,
    pub price: Option<f64>,
    pub estado: Option<String>,
    pub city: Option<String>,
    pub m2: Option<f64>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<i64>)]
    pub bedrooms: Option<Option<i64>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<i64>)]
    pub bathrooms: Option<Option<i64>>,
    pub images: Option<Vec<String>>,
    /// Move the listing to another agent: the caller must also be allowed to list for that
    /// agent (a manager of its office, or the platform admin).
    pub agent_id: Option<String>,
}

/// Updates a property.
#[utoipa::path(put, path = "/api/properties/{id}", tag = "properties",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Property id")),
    request_body = UpdatePropertyRequest,
    description = "The listing agent, a manager of its office, or the platform admin (a property \
        whose agent was deleted: platform admin only).",
    responses(
        (status = 200, description = "Updated", body = MessageResponse<PropertyView>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`PROPERTY_NOT_FOUND`, `AGENT_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field", body = ErrorBody),
    ))]
pub async fn update_property(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<UpdatePropertyRequest>,
) -> ApiResult<axum::Json<MessageResponse<PropertyView>>> {
    let mut p = find_property(&state.db, &id).await?;
    if !may_list_for(&state.db, &auth, p.agent_id.as_deref()).await? {
        return Err(ApiError::forbidden());
    }
    if let Some(a) = req.agent_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        let target = agents::find_agent(&state.db, a).await?;
        if p.agent_id.as_deref() != Some(target.id.as_str()) {
            let allowed = auth.role == Role::Admin
                || manages_agent(&state.db, &auth, target.agency_id.as_deref()).await?;
            if !allowed {
                return Err(ApiError::forbidden());
            }
        }
        p.agent_id = Some(target.id);
    }
    if let Some(v) = &req.title {
        p.title = agents::required_text(v, "title", 200)?;
    }
    if let Some(v) = req.description {
        p.description = agents::optional_text_ml(v, "description", 5000, true)?;
    }
    if let Some(v) = &req.operation {
        p.operation = parse_operation(v, "operation")?;
    }
    if let Some(v) = req.price {
        p.price = positive(v, "price", 1e12)?;
    }
    if let Some(v) = &req.estado {
        p.estado = parse_estado(v)?;
    }
    if let Some(v) = &req.city {
        p.city = agents::required_text(v, "city", 100)?;
    }
    if let Some(v) = req.m2 {
        p.m2 = positive(v, "m2", 1e6)?;
    }
    if let Some(v) = req.bedrooms {
        p.bedrooms = small_count(v, "bedrooms")?;
    }
    if let Some(v) = req.bathrooms {
        p.bathrooms = small_count(v, "bathrooms")?;
    }
    if req.images.is_some() {
        p.images = images(req.images)?;
    }
    sqlx::query(
        "UPDATE properties SET agent_id = $1, title = $2, description = $3, operation = $4, \
         price = $5, estado = $6, city = $7, city_norm = $8, m2 = $9, bedrooms = $10, \
         bathrooms = $11, images = $12, updated_at = $13 WHERE id = $14",
    )
    .bind(&p.agent_id)
    .bind(&p.title)
    .bind(&p.description)
    .bind(&p.operation)
    .bind(p.price)
    .bind(&p.estado)
    .bind(&p.city)
    .bind(fold(&p.city))
    .bind(p.m2)
    .bind(p.bedrooms)
    .bind(p.bathrooms)
    .bind(&p.images)
    .bind(db::now())
    .bind(&p.id)
    .execute(&state.db)
    .await?;
    let row = find_property(&state.db, &id).await?;
    Ok(axum::Json(MessageResponse::new("Propiedad actualizada", row.view())))
}

/// `data` of the delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeletedProperty {
    pub id: String,
}

/// Deletes a property.
#[utoipa::path(delete, path = "/api/properties/{id}", tag = "properties",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Property id")),
    description = "The listing agent, a manager of its office, or the platform admin.",
    responses(
        (status = 200, description = "Deleted", body = MessageResponse<DeletedProperty>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`PROPERTY_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn delete_property(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<MessageResponse<DeletedProperty>>> {
    let p = find_property(&state.db, &id).await?;
    if !may_list_for(&state.db, &auth, p.agent_id.as_deref()).await? {
        return Err(ApiError::forbidden());
    }
    sqlx::query("DELETE FROM properties WHERE id = $1")
        .bind(&p.id)
        .execute(&state.db)
        .await?;
    Ok(axum::Json(MessageResponse::new(
        "Propiedad eliminada",
        DeletedProperty { id: p.id },
    )))
}
