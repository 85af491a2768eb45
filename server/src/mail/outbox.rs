//! The `mail_outbox` table (migrations `0300_mail_outbox.sql`): every query of the durable
//! e-mail queue. Requests [`enqueue`] inside their own transaction; the delivery worker
//! ([`super::worker`]) [`claim`]s due rows and records the outcome with [`mark_sent`] or
//! [`mark_failed`].
//!
//! A claim moves `next_attempt_ms` to the end of a lease and stamps a `claim_id`: the row is
//! then not due for anyone else. On PostgreSQL the candidate rows are locked with
//! `FOR UPDATE SKIP LOCKED`, so concurrent claimers of several instances take different rows
//! without waiting on one another; on SQLite the single `UPDATE` runs under the database's
//! write lock, which serialises claimers. A claimer that dies (kill -9) leaves its rows to be
//! claimed again when the lease runs out.

use std::time::Duration;

use crate::db::{self, Backend, Db};

/// One message to send.
#[derive(Debug, Clone)]
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Kind, for logs and metrics (`verify_email`, `reset_password`, ...).
    pub kind: &'static str,
    /// The action link; logged only in outbox (development) mode.
    pub link: Option<String>,
}

/// How long a claim owns its rows: longer than one SMTP attempt (its timeout is 15 s), so a
/// live worker never loses a row it is still sending.
pub const LEASE: Duration = Duration::from_secs(60);

/// Sent rows are deleted after this long (their bodies are emptied at once).
pub const KEEP_SENT: Duration = Duration::from_secs(7 * 86_400);

/// Current time as unix milliseconds.
pub fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Writes `email` to the outbox. Pass the transaction that writes what causes the e-mail
/// (`&mut *tx`) so both commit or neither does; then call [`super::Mailer::wake`] after the
/// commit.
pub async fn enqueue<'e, E>(exec: E, email: &Email) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let now = now_ms();
    sqlx::query(
        "INSERT INTO mail_outbox (id, kind, recipient, subject, body_text, body_html, link, \
         status, attempts, next_attempt_ms, created_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $8, $8)",
    )
    .bind(db::new_id())
    .bind(email.kind)
    .bind(&email.to)
    .bind(&email.subject)
    .bind(&email.text)
    .bind(&email.html)
    .bind(&email.link)
    .bind(now)
    .execute(exec)
    .await?;
    Ok(())
}

/// A claimed row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Queued {
    pub id: String,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
    pub link: Option<String>,
    /// Attempts including the current one.
    pub attempts: i64,
    pub claim_id: String,
}

/// Claims up to `limit` rows due by `due_by` (milliseconds since the epoch, oldest due first)
/// for `LEASE` and counts the attempt. The worker passes the current time; when it stops it
/// passes the time it was told to stop, so that the final drain sends what was queued until
/// then but never a retry that comes due during the drain (see [`super::worker`]).
pub async fn claim(
    db: &Db,
    backend: Backend,
    limit: usize,
    due_by: i64,
) -> Result<Vec<Queued>, sqlx::Error> {
    let now = now_ms();
    let lock = match backend {
        Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    // The candidates are chosen once, in a materialised CTE: with `IN (subquery)` PostgreSQL
    // may run the subquery again, and with SKIP LOCKED a second run returns other rows (more
    // than `limit`). The outer conditions repeat the inner ones: PostgreSQL re-checks them on a
    // row that changed while the statement waited, so a row is never claimed twice.
    let sql = format!(
        "WITH due AS MATERIALIZED (\
           SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_ms <= $3 \
           ORDER BY next_attempt_ms LIMIT $4{lock}) \
         UPDATE mail_outbox SET next_attempt_ms = $1, attempts = attempts + 1, claim_id = $2 \
         WHERE status = 'pending' AND next_attempt_ms <= $3 AND id IN (SELECT id FROM due) \
         RETURNING id, kind, recipient, subject, body_text, body_html, link, attempts, claim_id"
    );
    sqlx::query_as::<_, Queued>(sqlx::AssertSqlSafe(sql))
        .bind(now + LEASE.as_millis() as i64)
        .bind(db::new_id())
        .bind(due_by.min(now))
        .bind(limit as i64)
        .fetch_all(db)
        .await
}

/// The row was delivered: it leaves the queue and its bodies (which may hold a live link)
/// are emptied. Done whoever holds the claim now, so that a second claimer after an expired
/// lease stops before sending it again.
pub async fn mark_sent(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE mail_outbox SET status = 'sent', body_text = '', body_html = '', link = NULL, \
         claim_id = NULL, last_error = NULL, finished_ms = $1 WHERE id = $2",
    )
    .bind(now_ms())
    .bind(id)
    .execute(db)
    .await?;
    Ok(())
}

/// What [`mark_failed`] did with the row.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// Due again at the given time (unix ms).
    Retry { at_ms: i64 },
    /// Out of attempts or a permanent failure: kept as a dead letter.
    Dead,
    /// Another claim owns the row now (the lease ran out): nothing changed.
    Lost,
}

/// Records a failed attempt: the row is due again after `retry_base * 2^(attempts-1)` (at
/// most 64 times the base), or becomes a dead letter after `max_attempts` or when `permanent`.
/// Dead letters keep their bodies so that an operator can requeue them (README).
pub async fn mark_failed(
    db: &Db,
    row: &Queued,
    error: &str,
    permanent: bool,
    max_attempts: u32,
    retry_base: Duration,
) -> Result<Failure, sqlx::Error> {
    let now = now_ms();
    let error: String = error.chars().take(500).collect();
    if permanent || row.attempts >= i64::from(max_attempts) {
        let done = sqlx::query(
            "UPDATE mail_outbox SET status = 'dead', claim_id = NULL, last_error = $1, \
             finished_ms = $2 WHERE id = $3 AND claim_id = $4 AND status = 'pending'",
        )
        .bind(&error)
        .bind(now)
        .bind(&row.id)
        .bind(&row.claim_id)
        .execute(db)
        .await?;
        return Ok(if done.rows_affected() == 1 { Failure::Dead } else { Failure::Lost });
    }
    let exponent = u32::try_from(row.attempts - 1).unwrap_or(0).min(6);
    let at_ms = now + (retry_base * 2u32.pow(exponent)).as_millis() as i64;
    let done = sqlx::query(
        "UPDATE mail_outbox SET next_attempt_ms = $1, claim_id = NULL, last_error = $2 \
         WHERE id = $3 AND claim_id = $4 AND status = 'pending'",
    )
    .bind(at_ms)
    .bind(&error)
    .bind(&row.id)
    .bind(&row.claim_id)
    .execute(db)
    .await?;
    Ok(if done.rows_affected() == 1 { Failure::Retry { at_ms } } else { Failure::Lost })
}

/// Deletes sent rows older than [`KEEP_SENT`].
pub async fn purge_sent(db: &Db) -> Result<u64, sqlx::Error> {
    let res = sqlx::query("DELETE FROM mail_outbox WHERE status = 'sent' AND finished_ms < $1")
        .bind(now_ms() - KEEP_SENT.as_millis() as i64)
        .execute(db)
        .await?;
    Ok(res.rows_affected())
}

/// Rows waiting for delivery (`pending`) and dead letters (`dead`), for `/metrics`.
pub async fn depth(db: &Db) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COALESCE(SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END), 0), \
                COALESCE(SUM(CASE WHEN status = 'dead' THEN 1 ELSE 0 END), 0) \
         FROM mail_outbox WHERE status <> 'sent'",
    )
    .fetch_one(db)
    .await
}
