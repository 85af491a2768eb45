//! Agent profiles (spec 2.2): the row joined with its user and office, its views, who manages
//! it, and its queries (find, page, assign, update, delete). Creation and the profile fields
//! are in [`profile`]; reviews in [`crate::domain::reviews`].
//!
//! An agent is managed by whoever manages its office (see [`crate::domain::agencies`]); an
//! unassigned agent only by the platform admin.

pub mod profile;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::{
    db::{
        self, Db,
        sql::{Arg, Sql, fold},
    },
    domain::{
        agencies::{AgencyBrief, manages},
        reviews,
        users::{Caller, Role},
    },
    http::{
        paging::{Pagination, Paging},
        text::optional_url,
    },
};
use crate::domain::error::{DomainError, DomainResult};

pub fn agent_not_found() -> DomainError {
    DomainError::not_found("AGENT_NOT_FOUND", "Agente no encontrado")
}

pub fn external_id_taken() -> DomainError {
    DomainError::bad_request(
        "EXTERNAL_ID_ALREADY_EXISTS",
        "El externalId ya está asignado a otro agente",
    )
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

pub async fn find_agent(db: &Db, id: &str) -> DomainResult<AgentRow> {
    if !db::is_id(id) {
        return Err(agent_not_found());
    }
    let mut sql = Sql::new(AGENT_SELECT);
    sql.push(" WHERE a.id = ").bind_text(id);
    sql.query_as::<AgentRow>()
        .fetch_optional(db)
        .await?
        .ok_or_else(agent_not_found)
}

/// Whether the caller may manage this agent (update every field, move, delete): the platform
/// Whether the caller may manage this agent (update every field, move, delete): the platform
/// admin, or a manager of the agent's office. Nobody else manages an unassigned agent.
pub async fn manages_agent(db: &Db, caller: Caller<'_>, agency_id: Option<&str>) -> DomainResult<bool> {
    if caller.role == Role::Admin {
        return Ok(true);
    }
    match agency_id {
        Some(a) => manages(db, caller, a).await,
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
    pub fn validated(self) -> DomainResult<SocialMedia> {
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
pub async fn refresh_agent_search(db: &Db, user_id: &str) -> DomainResult<()> {
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

/// Parses a JSON array of image URLs stored as text.
pub fn images_from_json(s: &str) -> Vec<String> {
    serde_json::from_str::<Vec<String>>(s).unwrap_or_default()
}

/// Turns a JSON value into text for storage.
pub fn to_json_text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| Value::Null.to_string())
}


/// Filters of the public list, already folded (case- and accent-free).
#[derive(Debug, Default)]
pub struct ListFilter {
    pub city: Option<String>,
    pub category: Option<String>,
    /// Part of the name or company.
    pub search: Option<String>,
}

/// A page of active agents matching `f`, highest rating first.
pub async fn page_active(db: &Db, f: &ListFilter, paging: Paging) -> DomainResult<(Vec<AgentRow>, Pagination)> {
    let mut filter = Sql::new(" WHERE a.is_active = 1");
    if let Some(city) = &f.city {
        filter.push(" AND a.city_norm = ").bind_text(city.clone());
    }
    if let Some(cat) = &f.category {
        filter.push(" AND a.category_norm = ").bind_text(cat.clone());
    }
    if let Some(s) = &f.search {
        filter
            .push(" AND a.search_text LIKE ")
            .bind_text(db::sql::like_pattern(s))
            .push(" ESCAPE '\\'");
    }
    page(db, &filter, paging).await
}

/// A page of the agents (active or not) of every office the caller manages (every office for
/// the platform admin).
pub async fn page_of_managed(db: &Db, caller: Caller<'_>, paging: Paging) -> DomainResult<(Vec<AgentRow>, Pagination)> {
    let mut filter = Sql::new(" WHERE a.agency_id IS NOT NULL");
    if caller.role != Role::Admin {
        filter
            .push(" AND a.agency_id IN (SELECT id FROM agencies WHERE owner_id = ")
            .bind_text(caller.user_id)
            .push(" UNION SELECT agency_id FROM agency_admins WHERE user_id = ")
            .bind_text(caller.user_id)
            .push(")");
    }
    page(db, &filter, paging).await
}

/// Runs a paged agent query: `filter` holds the WHERE clause (with its binds).
async fn page(db: &Db, filter: &Sql, paging: Paging) -> DomainResult<(Vec<AgentRow>, Pagination)> {
    let count = Sql {
        text: format!("SELECT COUNT(*) FROM agent_profiles a{}", filter.text),
        args: filter.args.clone(),
    };
    let (total,): (i64,) = count.query_as().fetch_one(db).await?;
    let mut page = Sql {
        text: format!("{AGENT_SELECT}{}", filter.text),
        args: filter.args.clone(),
    };
    page.push(" ORDER BY a.rating DESC, a.id DESC LIMIT ")
        .bind(Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(Arg::Int(paging.offset()));
    let rows = page.query_as::<AgentRow>().fetch_all(db).await?;
    Ok((rows, paging.pagination(total)))
}

/// The offices of `rows`, each once, in order of first appearance.
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

/// Moves `agent` to the office `target` (None: unassigns it) as a compare-and-set on the
/// office it was read with: 409 `AGENT_MOVED` if it was moved meanwhile.
pub async fn assign(db: &Db, agent: &AgentRow, target: Option<&str>) -> DomainResult<()> {
    let mut sql = Sql::new("UPDATE agent_profiles SET agency_id = ");
    match target {
        Some(t) => sql.bind_text(t),
        None => sql.push("NULL"),
    };
    sql.push(", updated_at = ").bind(Arg::Int(db::now()));
    sql.push(" WHERE id = ").bind_text(agent.id.clone());
    match &agent.agency_id {
        Some(c) => sql.push(" AND agency_id = ").bind_text(c.clone()),
        None => sql.push(" AND agency_id IS NULL"),
    };
    let res = sql.query().execute(db).await?;
    if res.rows_affected() != 1 {
        return Err(DomainError::conflict(
            "AGENT_MOVED",
            "El agente cambió de oficina mientras tanto; vuelve a intentarlo",
        ));
    }
    Ok(())
}

/// Deletes an agent in one transaction: its properties are kept with `agentId: null`; the
/// profile, the reviews about it and its user account (with its sessions and its reviews of
/// other agents, whose ratings are recomputed) are removed. Returns the properties kept.
pub async fn delete(db: &Db, agent: &AgentRow) -> DomainResult<u64> {
    let mut tx = db.begin().await?;
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
        return Err(agent_not_found());
    }
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(&agent.user_id)
        .execute(&mut *tx)
        .await?;
    for (other,) in reviewed {
        if other != agent.id {
            reviews::recompute_rating(&mut tx, &other).await?;
        }
    }
    tx.commit().await?;
    Ok(kept)
}
