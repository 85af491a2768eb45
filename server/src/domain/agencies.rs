//! Offices (agencies, spec 2.3): the rows and views of an office, who manages it, and its
//! queries (create, list, update, co-admins).
//!
//! A user **manages an office** when they own it or are one of its co-admins, and have role
//! `agency_admin` (or are its owner with role `admin`); the platform `admin` manages every office.

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{
        self, Db,
        sql::{Arg, Sql},
    },
    domain::users::{Caller, Role},
    http::{
        paging::{Pagination, Paging},
    },
};
use crate::domain::error::{DomainError, DomainResult, ErrorKind, is_unique_violation};

/// True when the caller manages the office: platform admin, or role agency_admin (or the
/// owner with role admin) owning it or assigned to it as co-admin.
pub async fn manages(db: &Db, caller: Caller<'_>, agency_id: &str) -> DomainResult<bool> {
    if caller.role == Role::Admin {
        return Ok(true);
    }
    if caller.role != Role::AgencyAdmin {
        return Ok(false);
    }
    let row: Option<(i64,)> = sqlx::query_as(
        "SELECT 1 FROM agencies WHERE id = $1 AND owner_id = $2 \
         UNION ALL SELECT 1 FROM agency_admins WHERE agency_id = $1 AND user_id = $2",
    )
    .bind(agency_id)
    .bind(caller.user_id)
    .fetch_optional(db)
    .await?;
    Ok(row.is_some())
}


/// Ids of the offices a user owns (oldest first) and of those they co-administer.
pub async fn managed_offices(db: &Db, user_id: &str) -> DomainResult<(Vec<String>, Vec<String>)> {
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

/// The offices a user owns or co-administers, by name: every office they manage, including one
/// with no agents yet (the office page offers it as the home of the first agent).
pub async fn managed_briefs(db: &Db, user_id: &str) -> DomainResult<Vec<AgencyBrief>> {
    let rows: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT id, name, logo, city FROM agencies WHERE owner_id = $1 \
         OR id IN (SELECT agency_id FROM agency_admins WHERE user_id = $1) ORDER BY name, id",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(id, name, logo, city)| AgencyBrief { id, name, logo, city }).collect())
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

pub async fn find_agency(db: &Db, id: &str) -> DomainResult<AgencyRow> {
    if !db::is_id(id) {
        return Err(agency_not_found());
    }
    sqlx::query_as::<_, AgencyRow>(
        "SELECT id, name, logo, city, owner_id, created_at, updated_at FROM agencies WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await?
    .ok_or_else(agency_not_found)
}

pub fn agency_not_found() -> DomainError {
    DomainError::not_found("AGENCY_NOT_FOUND", "Oficina no encontrada")
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

/// `{id, name}` of the office.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgencyRef {
    pub id: String,
    pub name: String,
}

/// An office with its number of agents.
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

/// The view of one office (404 `AGENCY_NOT_FOUND`).
pub async fn view(db: &Db, id: &str) -> DomainResult<AgencyView> {
    let mut sql = Sql::new(AGENCY_LIST_SELECT);
    sql.push(" WHERE g.id = ").bind_text(id);
    Ok(sql
        .query_as::<AgencyListRow>()
        .fetch_optional(db)
        .await?
        .ok_or_else(agency_not_found)?
        .view())
}

/// A page of offices by name, with the total.
pub async fn page(db: &Db, paging: Paging) -> DomainResult<(Vec<AgencyView>, Pagination)> {
    let (total,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM agencies")
        .fetch_one(db)
        .await?;
    let mut sql = Sql::new(AGENCY_LIST_SELECT);
    sql.push(" ORDER BY g.name, g.id LIMIT ")
        .bind(Arg::Int(paging.limit))
        .push(" OFFSET ")
        .bind(Arg::Int(paging.offset()));
    let rows = sql.query_as::<AgencyListRow>().fetch_all(db).await?;
    Ok((
        rows.into_iter().map(AgencyListRow::view).collect(),
        paging.pagination(total),
    ))
}

/// Stores a new office owned by `owner_id`; returns its id.
pub async fn insert(
    db: &Db,
    owner_id: &str,
    name: &str,
    logo: Option<&str>,
    city: Option<&str>,
) -> DomainResult<String> {
    let id = db::new_id();
    sqlx::query(
        "INSERT INTO agencies (id, name, logo, city, owner_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(&id)
    .bind(name)
    .bind(logo)
    .bind(city)
    .bind(owner_id)
    .bind(db::now())
    .execute(db)
    .await?;
    Ok(id)
}

/// Saves the name, logo and city of `agency`.
pub async fn update(db: &Db, agency: &AgencyRow) -> DomainResult<()> {
    sqlx::query("UPDATE agencies SET name = $1, logo = $2, city = $3, updated_at = $4 WHERE id = $5")
        .bind(&agency.name)
        .bind(&agency.logo)
        .bind(&agency.city)
        .bind(db::now())
        .bind(&agency.id)
        .execute(db)
        .await?;
    Ok(())
}

fn already_admin() -> DomainError {
    DomainError::conflict("ALREADY_ADMIN", "El usuario ya administra la oficina")
}

/// Makes `user_id` a co-admin of the office (409 `ALREADY_ADMIN` when they are one).
pub async fn add_admin(db: &Db, agency: &AgencyRow, user_id: &str) -> DomainResult<()> {
    if user_id == agency.owner_id {
        return Err(already_admin());
    }
    let res = sqlx::query("INSERT INTO agency_admins (agency_id, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(&agency.id)
        .bind(user_id)
        .bind(db::now())
        .execute(db)
        .await;
    match res {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(already_admin()),
        Err(e) => Err(e.into()),
    }
}

/// Removes a co-admin (404 `ADMIN_NOT_FOUND` when `user_id` is not one).
pub async fn remove_admin(db: &Db, agency_id: &str, user_id: &str) -> DomainResult<()> {
    let n = if db::is_id(user_id) {
        sqlx::query("DELETE FROM agency_admins WHERE agency_id = $1 AND user_id = $2")
            .bind(agency_id)
            .bind(user_id)
            .execute(db)
            .await?
            .rows_affected()
    } else {
        0
    };
    if n == 0 {
        return Err(DomainError::not_found(
            "ADMIN_NOT_FOUND",
            "El usuario no es co-administrador de la oficina",
        ));
    }
    Ok(())
}

/// The caller's `current` office: the one office they own, else the one office they
/// co-administer. None: 403 `NO_AGENCY`; several: 409 `AGENCY_AMBIGUOUS` with `agencyIds`.
pub async fn current(db: &Db, user_id: &str) -> DomainResult<AgencyRow> {
    let (owned, co) = managed_offices(db, user_id).await?;
    let id = match (owned.as_slice(), co.as_slice()) {
        ([one], _) => one.clone(),
        ([], [one]) => one.clone(),
        ([], []) => {
            return Err(DomainError::new(
                ErrorKind::Forbidden,
                "NO_AGENCY",
                "No administras ninguna oficina",
            ));
        }
        _ => {
            let ids: Vec<String> = if owned.is_empty() { co } else { owned };
            return Err(DomainError::conflict(
                "AGENCY_AMBIGUOUS",
                "Administras varias oficinas: usa POST /api/agencies/{id}/agents",
            )
            .with("agencyIds", ids));
        }
    };
    find_agency(db, &id).await
}

/// The office of the agent whose user is `user_id` (404 `NO_AGENCY` when unassigned).
pub async fn of_agent_user(db: &Db, user_id: &str) -> DomainResult<AgencyRow> {
    let row: Option<AgencyRow> = sqlx::query_as(
        "SELECT g.id, g.name, g.logo, g.city, g.owner_id, g.created_at, g.updated_at \
         FROM agent_profiles a JOIN agencies g ON g.id = a.agency_id WHERE a.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?;
    row.ok_or_else(|| DomainError::not_found("NO_AGENCY", "No perteneces a ninguna oficina"))
}
