//! Account operations shared by the auth routes, the IdP login, `create-admin`, the agents area
//! and the tests: creating users, sessions and one-time tokens.

use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::users::{Role, UserRow, UserSummary, normalize_email},
    domain::error::{DomainError, is_unique_violation},
    mail::{Email, outbox},
    security::{JwtService, hash_token, random_token},
};

/// Kinds of one-time tokens (column `one_time_tokens.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    VerifyEmail,
    ResetPassword,
    IdpLogin,
}

impl TokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::VerifyEmail => "verify_email",
            TokenKind::ResetPassword => "reset_password",
            TokenKind::IdpLogin => "idp_login",
        }
    }
}

/// Data for a new user. The password must already be hashed.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: String,
    pub password_hash: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub company_name: Option<String>,
    pub role: Role,
    /// true: `active` with a verified e-mail; false: `pending`.
    pub verified: bool,
}

#[derive(Debug)]
pub enum CreateUserError {
    EmailTaken,
    Db(sqlx::Error),
}

impl From<CreateUserError> for DomainError {
    fn from(e: CreateUserError) -> Self {
        match e {
            CreateUserError::EmailTaken => DomainError::bad_request(
                "EMAIL_ALREADY_EXISTS",
                "El correo electrónico ya está registrado",
            ),
            CreateUserError::Db(e) => e.into(),
        }
    }
}

/// Inserts a user; a taken e-mail (unique index) gives `EmailTaken`, with no racy pre-check.
/// Works inside a transaction too (pass `&mut *tx`).
pub async fn create_user<'e, E>(exec: E, new: &NewUser) -> Result<UserRow, CreateUserError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let now = db::now();
    let row = UserRow {
        id: db::new_id(),
        email: normalize_email(&new.email),
        password_hash: new.password_hash.clone(),
        first_name: new.first_name.clone(),
        last_name: new.last_name.clone(),
        phone: new.phone.clone(),
        company_name: new.company_name.clone(),
        role: new.role.as_str().to_string(),
        status: if new.verified { "active" } else { "pending" }.to_string(),
        email_verified: i64::from(new.verified),
        created_at: now,
    };
    let res = sqlx::query(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, phone, company_name, \
         role, status, email_verified, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)",
    )
    .bind(&row.id)
    .bind(&row.email)
    .bind(&row.password_hash)
    .bind(&row.first_name)
    .bind(&row.last_name)
    .bind(&row.phone)
    .bind(&row.company_name)
    .bind(&row.role)
    .bind(&row.status)
    .bind(row.email_verified)
    .bind(now)
    .execute(exec)
    .await;
    match res {
        Ok(_) => Ok(row),
        Err(e) if is_unique_violation(&e) => Err(CreateUserError::EmailTaken),
        Err(e) => Err(CreateUserError::Db(e)),
    }
}

/// Creates an account that must verify its e-mail, its verification token and the e-mail that
/// carries it (`email_for(user, token)`), in one transaction: all three commit or none does.
/// `None` when the address already has an account (nothing is created). The caller wakes the
/// mail worker after.
pub async fn register(
    db: &Db,
    new: &NewUser,
    ttl: Duration,
    email_for: impl FnOnce(&UserRow, &str) -> Email,
) -> Result<Option<UserRow>, DomainError> {
    let mut tx = db.begin().await?;
    let user = match create_user(&mut *tx, new).await {
        Ok(user) => user,
        // PostgreSQL has aborted the transaction at the unique violation.
        Err(CreateUserError::EmailTaken) => {
            tx.rollback().await?;
            return Ok(None);
        }
        Err(e) => return Err(e.into()),
    };
    let token = issue_one_time_token_in(&mut tx, &user.id, TokenKind::VerifyEmail, ttl).await?;
    outbox::enqueue(&mut *tx, &email_for(&user, &token)).await?;
    tx.commit().await?;
    Ok(Some(user))
}

/// Issues a one-time token of `kind` for `user_id` and queues the e-mail that carries it
/// (`email_for(token)`), in one transaction: both commit or neither does. The caller wakes the
/// mail worker after.
pub async fn issue_token_by_email(
    db: &Db,
    user_id: &str,
    kind: TokenKind,
    ttl: Duration,
    email_for: impl FnOnce(&str) -> Email,
) -> Result<(), DomainError> {
    let mut tx = db.begin().await?;
    let token = issue_one_time_token_in(&mut tx, user_id, kind, ttl).await?;
    outbox::enqueue(&mut *tx, &email_for(&token)).await?;
    tx.commit().await?;
    Ok(())
}

/// Creates a one-time token for `user_id` in its own transaction and returns it (the only
/// time it exists in clear). See [`issue_one_time_token_in`].
pub async fn issue_one_time_token(
    db: &Db,
    user_id: &str,
    kind: TokenKind,
    ttl: Duration,
) -> Result<String, DomainError> {
    let mut tx = db.begin().await?;
    let token = issue_one_time_token_in(&mut tx, user_id, kind, ttl).await?;
    tx.commit().await?;
    Ok(token)
}

/// Creates a one-time token for `user_id` on `conn` (a transaction: the e-mail that carries
/// the token is queued in the same one). Earlier unused tokens of the same kind for that user
/// are invalidated.
pub async fn issue_one_time_token_in(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    kind: TokenKind,
    ttl: Duration,
) -> Result<String, DomainError> {
    let now = db::now();
    let token = random_token();
    if kind != TokenKind::IdpLogin {
        sqlx::query(
            "UPDATE one_time_tokens SET used_at = $1 \
             WHERE user_id = $2 AND kind = $3 AND used_at IS NULL",
        )
        .bind(now)
        .bind(user_id)
        .bind(kind.as_str())
        .execute(&mut *conn)
        .await?;
    }
    // Housekeeping: drop long-expired rows of this user.
    sqlx::query("DELETE FROM one_time_tokens WHERE user_id = $1 AND expires_at < $2")
        .bind(user_id)
        .bind(now - 7 * 86_400)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO one_time_tokens (token_hash, user_id, kind, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(hash_token(&token))
    .bind(user_id)
    .bind(kind.as_str())
    .bind(now)
    .bind(now + ttl.as_secs() as i64)
    .execute(&mut *conn)
    .await?;
    Ok(token)
}

/// Consumes a one-time token with one conditional UPDATE: it succeeds for exactly one caller,
/// only while the token is unused and unexpired. Returns the user id.
pub async fn consume_one_time_token<'e, E>(
    exec: E,
    token: &str,
    kind: TokenKind,
) -> Result<Option<String>, DomainError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let now = db::now();
    let row: Option<(String,)> = sqlx::query_as(
        "UPDATE one_time_tokens SET used_at = $1 \
         WHERE token_hash = $2 AND kind = $3 AND used_at IS NULL AND expires_at > $1 \
         RETURNING user_id",
    )
    .bind(now)
    .bind(hash_token(token))
    .bind(kind.as_str())
    .fetch_optional(exec)
    .await?;
    Ok(row.map(|r| r.0))
}

/// `data` of a successful login.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginData {
    /// Access token (JWT, HS256). Send it as `Authorization: Bearer <token>`.
    pub token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Lifetime of the token in seconds.
    pub expires_in: u64,
    pub user: UserSummary,
}

/// Opens a new session for `user` and signs its access token.
pub async fn start_session(
    db: &Db,
    jwt: &JwtService,
    ttl: Duration,
    user: &UserRow,
    method: &str,
) -> Result<LoginData, DomainError> {
    let now = db::now();
    let ttl = ttl.as_secs();
    let exp = now + ttl as i64;
    let sid = db::new_id();
    sqlx::query(
        "INSERT INTO sessions (id, user_id, method, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&sid)
    .bind(&user.id)
    .bind(method)
    .bind(now)
    .bind(exp)
    .execute(db)
    .await?;
    let token = jwt.issue(&user.id, &sid, &user.role, now, exp)?;
    Ok(LoginData {
        token,
        token_type: "Bearer",
        expires_in: ttl,
        user: user.summary(),
    })
}

/// The user id and role of an open session of `user_id` whose account is active (what a bearer
/// token's `sid` and `sub` must name).
pub async fn session_user(db: &Db, session_id: &str, user_id: &str) -> Result<Option<(String, String)>, DomainError> {
    Ok(sqlx::query_as(
        "SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3 \
         AND u.status = 'active'",
    )
    .bind(session_id)
    .bind(user_id)
    .bind(db::now())
    .fetch_optional(db)
    .await?)
}

/// Saves the editable profile fields of `user` (names, phone, company).
pub async fn update_profile(db: &Db, user: &UserRow) -> Result<(), DomainError> {
    sqlx::query(
        "UPDATE users SET first_name = $1, last_name = $2, phone = $3, company_name = $4, \
         updated_at = $5 WHERE id = $6",
    )
    .bind(&user.first_name)
    .bind(&user.last_name)
    .bind(&user.phone)
    .bind(&user.company_name)
    .bind(db::now())
    .bind(&user.id)
    .execute(db)
    .await?;
    Ok(())
}

/// Revokes one session (logout).
pub async fn revoke_session(db: &Db, session_id: &str) -> Result<(), DomainError> {
    sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
        .bind(db::now())
        .bind(session_id)
        .execute(db)
        .await?;
    Ok(())
}

/// What a single-use token did.
#[derive(Debug, PartialEq, Eq)]
pub enum TokenUse {
    /// Unknown, used or expired token.
    Invalid,
    /// The token was valid but its user no longer exists.
    UserGone,
    /// Done for this user id.
    Done(String),
}

/// Consumes a verification token and marks the user's e-mail verified (a pending account
/// becomes active), in one transaction.
pub async fn verify_email(db: &Db, token: &str) -> Result<TokenUse, DomainError> {
    let mut tx = db.begin().await?;
    let Some(user_id) = consume_one_time_token(&mut *tx, token, TokenKind::VerifyEmail).await? else {
        return Ok(TokenUse::Invalid);
    };
    let updated = sqlx::query(
        "UPDATE users SET email_verified = 1, \
         status = CASE WHEN status = 'pending' THEN 'active' ELSE status END, updated_at = $1 \
         WHERE id = $2",
    )
    .bind(db::now())
    .bind(&user_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    if updated.rows_affected() == 0 {
        return Ok(TokenUse::UserGone);
    }
    Ok(TokenUse::Done(user_id))
}

/// Consumes a reset token and sets the new password hash, in one transaction that also spends
/// every other open reset token of the user and revokes all their sessions. Returns the use and
/// the number of sessions revoked.
pub async fn reset_password(db: &Db, token: &str, password_hash: &str) -> Result<(TokenUse, u64), DomainError> {
    let mut tx = db.begin().await?;
    let Some(user_id) = consume_one_time_token(&mut *tx, token, TokenKind::ResetPassword).await? else {
        return Ok((TokenUse::Invalid, 0));
    };
    let now = db::now();
    let updated = sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(password_hash)
        .bind(now)
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    if updated.rows_affected() == 0 {
        tx.commit().await?;
        return Ok((TokenUse::UserGone, 0));
    }
    sqlx::query(
        "UPDATE one_time_tokens SET used_at = $1 WHERE user_id = $2 AND kind = 'reset_password' AND used_at IS NULL",
    )
    .bind(now)
    .bind(&user_id)
    .execute(&mut *tx)
    .await?;
    let revoked = revoke_all_sessions(&mut *tx, &user_id).await?;
    tx.commit().await?;
    Ok((TokenUse::Done(user_id), revoked))
}

/// Revokes every open session of a user (password reset, role change, disabling).
pub async fn revoke_all_sessions<'e, E>(exec: E, user_id: &str) -> Result<u64, DomainError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let res = sqlx::query(
        "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
    )
    .bind(db::now())
    .bind(user_id)
    .execute(exec)
    .await?;
    Ok(res.rows_affected())
}

/// Light e-mail syntax check (one `@`, non-empty parts, a dot in the domain, no spaces).
pub fn is_valid_email(email: &str) -> bool {
    let email = email.trim();
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && local.len() <= 64
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains("..")
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid_email;

    #[test]
    fn email_syntax() {
        for ok in ["a@b.co", "ana.garcia+x@example.com.mx", " A@B.CO "] {
            assert!(is_valid_email(ok), "{ok}");
        }
        for bad in [
            "", "a", "a@", "@b.co", "a@b", "a@@b.co", "a b@c.co", "a@b..co", "a@.b.co", "a@b.co.",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }
}
