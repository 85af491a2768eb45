//! Account model shared by every area: roles, the user row and its public views.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{db, domain::error::DomainError};

/// User roles. `admin` (platform administrator) cannot be self-registered; it is created
/// with the `create-admin` subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    AgencyAdmin,
    Agent,
    Broker,
    Developer,
    Comprador,
}

impl Role {
    pub const SELF_REGISTRABLE: [Role; 5] = [
        Role::AgencyAdmin,
        Role::Agent,
        Role::Broker,
        Role::Developer,
        Role::Comprador,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::AgencyAdmin => "agency_admin",
            Role::Agent => "agent",
            Role::Broker => "broker",
            Role::Developer => "developer",
            Role::Comprador => "comprador",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "admin" => Role::Admin,
            "agency_admin" => Role::AgencyAdmin,
            "agent" => Role::Agent,
            "broker" => Role::Broker,
            "developer" => Role::Developer,
            "comprador" => Role::Comprador,
            _ => return None,
        })
    }
}

/// Who is asking, as authorization checks need it: the authenticated user's id and role.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    pub user_id: &'a str,
    pub role: Role,
}

/// A row of `users`. Never serialised directly (it holds the password hash).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub password_hash: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub company_name: Option<String>,
    pub role: String,
    pub status: String,
    pub email_verified: i64,
    pub created_at: i64,
}

pub const USER_COLUMNS: &str = "id, email, password_hash, first_name, last_name, phone, \
    company_name, role, status, email_verified, created_at";

impl UserRow {
    pub async fn find_by_email(db: &db::Db, email: &str) -> Result<Option<UserRow>, DomainError> {
        Ok(sqlx::query_as::<_, UserRow>(
            "SELECT id, email, password_hash, first_name, last_name, phone, company_name, role, \
             status, email_verified, created_at FROM users WHERE email = $1",
        )
        .bind(normalize_email(email))
        .fetch_optional(db)
        .await?)
    }

    pub async fn find_by_id(db: &db::Db, id: &str) -> Result<Option<UserRow>, DomainError> {
        if !db::is_id(id) {
            return Ok(None);
        }
        Ok(sqlx::query_as::<_, UserRow>(
            "SELECT id, email, password_hash, first_name, last_name, phone, company_name, role, \
             status, email_verified, created_at FROM users WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(db)
        .await?)
    }

    pub fn summary(&self) -> UserSummary {
        UserSummary {
            id: self.id.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            email: self.email.clone(),
            role: self.role.clone(),
        }
    }

    pub fn profile(&self) -> UserProfile {
        UserProfile {
            id: self.id.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            email: self.email.clone(),
            role: self.role.clone(),
            phone: self.phone.clone(),
            company_name: self.company_name.clone(),
            status: self.status.clone(),
            email_verified: self.email_verified != 0,
            created_at: db::to_rfc3339(self.created_at),
        }
    }

    pub fn verification_view(&self) -> VerifiedUser {
        VerifiedUser {
            id: self.id.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            email: self.email.clone(),
            role: self.role.clone(),
            status: self.status.clone(),
            email_verified: self.email_verified != 0,
        }
    }
}

/// E-mails are compared and stored trimmed and lower-cased.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// `{id, firstName, lastName, email, role}` (login response, agent creation).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    #[schema(example = "comprador")]
    pub role: String,
}

/// The caller's profile (GET /api/auth/me, PUT /api/auth/profile).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserProfile {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub role: String,
    pub phone: Option<String>,
    pub company_name: Option<String>,
    /// `pending` or `active`.
    pub status: String,
    pub email_verified: bool,
    /// ISO 8601 (UTC).
    pub created_at: String,
}

/// The user block of the verify-email response.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedUser {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub role: String,
    pub status: String,
    pub email_verified: bool,
}
