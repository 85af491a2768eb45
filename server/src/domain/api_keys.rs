//! Partner API keys (table `api_keys`, migration `0301_api_keys.sql`): created and revoked by
//! an administrator (`/api/admin/api-keys`) or the CLI (`server api-key`), sent as
//! `X-API-Key` to the score endpoints, where each key has its own rate limit.
//!
//! A key is `psk_` followed by 43 characters of a 256-bit random token. Only its SHA-256 is
//! stored, with the first characters (`key_prefix`) so that people can tell keys apart.

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::error::DomainError,
    security::{hash_token, random_token},
};

/// What every key starts with (also how a leaked key is recognised by secret scanners).
pub const KEY_PREFIX: &str = "psk_";

/// Characters of a key kept in clear (`psk_` and 8 of the token).
const SHOWN: usize = 12;

/// Largest rate limit a key may have (profiles per minute).
pub const MAX_RATE_LIMIT: i64 = 10_000_000;

/// A row of `api_keys`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApiKeyRow {
    pub id: String,
    pub name: String,
    pub key_prefix: String,
    pub rate_limit_per_minute: i64,
    pub created_by: Option<String>,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// A key as listed (never the key itself).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView {
    pub id: String,
    #[schema(example = "Portal Casas del Norte")]
    pub name: String,
    /// The first characters of the key, to tell keys apart.
    #[schema(example = "psk_Q3vD9kLm")]
    pub key_prefix: String,
    /// Profiles this key may score per minute (a batch counts each profile).
    #[schema(example = 6000)]
    pub rate_limit_per_minute: i64,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339; null while the key works.
    pub revoked_at: Option<String>,
}

impl ApiKeyRow {
    pub fn view(&self) -> ApiKeyView {
        ApiKeyView {
            id: self.id.clone(),
            name: self.name.clone(),
            key_prefix: self.key_prefix.clone(),
            rate_limit_per_minute: self.rate_limit_per_minute,
            created_at: db::to_rfc3339(self.created_at),
            revoked_at: self.revoked_at.map(db::to_rfc3339),
        }
    }
}

const COLUMNS: &str = "id, name, key_prefix, rate_limit_per_minute, created_by, created_at, revoked_at";

/// Checks a name and a limit given by an administrator or the CLI.
pub fn check(name: &str, rate_limit_per_minute: i64) -> Result<(), DomainError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 || crate::http::text::has_forbidden_char(name, false) {
        return Err(DomainError::validation("El campo name es obligatorio (máximo 100 caracteres, sin caracteres de control)")
            .with("field", "name"));
    }
    if !(1..=MAX_RATE_LIMIT).contains(&rate_limit_per_minute) {
        return Err(DomainError::validation(format!(
            "El campo rateLimitPerMinute debe estar entre 1 y {MAX_RATE_LIMIT}"
        ))
        .with("field", "rateLimitPerMinute"));
    }
    Ok(())
}

/// Creates a key; returns its row and the key itself (the only time it exists in clear).
pub async fn create(
    db: &Db,
    name: &str,
    rate_limit_per_minute: i64,
    created_by: Option<&str>,
) -> Result<(ApiKeyRow, String), DomainError> {
    check(name, rate_limit_per_minute)?;
    let key = format!("{KEY_PREFIX}{}", random_token());
    let row = ApiKeyRow {
        id: db::new_id(),
        name: name.trim().to_string(),
        key_prefix: key[..SHOWN].to_string(),
        rate_limit_per_minute,
        created_by: created_by.map(str::to_string),
        created_at: db::now(),
        revoked_at: None,
    };
    sqlx::query(
        "INSERT INTO api_keys (id, name, key_prefix, key_hash, rate_limit_per_minute, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&row.id)
    .bind(&row.name)
    .bind(&row.key_prefix)
    .bind(hash_token(&key))
    .bind(row.rate_limit_per_minute)
    .bind(&row.created_by)
    .bind(row.created_at)
    .execute(db)
    .await?;
    Ok((row, key))
}

/// Every key, newest first.
pub async fn list(db: &Db) -> Result<Vec<ApiKeyRow>, DomainError> {
    let sql = format!("SELECT {COLUMNS} FROM api_keys ORDER BY created_at DESC, id");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(db).await?)
}

/// Revokes a key at once; `None` when there is no such key. Revoking twice keeps the first time.
pub async fn revoke(db: &Db, id: &str) -> Result<Option<ApiKeyRow>, DomainError> {
    if !db::is_id(id) {
        return Ok(None);
    }
    sqlx::query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
        .bind(db::now())
        .bind(id)
        .execute(db)
        .await?;
    let sql = format!("SELECT {COLUMNS} FROM api_keys WHERE id = $1");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(db).await?)
}

/// The working key `key` names, if any (unknown and revoked keys are the same to a caller).
pub async fn find_active(db: &Db, key: &str) -> Result<Option<ApiKeyRow>, DomainError> {
    if !key.starts_with(KEY_PREFIX) || key.len() > 100 {
        return Ok(None);
    }
    let sql = format!("SELECT {COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(hash_token(key))
        .fetch_optional(db)
        .await?)
}
