//! Properties (listings): public list and detail; create, update and delete by the agent, the
//! managers of its office and the platform admin. The rules are in [`crate::domain::properties`].

use axum::{extract::State, http::StatusCode, response::Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    db::sql::fold,
    domain::{
        agents::{self, manages_agent},
        properties::{
            self, ListFilter, PropertyRow, PropertyView, find_property, images, invalid,
            may_list_for, parse_estado, parse_operation, positive, small_count,
        },
        users::Role,
    },
    http::{
        ApiJson, ApiPath, ApiQuery, AuthUser, ErrorBody, Pagination, Paging, SuccessMessage,
        SuccessResponse,
        envelope::json_with,
        error::{ApiError, ApiResult},
        text::{optional_text_ml, patch, required_text},
    },
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_properties, create_property))
        .routes(routes!(get_property, update_property, delete_property))
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
    request_body(content = CreatePropertyRequest, example = crate::routes::examples::create_property),
    description = "The agent itself (default `agentId`), a manager of the agent's office, or the \
        platform admin. Others get 403.",
    responses(
        (status = 201, description = "Created", body = SuccessMessage<PropertyView>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`AGENT_NOT_FOUND`", body = ErrorBody),
        (status = 422, description = "Invalid field (`VALIDATION_ERROR` with `field`)", body = ErrorBody),
    ))]
pub async fn create_property(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(req): ApiJson<CreatePropertyRequest>,
) -> ApiResult<Response> {
    let agent_id = match req.agent_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => agents::find_agent(&state.db, id).await?.id,
        None => {
            match properties::own_agent_id(&state.db, &auth.user_id).await? {
                Some(id) => id,
                None if auth.role == Role::Admin || auth.role == Role::AgencyAdmin => {
                    return Err(invalid("agentId", "El campo agentId es obligatorio").into());
                }
                None => return Err(ApiError::forbidden()),
            }
        }
    };
    if !may_list_for(&state.db, auth.caller(), Some(&agent_id)).await? {
        return Err(ApiError::forbidden());
    }
    let title = required_text(&req.title, "title", 200)?;
    let description = optional_text_ml(req.description, "description", 5000, true)?;
    let operation = parse_operation(&req.operation, "operation")?;
    let price = positive(req.price, "price", 1e12)?;
    let estado = parse_estado(&req.estado)?;
    let city = required_text(&req.city, "city", 100)?;
    let m2 = positive(req.m2, "m2", 1e6)?;
    let bedrooms = small_count(req.bedrooms, "bedrooms")?;
    let bathrooms = small_count(req.bathrooms, "bathrooms")?;
    let images = images(req.images)?;
    let row = properties::insert(
        &state.db,
        PropertyRow {
            id: String::new(),
            agent_id: Some(agent_id),
            title,
            description,
            operation,
            price,
            estado,
            city,
            m2,
            bedrooms,
            bathrooms,
            images,
            created_at: 0,
            updated_at: 0,
        },
    )
    .await?;
    Ok(json_with(
        StatusCode::CREATED,
        SuccessMessage::new("Propiedad creada", row.view()),
    ))
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
    let mut f = ListFilter::default();
    if let Some(op) = q.operation.as_deref().filter(|s| !s.trim().is_empty()) {
        f.operation = Some(
            parse_operation(op, "operation")
                .map_err(|_| query_error("operation", "operation debe ser sale o rent"))?,
        );
    }
    if let Some(e) = q.estado.as_deref().filter(|s| !s.trim().is_empty()) {
        f.estado = Some(parse_estado(e).map_err(|_| query_error("estado", "Estado desconocido"))?);
    }
    f.city = q.city.as_deref().map(fold).filter(|s| !s.is_empty());
    for (v, slot, name) in [
        (q.min_price, &mut f.min_price, "minPrice"),
        (q.max_price, &mut f.max_price, "maxPrice"),
        (q.min_m2, &mut f.min_m2, "minM2"),
        (q.max_m2, &mut f.max_m2, "maxM2"),
    ] {
        if let Some(v) = v {
            if !v.is_finite() || v < 0.0 {
                return Err(query_error(name, "Debe ser un número >= 0"));
            }
            *slot = Some(v);
        }
    }
    f.agent_id = q.agent_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(String::from);
    let (rows, pagination) = properties::page(&state.db, &f, paging).await?;
    Ok(axum::Json(SuccessResponse::new(PropertyListData {
        properties: rows.iter().map(PropertyRow::view).collect(),
        pagination,
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
    request_body(content = UpdatePropertyRequest, example = crate::routes::examples::update_property),
    description = "The listing agent, a manager of its office, or the platform admin (a property \
        whose agent was deleted: platform admin only).",
    responses(
        (status = 200, description = "Updated", body = SuccessMessage<PropertyView>),
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
) -> ApiResult<axum::Json<SuccessMessage<PropertyView>>> {
    let mut p = find_property(&state.db, &id).await?;
    if !may_list_for(&state.db, auth.caller(), p.agent_id.as_deref()).await? {
        return Err(ApiError::forbidden());
    }
    if let Some(a) = req.agent_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        let target = agents::find_agent(&state.db, a).await?;
        if p.agent_id.as_deref() != Some(target.id.as_str()) {
            let allowed = auth.role == Role::Admin
                || manages_agent(&state.db, auth.caller(), target.agency_id.as_deref()).await?;
            if !allowed {
                return Err(ApiError::forbidden());
            }
        }
        p.agent_id = Some(target.id);
    }
    if let Some(v) = &req.title {
        p.title = required_text(v, "title", 200)?;
    }
    if let Some(v) = req.description {
        p.description = optional_text_ml(v, "description", 5000, true)?;
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
        p.city = required_text(v, "city", 100)?;
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
    let row = properties::update(&state.db, &p).await?;
    Ok(axum::Json(SuccessMessage::new("Propiedad actualizada", row.view())))
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
        (status = 200, description = "Deleted", body = SuccessMessage<DeletedProperty>),
        (status = 401, description = "Not authenticated", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 404, description = "`PROPERTY_NOT_FOUND`", body = ErrorBody),
    ))]
pub async fn delete_property(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<SuccessMessage<DeletedProperty>>> {
    let p = find_property(&state.db, &id).await?;
    if !may_list_for(&state.db, auth.caller(), p.agent_id.as_deref()).await? {
        return Err(ApiError::forbidden());
    }
    properties::delete(&state.db, &p.id).await?;
    Ok(axum::Json(SuccessMessage::new(
        "Propiedad eliminada",
        DeletedProperty { id: p.id },
    )))
}
