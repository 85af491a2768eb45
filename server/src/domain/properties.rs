//! Properties (listings) of agents: public list with filters and detail; create, update and
//! delete by the agent, the managers of its office and the platform admin.
//!
//! Fields are kept matching-friendly for the score API: `estado` is the score-core state code
//! (ISO 3166-2:MX without `MX-`, parsed with `score_core::State::parse`, so `Jalisco`, `jal`,
//! `MX-JAL` and `14` are all stored as `JAL`), `operation` is `sale` or `rent`, `price` is MXN
//! and `m2` square metres.

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{
        self, Db,
        sql::{Arg, Sql, fold},
    },
    domain::{
        agents::{images_from_json, manages_agent, to_json_text},
        users::{Caller, Role},
    },
    http::{
        paging::{Pagination, Paging},
        text::optional_url,
    },
};
use crate::domain::error::{DomainError, DomainResult};

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
            images: images_from_json(&self.images),
            agent_id: self.agent_id.clone(),
            created_at: db::to_rfc3339(self.created_at),
            updated_at: db::to_rfc3339(self.updated_at),
        }
    }
}

pub async fn find_property(db: &Db, id: &str) -> DomainResult<PropertyRow> {
    if !db::is_id(id) {
        return Err(DomainError::not_found("PROPERTY_NOT_FOUND", "Propiedad no encontrada"));
    }
    let mut sql = Sql::new(&format!("SELECT {PROPERTY_COLUMNS} FROM properties WHERE id = "));
    sql.bind_text(id);
    sql.query_as::<PropertyRow>()
        .fetch_optional(db)
        .await?
        .ok_or_else(|| DomainError::not_found("PROPERTY_NOT_FOUND", "Propiedad no encontrada"))
}

/// Whether the caller may create, change or delete listings of `agent_id`: the agent itself,
/// a manager of its office, or the platform admin. Listings without agent: platform admin only.
pub async fn may_list_for(db: &Db, caller: Caller<'_>, agent_id: Option<&str>) -> DomainResult<bool> {
    if caller.role == Role::Admin {
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
        Some((user_id, _)) if user_id == caller.user_id => Ok(true),
        Some((_, agency)) => manages_agent(db, caller, agency.as_deref()).await,
    }
}

pub fn invalid(field: &str, message: &str) -> DomainError {
    DomainError::validation(message.to_string()).with("field", field)
}

pub fn parse_operation(v: &str, field: &str) -> DomainResult<String> {
    match v.trim() {
        o @ ("sale" | "rent") => Ok(o.to_string()),
        _ => Err(invalid(field, "operation debe ser sale o rent")),
    }
}

pub fn parse_estado(v: &str) -> DomainResult<String> {
    score_core::State::parse(v)
        .map(|s| s.info().iso.to_string())
        .ok_or_else(|| {
            DomainError::validation(format!("Estado desconocido: {v}"))
                .with("field", "estado")
                .with("detail", "Código ISO 3166-2:MX (CMX, JAL...), clave INEGI o nombre")
        })
}

pub fn positive(v: f64, field: &str, max: f64) -> DomainResult<f64> {
    if v.is_finite() && v > 0.0 && v <= max {
        Ok(v)
    } else {
        Err(invalid(field, &format!("{field} debe ser un número mayor que 0 y como máximo {max}")))
    }
}

pub fn small_count(v: Option<i64>, field: &str) -> DomainResult<Option<i64>> {
    match v {
        Some(n) if !(0..=100).contains(&n) => Err(invalid(field, &format!("{field} debe estar entre 0 y 100"))),
        other => Ok(other),
    }
}

pub fn images(v: Option<Vec<String>>) -> DomainResult<String> {
    let list = v.unwrap_or_default();
    if list.len() > 20 {
        return Err(invalid("images", "Como máximo 20 imágenes"));
    }
    let mut out = Vec::with_capacity(list.len());
    for u in list {
        match optional_url(Some(u), "images")? {
            Some(u) => out.push(u),
            None => return Err(invalid("images", "Las imágenes deben ser URLs http(s)")),
        }
    }
    Ok(to_json_text(&out))
}

/// The agent profile of the user `user_id`, if they have one.
pub async fn own_agent_id(db: &Db, user_id: &str) -> DomainResult<Option<String>> {
    let own: Option<(String,)> = sqlx::query_as("SELECT id FROM agent_profiles WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(db)
        .await?;
    Ok(own.map(|r| r.0))
}

/// Stores a new listing (its `id`, `created_at` and `updated_at` are set here) and returns it.
pub async fn insert(db: &Db, mut p: PropertyRow) -> DomainResult<PropertyRow> {
    p.id = db::new_id();
    p.created_at = db::now();
    p.updated_at = p.created_at;
    sqlx::query(
        "INSERT INTO properties (id, agent_id, title, description, operation, price, estado, city, \
         city_norm, m2, bedrooms, bathrooms, images, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)",
    )
    .bind(&p.id)
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
    .bind(p.created_at)
    .execute(db)
    .await?;
    find_property(db, &p.id).await
}

/// Saves every field of `p` and returns the stored row.
pub async fn update(db: &Db, p: &PropertyRow) -> DomainResult<PropertyRow> {
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
    .execute(db)
    .await?;
    find_property(db, &p.id).await
}

pub async fn delete(db: &Db, id: &str) -> DomainResult<()> {
    sqlx::query("DELETE FROM properties WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Filters of the public list, already checked (`estado` as its code, `city` folded).
#[derive(Debug, Default)]
pub struct ListFilter {
    pub operation: Option<String>,
    pub estado: Option<String>,
    pub city: Option<String>,
    pub min_price: Option<f64>,
    pub max_price: Option<f64>,
    pub min_m2: Option<f64>,
    pub max_m2: Option<f64>,
    pub agent_id: Option<String>,
}

/// A page of listings matching `f`, newest first.
pub async fn page(db: &Db, f: &ListFilter, paging: Paging) -> DomainResult<(Vec<PropertyRow>, Pagination)> {
    let mut w = Sql::new(" WHERE 1 = 1");
    if let Some(op) = &f.operation {
        w.push(" AND operation = ").bind_text(op.clone());
    }
    if let Some(code) = &f.estado {
        w.push(" AND estado = ").bind_text(code.clone());
    }
    if let Some(c) = &f.city {
        w.push(" AND city_norm = ").bind_text(c.clone());
    }
    for (v, col, op) in [
        (f.min_price, "price", ">="),
        (f.max_price, "price", "<="),
        (f.min_m2, "m2", ">="),
        (f.max_m2, "m2", "<="),
    ] {
        if let Some(v) = v {
            w.push(&format!(" AND {col} {op} ")).bind(Arg::Real(v));
        }
    }
    if let Some(a) = &f.agent_id {
        w.push(" AND agent_id = ").bind_text(a.clone());
    }
    let count = Sql {
        text: format!("SELECT COUNT(*) FROM properties{}", w.text),
        args: w.args.clone(),
    };
    let (total,): (i64,) = count.query_as().fetch_one(db).await?;
    let mut page = Sql {
        text: format!("SELECT {PROPERTY_COLUMNS} FROM properties{}", w.text),
        args: w.args.clone(),
    };
    page.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .bind(Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(Arg::Int(paging.offset()));
    let rows = page.query_as::<PropertyRow>().fetch_all(db).await?;
    Ok((rows, paging.pagination(total)))
}

/// `{total, forSale, forRent}` of an agent's listings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertiesCount {
    pub total: i64,
    pub for_sale: i64,
    pub for_rent: i64,
}

/// How many listings an agent has, in all and by operation.
pub async fn count_of_agent(db: &Db, agent_id: &str) -> DomainResult<PropertiesCount> {
    let (total, for_sale, for_rent): (i64, i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN operation = 'sale' THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN operation = 'rent' THEN 1 ELSE 0 END), 0) \
         FROM properties WHERE agent_id = $1",
    )
    .bind(agent_id)
    .fetch_one(db)
    .await?;
    Ok(PropertiesCount {
        total,
        for_sale,
        for_rent,
    })
}

/// A page of an agent's listings (optionally of one operation), newest first.
pub async fn page_of_agent(db: &Db, agent_id: &str, operation: Option<&str>, paging: Paging) -> DomainResult<Vec<PropertyRow>> {
    let mut sql = Sql::new(&format!("SELECT {PROPERTY_COLUMNS} FROM properties WHERE agent_id = "));
    sql.bind_text(agent_id);
    if let Some(op) = operation {
        sql.push(" AND operation = ").bind_text(op);
    }
    sql.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .bind(Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(Arg::Int(paging.offset()));
    Ok(sql.query_as::<PropertyRow>().fetch_all(db).await?)
}
