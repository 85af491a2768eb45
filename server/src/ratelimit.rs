//! Fixed-window rate limits: per client address and per account on the authentication
//! endpoints, per client address or per partner key on the score endpoints (a batch costs one
//! unit per profile). Exceeding a limit gives 429 with the error envelope and `Retry-After`.
//!
//! Keys are `scope:kind:value`, for example `login:ip:203.0.113.7`, `login:acct:ana@example.com`
//! or `score:key:<key id>`; every window lasts a minute from the key's first request in it.
//!
//! Where the counts live decides whether the configured budget holds for the deployment:
//! - **PostgreSQL** (one or several instances on one database): in the database, table
//!   `rate_limits`, one atomic upsert per check (the row lock orders concurrent checks of one
//!   key, whichever instance makes them), so N instances share one budget, not N budgets.
//!   A large budget is leased in slices: an upsert takes 1/[`LEASE_SHARE`] of the limit at once
//!   and this instance spends it from memory until the slice or the window runs out, so a
//!   busy key costs one upsert per slice instead of one per request. A leased unit is spent
//!   in the database whether used or not, so the budget still never stretches; at worst each
//!   other instance holds an unspent slice and a request is refused that much early. Limits
//!   under `LEASE_SHARE` (logins: 10 a minute) lease one unit at a time: exact.
//! - **SQLite**: in this process's memory. That is the same thing: one process serves a
//!   SQLite file (the server holds an exclusive lock beside it while it runs,
//!   [`crate::db::InstanceLock`]), so no other process spends from the same budget.

use std::{
    collections::HashMap,
    sync::{
        Mutex,
        atomic::{AtomicI64, Ordering},
    },
    time::{Duration, Instant},
};

use crate::{
    db::{Backend, Db},
    http::error::ApiError,
};

/// The length of every window.
const WINDOW: Duration = Duration::from_secs(60);

/// A lease from the database is this share of the limit (at least one unit).
pub const LEASE_SHARE: u32 = 64;

#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    store: Store,
}

#[derive(Debug)]
enum Store {
    /// Windows in this process's memory (SQLite: one process).
    Memory(Mutex<HashMap<String, (Instant, u32)>>),
    /// Windows in the `rate_limits` table (PostgreSQL: every instance), and the units this
    /// instance leased from them and has not spent yet.
    Database { db: Db, next_purge_ms: AtomicI64, leases: Mutex<HashMap<String, Lease>> },
}

/// Units leased from a key's window, spendable here until the window ends.
#[derive(Debug)]
struct Lease {
    units: u32,
    until: Instant,
}

/// The outcome of one count: spent, or refused; with the time left in the window.
enum Count {
    Spent { remaining: Duration },
    Refused { remaining: Duration },
}

impl RateLimiter {
    /// A limiter of `limit_per_minute` requests per key whose counts live where `backend`
    /// keeps them for the whole deployment (see the module's documentation).
    pub fn for_backend(backend: Backend, db: Db, limit_per_minute: u32) -> Self {
        match backend {
            Backend::Sqlite => Self::in_memory(limit_per_minute),
            Backend::Postgres => Self::in_database(db, limit_per_minute),
        }
    }

    /// Counts in this process's memory.
    pub fn in_memory(limit_per_minute: u32) -> Self {
        Self { limit: limit_per_minute, store: Store::Memory(Mutex::default()) }
    }

    /// Counts in the PostgreSQL table `rate_limits`, shared by every instance.
    pub fn in_database(db: Db, limit_per_minute: u32) -> Self {
        let store = Store::Database { db, next_purge_ms: AtomicI64::new(0), leases: Mutex::default() };
        Self { limit: limit_per_minute, store }
    }

    /// Counts one request for `key`; fails with 429 once the window's budget is spent.
    pub async fn check(&self, key: &str) -> Result<(), ApiError> {
        self.take(key, 1, self.limit).await
    }

    /// Counts `cost` units for `key` against a budget of `limit` per window (a partner key's own
    /// limit; a batch costs one unit per profile). A request that does not fit is refused
    /// whole and spends nothing.
    pub async fn take(&self, key: &str, cost: u32, limit: u32) -> Result<(), ApiError> {
        let count = match &self.store {
            Store::Memory(buckets) => count_in_memory(buckets, key, cost, limit),
            Store::Database { db, next_purge_ms, leases } => {
                if spend_leased(leases, key, cost) {
                    return Ok(());
                }
                purge_now_and_then(db, next_purge_ms);
                lease(db, leases, key, cost, limit).await?
            }
        };
        match count {
            Count::Spent { .. } => Ok(()),
            Count::Refused { remaining } => Err(refusal(key.split(':').next().unwrap_or(""), remaining)),
        }
    }

    /// Checks the per-IP key and, when given, the per-account key of one scope.
    pub async fn check_scope(&self, scope: &str, ip: &str, account: Option<&str>) -> Result<(), ApiError> {
        let address = format!("{scope}:ip:{ip}");
        let Some(account) = account.map(|a| format!("{scope}:acct:{}", a.trim().to_lowercase())) else {
            return self.check(&address).await;
        };
        match &self.store {
            // One round trip for both (a limit that leases one unit at a time: no slices).
            Store::Database { db, next_purge_ms, .. } if self.limit < LEASE_SHARE => {
                purge_now_and_then(db, next_purge_ms);
                match count_pair_in_database(db, &address, &account, self.limit).await? {
                    Count::Spent { .. } => Ok(()),
                    Count::Refused { remaining } => Err(refusal(scope, remaining)),
                }
            }
            _ => {
                self.check(&address).await?;
                self.check(&account).await
            }
        }
    }
}

/// 429 with the seconds left in the window as `Retry-After`.
fn refusal(scope: &str, remaining: Duration) -> ApiError {
    let secs = remaining.as_secs() + u64::from(remaining.subsec_nanos() > 0);
    tracing::warn!(scope, "rate limit exceeded");
    ApiError::rate_limited(secs.max(1))
}

fn count_in_memory(buckets: &Mutex<HashMap<String, (Instant, u32)>>, key: &str, cost: u32, limit: u32) -> Count {
    let now = Instant::now();
    let mut buckets = locked(buckets);
    if buckets.len() > 50_000 {
        buckets.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
    }
    let entry = buckets.entry(key.to_string()).or_insert((now, 0));
    if now.duration_since(entry.0) >= WINDOW {
        *entry = (now, 0);
    }
    let remaining = WINDOW.saturating_sub(now.duration_since(entry.0));
    if entry.1.saturating_add(cost) > limit {
        return Count::Refused { remaining };
    }
    entry.1 += cost;
    Count::Spent { remaining }
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// Spends `cost` units this instance leased for `key` in the current window, if it has them.
fn spend_leased(leases: &Mutex<HashMap<String, Lease>>, key: &str, cost: u32) -> bool {
    let mut leases = locked(leases);
    match leases.get_mut(key) {
        Some(lease) if lease.until > Instant::now() && lease.units >= cost => {
            lease.units -= cost;
            true
        }
        _ => false,
    }
}

/// Leases `cost` units for `key` from the database, and a slice of the limit more when it
/// fits (kept for the next requests); when the slice does not fit, `cost` alone is asked.
async fn lease(db: &Db, leases: &Mutex<HashMap<String, Lease>>, key: &str, cost: u32, limit: u32) -> Result<Count, ApiError> {
    let slice = (limit / LEASE_SHARE).max(1);
    let ask = cost.max(slice).min(limit.max(cost));
    let mut count = count_in_database(db, key, ask, limit).await?;
    let mut leased = ask;
    if ask > cost && matches!(count, Count::Refused { .. }) {
        count = count_in_database(db, key, cost, limit).await?;
        leased = cost;
    }
    if let Count::Spent { remaining } = count
        && leased > cost
    {
        let until = Instant::now() + remaining;
        let mut leases = locked(leases);
        if leases.len() > 50_000 {
            let now = Instant::now();
            leases.retain(|_, l| l.until > now);
        }
        let lease = leases.entry(key.to_string()).or_insert(Lease { units: 0, until });
        if lease.until <= Instant::now() {
            *lease = Lease { units: 0, until };
        }
        // Units of two windows together expire with the earlier one: never spent late.
        lease.units += leased - cost;
        lease.until = lease.until.min(until);
    }
    Ok(count)
}

/// One upsert of `bucket` (`$1`, or as a `SELECT` from another step), atomic: a new key starts
/// a window; a key whose window ended starts a new one; otherwise the cost (`$2`) is added when
/// it fits the limit (`$3`). `granted` records whether it did, and the milliseconds left in the
/// window (`$4` long) come back for `Retry-After`. The clock is the database's, so instances
/// whose clocks differ still agree on every window.
macro_rules! upsert {
    ($source:literal) => {
        concat!(
            "INSERT INTO rate_limits AS r (bucket, window_start_ms, used, granted) ",
            $source,
            " ON CONFLICT (bucket) DO UPDATE SET \
              window_start_ms = CASE WHEN r.window_start_ms + $4 <= EXCLUDED.window_start_ms \
                                     THEN EXCLUDED.window_start_ms ELSE r.window_start_ms END, \
              used = CASE WHEN r.window_start_ms + $4 <= EXCLUDED.window_start_ms THEN EXCLUDED.used \
                          WHEN r.used + $2 <= $3 THEN r.used + $2 ELSE r.used END, \
              granted = CASE WHEN r.window_start_ms + $4 <= EXCLUDED.window_start_ms THEN EXCLUDED.granted \
                             WHEN r.used + $2 <= $3 THEN 1 ELSE 0 END \
            RETURNING granted, window_start_ms + $4 - (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT AS remaining_ms"
        )
    };
}

/// One count of the bucket `$1`.
const COUNT_SQL: &str = upsert!(
    "VALUES ($1, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT, \
             CASE WHEN $2 <= $3 THEN $2 ELSE 0 END, CASE WHEN $2 <= $3 THEN 1 ELSE 0 END)"
);

/// The address's bucket `$1`, then, only when that fit, the account's `$5`: one round trip for
/// a login's two checks, with the same outcome as two counts in a row.
const PAIR_SQL: &str = concat!(
    "WITH address AS (",
    upsert!(
        "VALUES ($1, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT, \
                 CASE WHEN $2 <= $3 THEN $2 ELSE 0 END, CASE WHEN $2 <= $3 THEN 1 ELSE 0 END)"
    ),
    "), account AS (",
    upsert!(
        "SELECT $5, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT, \
                CASE WHEN $2 <= $3 THEN $2 ELSE 0 END, CASE WHEN $2 <= $3 THEN 1 ELSE 0 END \
         FROM address WHERE address.granted = 1"
    ),
    ") SELECT address.granted, address.remaining_ms, account.granted, account.remaining_ms \
       FROM address LEFT JOIN account ON TRUE"
);

/// The address's and then the account's count of one request in one round trip (limits under
/// [`LEASE_SHARE`], which lease one unit at a time): the first refusal, or both spent.
async fn count_pair_in_database(db: &Db, address: &str, account: &str, limit: u32) -> Result<Count, ApiError> {
    let row: (i64, i64, Option<i64>, Option<i64>) = sqlx::query_as(PAIR_SQL)
        .bind(address)
        .bind(1_i64)
        .bind(i64::from(limit))
        .bind(window_ms())
        .bind(account)
        .fetch_one(db)
        .await?;
    let remaining = |ms: i64| Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    Ok(match row {
        (0, ms, _, _) => Count::Refused { remaining: remaining(ms) },
        (_, _, Some(1), Some(ms)) => Count::Spent { remaining: remaining(ms) },
        (_, ms, _, account_ms) => Count::Refused { remaining: remaining(account_ms.unwrap_or(ms)) },
    })
}

async fn count_in_database(db: &Db, key: &str, cost: u32, limit: u32) -> Result<Count, ApiError> {
    let (granted, remaining_ms): (i64, i64) = sqlx::query_as(COUNT_SQL)
        .bind(key)
        .bind(i64::from(cost))
        .bind(i64::from(limit))
        .bind(window_ms())
        .fetch_one(db)
        .await?;
    let remaining = Duration::from_millis(u64::try_from(remaining_ms).unwrap_or(0));
    Ok(if granted == 1 { Count::Spent { remaining } } else { Count::Refused { remaining } })
}

fn window_ms() -> i64 {
    i64::try_from(WINDOW.as_millis()).unwrap_or(i64::MAX)
}

/// At most once a window per instance, deletes the rows whose window has ended (off the
/// request's path: a task of its own).
fn purge_now_and_then(db: &Db, next_purge_ms: &AtomicI64) {
    let now = crate::mail::outbox::now_ms();
    let due = next_purge_ms.load(Ordering::Relaxed);
    if now < due
        || next_purge_ms.compare_exchange(due, now + window_ms(), Ordering::Relaxed, Ordering::Relaxed).is_err()
    {
        return;
    }
    let db = db.clone();
    tokio::spawn(async move {
        let deleted = sqlx::query(
            "DELETE FROM rate_limits \
             WHERE window_start_ms < (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT - $1",
        )
        .bind(window_ms())
        .execute(&db)
        .await;
        if let Err(e) = deleted {
            tracing::warn!(error = %e, "could not delete ended rate-limit windows");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn counts_per_key_and_reports_retry_after() {
        let rl = RateLimiter::in_memory(2);
        assert!(rl.check_scope("login", "1.1.1.1", Some("A@x.co")).await.is_ok());
        assert!(rl.check_scope("login", "2.2.2.2", Some("a@x.co")).await.is_ok());
        // Third request for the same account (case-insensitive) from a new IP.
        let e = rl
            .check_scope("login", "3.3.3.3", Some("a@X.co "))
            .await
            .expect_err("the third request for the account is limited");
        assert_eq!(e.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
        assert!(e.retry_after.is_some_and(|s| (1..=60).contains(&s)));
        // Other scopes are independent.
        assert!(rl.check_scope("forgot", "1.1.1.1", Some("a@x.co")).await.is_ok());
        // A cost that does not fit is refused whole and spends nothing.
        assert!(rl.take("score:key:k", 7, 10).await.is_ok());
        assert!(rl.take("score:key:k", 4, 10).await.is_err());
        assert!(rl.take("score:key:k", 3, 10).await.is_ok());
        assert!(rl.take("score:key:k", 1, 10).await.is_err());
    }
}
