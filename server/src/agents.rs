//! The agents area (issue 6): offices (agencies) and who manages them, agent profiles, their
//! properties and reviews. Shared by `routes::agencies`, `routes::agents`, `routes::properties`
//! and the `seed` subcommand.
//!
//! Authorization model (documented in server/README.md and in the OpenAPI descriptions):
//! - A user **manages an office** when they own it or are one of its co-admins, and have role
//!   `agency_admin` (or are its owner with role `admin`); the platform `admin` manages every office.
//! - An agent is managed by whoever manages its office; an unassigned agent only by the
//!   platform admin.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    error::{ApiError, ApiResult},
    extract::AuthUser,
    models::Role,
};

/// Largest `limit` of every paged list.
pub const MAX_LIMIT: i64 = 100;
/// Default page size (spec 8).
pub const DEFAULT_LIMIT: i64 = 10;
/// Reviews shown in the agent detail (newest first); `reviewsCount` gives the total.
pub const DETAIL_REVIEWS: i64 = 20;

// ------------------------------------------------------------------------- text folding

/// Lower-cases, removes accents and diacritics of Latin letters and collapses white space:
/// the form stored in the `*_norm` / `search_text` columns and applied to filter values, so
/// `Querétaro`, `QUERETARO` and `queretaro` match.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for ch in text.trim().chars() {
        if ch.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        let mapped = match ch {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => 'a',
            'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'u',
            'ñ' | 'Ñ' => 'n',
            'ç' | 'Ç' => 'c',
            c => {
                out.extend(c.to_lowercase());
                continue;
            }
        };
        out.push(mapped);
    }
    out
}

/// `%term%` for `LIKE ... ESCAPE '\'`, with `%`, `_` and `\` of the term escaped.
pub fn like_pattern(folded: &str) -> String {
    let mut p = String::with_capacity(folded.len() + 2);
    p.push('%');
    for c in folded.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

// ------------------------------------------------------------------------- dynamic SQL

/// A bound value of [`Sql`].
#[derive(Debug, Clone)]
pub enum Arg {
    Text(String),
    Int(i64),
    Real(f64),
    /// Written as the literal `NULL` (an untyped NULL fits any column on both databases).
    Null,
}

/// SQL text built from fixed fragments with `$n` placeholders (valid on SQLite and
/// PostgreSQL; `QueryBuilder<Any>` would emit `?`, which PostgreSQL rejects). Every value is
/// bound, never spliced.
#[derive(Debug, Default, Clone)]
pub struct Sql {
    pub text: String,
    pub args: Vec<Arg>,
}

impl Sql {
    pub fn new(text: &str) -> Self {
        Sql {
            text: text.to_string(),
            args: Vec::new(),
        }
    }

    pub fn push(&mut self, fragment: &str) -> &mut Self {
        self.text.push_str(fragment);
        self
    }

    pub fn bind(&mut self, arg: Arg) -> &mut Self {
        if let Arg::Null = arg {
            self.text.push_str("NULL");
            return self;
        }
        self.args.push(arg);
        self.text.push('$');
        self.text.push_str(&self.args.len().to_string());
        self
    }

    pub fn bind_text(&mut self, v: impl Into<String>) -> &mut Self {
        self.bind(Arg::Text(v.into()))
    }

    pub fn query_as<T>(&self) -> sqlx::query::QueryAs<'_, sqlx::Any, T, sqlx::any::AnyArguments>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        let mut q = sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(self.text.clone()));
        for a in &self.args {
            q = match a {
                Arg::Text(s) => q.bind(s.clone()),
                Arg::Int(i) => q.bind(*i),
                Arg::Real(f) => q.bind(*f),
                Arg::Null => q,
            };
        }
        q
    }

    pub fn query(&self) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(self.text.clone()));
        for a in &self.args {
            q = match a {
                Arg::Text(s) => q.bind(s.clone()),
                Arg::Int(i) => q.bind(*i),
                Arg::Real(f) => q.bind(*f),
                Arg::Null => q,
            };
        }
        q
    }
}

// ------------------------------------------------------------------------- paging

/// `page`/`limit` query parameters (defaults 1 and 10, `limit` at most 100).
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    pub page: i64,
    pub limit: i64,
}

impl Paging {
    /// Validates `page` >= 1 and 1 <= `limit` <= [`MAX_LIMIT`]; anything else is
    /// 400 `INVALID_PAGINATION` (never silently clamped).
    pub fn new(page: Option<i64>, limit: Option<i64>) -> ApiResult<Paging> {
        let page = page.unwrap_or(1);
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=1_000_000).contains(&page) {
            return Err(ApiError::bad_request(
                "INVALID_PAGINATION",
                "El parámetro page debe ser un entero entre 1 y 1000000",
            )
            .with("field", "page"));
        }
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::bad_request(
                "INVALID_PAGINATION",
                format!("El parámetro limit debe ser un entero entre 1 y {MAX_LIMIT}"),
            )
            .with("field", "limit"));
        }
        Ok(Paging { page, limit })
    }

    pub fn offset(&self) -> i64 {
        (self.page - 1) * self.limit
    }

    pub fn pagination(&self, total: i64) -> Pagination {
        Pagination {
            total,
            per_page: self.limit,
            current_page: self.page,
            last_page: if total == 0 {
                1
            } else {
                (total + self.limit - 1) / self.limit
            },
        }
    }
}

/// Pagination object of spec 2.2. `lastPage` is 1 for an empty result.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub total: i64,
    pub per_page: i64,
    pub current_page: i64,
    pub last_page: i64,
}

/// `{"success": true, "data": ...}`: the envelope of the public agent endpoints (spec 4),
/// used by the whole agents area for reads.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuccessResponse<T> {
    /// Always `true`.
    pub success: bool,
    pub data: T,
}

impl<T> SuccessResponse<T> {
    pub fn new(data: T) -> Self {
        SuccessResponse {
            success: true,
            data,
        }
    }
}

/// `{"success": true, "message": ..., "data": ...}`: writes of the agents area other than
/// agent creation.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageResponse<T> {
    /// Always `true`.
    pub success: bool,
    pub message: String,
    pub data: T,
}

impl<T> MessageResponse<T> {
    pub fn new(message: &str, data: T) -> Self {
        MessageResponse {
            success: true,
            message: message.to_string(),
            data,
        }
    }
}

// ------------------------------------------------------------------------- input helpers

/// For PATCH-like bodies: absent → `None`, `null` → `Some(None)`, value → `Some(Some(v))`.
pub fn patch<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Some(Option::deserialize(d)?))
}

fn field_error(field: &str, message: impl Into<String>) -> ApiError {
    ApiError::validation(message).with("field", field)
}

/// A required text (trimmed, 1..=max characters, no control characters).
pub fn required_text(v: &str, field: &str, max: usize) -> ApiResult<String> {
    let v = v.trim();
    if v.is_empty() {
        return Err(field_error(field, format!("El campo {field} es obligatorio")));
    }
    check_text(v, field, max, false)?;
    Ok(v.to_string())
}

fn check_text(v: &str, field: &str, max: usize, multiline: bool) -> ApiResult<()> {
    if v.chars().count() > max {
        return Err(field_error(
            field,
            format!("El campo {field} admite como máximo {max} caracteres"),
        ));
    }
    if v
        .chars()
        .any(|c| c.is_control() && !(multiline && (c == '\n' || c == '\r' || c == '\t')))
    {
        return Err(field_error(
            field,
            format!("El campo {field} contiene caracteres no permitidos"),
        ));
    }
    Ok(())
}

/// An optional text: empty or `null` clears it.
pub fn optional_text(v: Option<String>, field: &str, max: usize) -> ApiResult<Option<String>> {
    optional_text_ml(v, field, max, false)
}

pub fn optional_text_ml(
    v: Option<String>,
    field: &str,
    max: usize,
    multiline: bool,
) -> ApiResult<Option<String>> {
    match v.map(|s| s.trim().to_string()) {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) => {
            check_text(&s, field, max, multiline)?;
            Ok(Some(s))
        }
    }
}

/// An optional absolute http(s) URL (at most 500 characters).
pub fn optional_url(v: Option<String>, field: &str) -> ApiResult<Option<String>> {
    let Some(s) = optional_text(v, field, 500)? else {
        return Ok(None);
    };
    match url::Url::parse(&s) {
        Ok(u) if (u.scheme() == "http" || u.scheme() == "https") && u.host().is_some() => {
            Ok(Some(s))
        }
        _ => Err(field_error(
            field,
            format!("El campo {field} debe ser una URL http(s) válida"),
        )),
    }
}

/// An optional date `YYYY-MM-DD` (a real calendar date between 1900 and 2100).
pub fn optional_date(v: Option<String>, field: &str) -> ApiResult<Option<String>> {
    let Some(s) = optional_text(v, field, 10)? else {
        return Ok(None);
    };
    let bad = || field_error(field, format!("El campo {field} debe ser una fecha YYYY-MM-DD"));
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(bad());
    }
    let y: i32 = s[0..4].parse().map_err(|_| bad())?;
    let m: u8 = s[5..7].parse().map_err(|_| bad())?;
    let d: u8 = s[8..10].parse().map_err(|_| bad())?;
    let month = time::Month::try_from(m).map_err(|_| bad())?;
    if !(1900..=2100).contains(&y) || time::Date::from_calendar_date(y, month, d).is_err() {
        return Err(bad());
    }
    Ok(Some(s))
}

// ------------------------------------------------------------------------- offices

/// True when the caller manages the office: platform admin, or role agency_admin (or the
/// owner with role admin) owning it or assigned to it as co-admin.
pub async fn manages(db: &Db, auth: &AuthUser, agency_id: &str) -> ApiResult<bool> {
    if auth.role == Role::Admin {
        return Ok(true);
    }
    if auth.role != Role::AgencyAdmin {
        return Ok(false);
    }
    let row: Option<(i64,)> = sqlx::query_as(
        "SELECT 1 FROM agencies WHERE id = $1 AND owner_id = $2 \
         UNION ALL SELECT 1 FROM agency_admins WHERE agency_id = $1 AND user_id = $2",
    )
    .bind(agency_id)
    .bind(&auth.user_id)
    .fetch_optional(db)
    .await?;
    Ok(row.is_some())
}

/// Ids of the offices a user owns (oldest first) and of those they co-administer.
pub async fn managed_offices(db: &Db, user_id: &str) -> ApiResult<(Vec<String>, Vec<String>)> {
    let owned: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM agencies WHERE owner_id = $1 ORDER BY created_at, id")
            .bind(user_id)
            .fetch_all(db)
            .await?;
    let co: Vec<(String,)> = sqlx::query_as(
        "SELECT agency_id FROM agency_admins WHERE user_id = $1 ORDER BY created_at, agency_id",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok((
        owned.into_iter().map(|r| r.0).collect(),
        co.into_iter().map(|r| r.0).collect(),
    ))
}

/// A row of `agencies`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgencyRow {
    pub id: String,
    pub name: String,
    pub logo: Option<String>,
    pub city: Option<String>,
    pub owner_id: String,
    pub created_at: i64,
    pub updated_at: i64,
}

pub async fn find_agency(db: &Db, id: &str) -> ApiResult<AgencyRow> {
    sqlx::query_as::<_, AgencyRow>(
        "SELECT id, name, logo, city, owner_id, created_at, updated_at FROM agencies WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await?
    .ok_or_else(agency_not_found)
}

pub fn agency_not_found() -> ApiError {
    ApiError::not_found("AGENCY_NOT_FOUND", "Oficina no encontrada")
}

pub fn agent_not_found() -> ApiError {
    ApiError::not_found("AGENT_NOT_FOUND", "Agente no encontrado")
}

pub fn external_id_taken() -> ApiError {
    ApiError::bad_request(
        "EXTERNAL_ID_ALREADY_EXISTS",
        "El externalId ya está asignado a otro agente",
    )
}

/// `{id, name, logo, city}` of an office.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AgencyBrief {
    pub id: String,
    pub name: String,
    pub logo: Option<String>,
    pub city: Option<String>,
}

impl AgencyRow {
    pub fn brief(&self) -> AgencyBrief {
        AgencyBrief {
            id: self.id.clone(),
            name: self.name.clone(),
            logo: self.logo.clone(),
            city: self.city.clone(),
        }
    }
}

// ------------------------------------------------------------------------- agents

/// An agent profile joined with its user and office.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentRow {
    pub id: String,
    pub user_id: String,
    pub agency_id: Option<String>,
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
    pub social_media: String,
    pub rating: f64,
    pub reviews_count: i64,
    pub is_active: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub user_phone: Option<String>,
    pub agency_name: Option<String>,
    pub agency_logo: Option<String>,
    pub agency_city: Option<String>,
    pub properties_count: i64,
}

/// SELECT list and FROM clause of [`AgentRow`] (alias `a` = agent_profiles).
pub const AGENT_SELECT: &str = "SELECT a.id, a.user_id, a.agency_id, a.external_id, a.image, \
    a.city, a.category, a.company, a.bio, a.phone1, a.phone2, a.office_phone, a.mobile_phone, \
    a.fax, a.website, a.member_since, a.broker_address, a.social_media, a.rating, \
    a.reviews_count, a.is_active, a.created_at, a.updated_at, u.first_name, u.last_name, \
    u.email, u.phone AS user_phone, g.name AS agency_name, g.logo AS agency_logo, \
    g.city AS agency_city, \
    (SELECT COUNT(*) FROM properties p WHERE p.agent_id = a.id) AS properties_count \
    FROM agent_profiles a JOIN users u ON u.id = a.user_id \
    LEFT JOIN agencies g ON g.id = a.agency_id";

pub async fn find_agent(db: &Db, id: &str) -> ApiResult<AgentRow> {
    let mut sql = Sql::new(AGENT_SELECT);
    sql.push(" WHERE a.id = ").bind_text(id);
    sql.query_as::<AgentRow>()
        .fetch_optional(db)
        .await?
        .ok_or_else(agent_not_found)
}

/// Whether the caller may manage this agent (update every field, move, delete): the platform
/// admin, or a manager of the agent's office. Nobody else manages an unassigned agent.
pub async fn manages_agent(db: &Db, auth: &AuthUser, agency_id: Option<&str>) -> ApiResult<bool> {
    if auth.role == Role::Admin {
        return Ok(true);
    }
    match agency_id {
        Some(a) => manages(db, auth, a).await,
        None => Ok(false),
    }
}

/// Social media links (spec 2.2); every value an http(s) URL or null.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SocialMedia {
    pub facebook: Option<String>,
    pub instagram: Option<String>,
    pub linkedin: Option<String>,
    pub twitter: Option<String>,
}

impl SocialMedia {
    pub fn validated(self) -> ApiResult<SocialMedia> {
        Ok(SocialMedia {
            facebook: optional_url(self.facebook, "socialMedia.facebook")?,
            instagram: optional_url(self.instagram, "socialMedia.instagram")?,
            linkedin: optional_url(self.linkedin, "socialMedia.linkedin")?,
            twitter: optional_url(self.twitter, "socialMedia.twitter")?,
        })
    }
}

/// An item of the public agent list (spec 2.2) plus `agencyId`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentListItem {
    pub id: String,
    /// First and last name of the agent's user.
    pub name: String,
    pub email: String,
    /// The user's phone, else mobilePhone, else phone1.
    pub phone: Option<String>,
    pub image: Option<String>,
    pub external_id: Option<String>,
    pub city: Option<String>,
    pub company: Option<String>,
    pub category: Option<String>,
    pub rating: f64,
    pub properties_count: i64,
    pub is_active: bool,
    pub user_id: String,
    /// `agency` when the agent belongs to an office, `independent` otherwise.
    #[schema(example = "agency")]
    pub r#type: &'static str,
    pub agency_id: Option<String>,
}

/// `{firstName, lastName, email, phone, image}` of the agent detail.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentUser {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub image: Option<String>,
}

/// `{id, name, logo}` of the agent detail.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AgentAgency {
    pub id: String,
    pub name: String,
    pub logo: Option<String>,
}

/// The agent object of spec 2.2 (detail, update) with every profile field.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentView {
    pub id: String,
    pub user_id: String,
    pub agency_id: Option<String>,
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
    /// YYYY-MM-DD.
    pub member_since: Option<String>,
    pub broker_address: Option<String>,
    pub social_media: SocialMedia,
    /// Average review rating, 0 to 5 (0 without reviews), two decimals.
    pub rating: f64,
    pub reviews_count: i64,
    pub properties_count: i64,
    pub is_active: bool,
    pub created_at: String,
    pub updated_at: String,
    pub user: AgentUser,
    pub agency: Option<AgentAgency>,
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl AgentRow {
    pub fn phone(&self) -> Option<String> {
        self.user_phone
            .clone()
            .or_else(|| self.mobile_phone.clone())
            .or_else(|| self.phone1.clone())
    }

    pub fn list_item(&self) -> AgentListItem {
        AgentListItem {
            id: self.id.clone(),
            name: format!("{} {}", self.first_name, self.last_name),
            email: self.email.clone(),
            phone: self.phone(),
            image: self.image.clone(),
            external_id: self.external_id.clone(),
            city: self.city.clone(),
            company: self.company.clone(),
            category: self.category.clone(),
            rating: round2(self.rating),
            properties_count: self.properties_count,
            is_active: self.is_active != 0,
            user_id: self.user_id.clone(),
            r#type: if self.agency_id.is_some() {
                "agency"
            } else {
                "independent"
            },
            agency_id: self.agency_id.clone(),
        }
    }

    pub fn social(&self) -> SocialMedia {
        serde_json::from_str(&self.social_media).unwrap_or_default()
    }

    pub fn agency_brief(&self) -> Option<AgencyBrief> {
        match (&self.agency_id, &self.agency_name) {
            (Some(id), Some(name)) => Some(AgencyBrief {
                id: id.clone(),
                name: name.clone(),
                logo: self.agency_logo.clone(),
                city: self.agency_city.clone(),
            }),
            _ => None,
        }
    }

    pub fn view(&self) -> AgentView {
        AgentView {
            id: self.id.clone(),
            user_id: self.user_id.clone(),
            agency_id: self.agency_id.clone(),
            external_id: self.external_id.clone(),
            image: self.image.clone(),
            city: self.city.clone(),
            category: self.category.clone(),
            company: self.company.clone(),
            bio: self.bio.clone(),
            phone1: self.phone1.clone(),
            phone2: self.phone2.clone(),
            office_phone: self.office_phone.clone(),
            mobile_phone: self.mobile_phone.clone(),
            fax: self.fax.clone(),
            website: self.website.clone(),
            member_since: self.member_since.clone(),
            broker_address: self.broker_address.clone(),
            social_media: self.social(),
            rating: round2(self.rating),
            reviews_count: self.reviews_count,
            properties_count: self.properties_count,
            is_active: self.is_active != 0,
            created_at: db::to_rfc3339(self.created_at),
            updated_at: db::to_rfc3339(self.updated_at),
            user: AgentUser {
                first_name: self.first_name.clone(),
                last_name: self.last_name.clone(),
                email: self.email.clone(),
                phone: self.phone(),
                image: self.image.clone(),
            },
            agency: match (&self.agency_id, &self.agency_name) {
                (Some(id), Some(name)) => Some(AgentAgency {
                    id: id.clone(),
                    name: name.clone(),
                    logo: self.agency_logo.clone(),
                }),
                _ => None,
            },
        }
    }
}

/// The folded search text of an agent.
pub fn search_text(first: &str, last: &str, company: Option<&str>) -> String {
    fold(&format!("{first} {last} {}", company.unwrap_or("")))
}

/// Recomputes the search text of the agent of `user_id` (if the user is an agent).
pub async fn refresh_agent_search(db: &Db, user_id: &str) -> ApiResult<()> {
    let row: Option<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT u.first_name, u.last_name, a.company FROM agent_profiles a \
         JOIN users u ON u.id = a.user_id WHERE a.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?;
    if let Some((first, last, company)) = row {
        sqlx::query("UPDATE agent_profiles SET search_text = $1 WHERE user_id = $2")
            .bind(search_text(&first, &last, company.as_deref()))
            .bind(user_id)
            .execute(db)
            .await?;
    }
    Ok(())
}

/// Recomputes `rating` and `reviews_count` of an agent from its reviews. Call inside the
/// transaction that changed the reviews, after locking the agent row (see `routes::agents`).
pub async fn recompute_rating(conn: &mut sqlx::AnyConnection, agent_id: &str) -> ApiResult<()> {
    let (sum, count): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(rating), 0) AS BIGINT), COUNT(*) FROM reviews WHERE agent_id = $1",
    )
    .bind(agent_id)
    .fetch_one(&mut *conn)
    .await?;
    let avg = if count == 0 {
        0.0
    } else {
        sum as f64 / count as f64
    };
    sqlx::query("UPDATE agent_profiles SET rating = $1, reviews_count = $2 WHERE id = $3")
        .bind(avg)
        .bind(count)
        .bind(agent_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Parses a JSON array of image URLs stored as text.
pub fn images_from_json(s: &str) -> Vec<String> {
    serde_json::from_str::<Vec<String>>(s).unwrap_or_default()
}

/// Turns a JSON value into text for storage.
pub fn to_json_text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| Value::Null.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold("  Querétaro  "), "queretaro");
        assert_eq!(fold("NUEVO   LEÓN"), "nuevo leon");
        assert_eq!(fold("Peña Ñandú"), "pena nandu");
        assert_eq!(like_pattern("a%b_c"), "%a\\%b\\_c%");
    }

    #[test]
    fn paging_bounds() {
        assert!(Paging::new(Some(0), None).is_err());
        assert!(Paging::new(None, Some(101)).is_err());
        assert!(Paging::new(None, Some(0)).is_err());
        let p = Paging::new(Some(3), Some(7)).unwrap_or(Paging { page: 0, limit: 0 });
        assert_eq!(p.offset(), 14);
        assert_eq!(p.pagination(15).last_page, 3);
        assert_eq!(p.pagination(0).last_page, 1);
    }

    #[test]
    fn dates() {
        assert!(optional_date(Some("2015-02-28".into()), "d").is_ok());
        assert!(optional_date(Some("2015-02-30".into()), "d").is_err());
        assert!(optional_date(Some("15-02-2015".into()), "d").is_err());
    }
}
