//! Fixed-window rate limiter for the authentication endpoints, per client IP and per account.
//!
//! The limit is `AUTH_RATE_LIMIT_PER_MINUTE` requests per key per minute. Keys are
//! `scope:kind:value`, for example `login:ip:203.0.113.7` and `login:acct:ana@example.com`.
//! Exceeding the limit gives 429 with the error envelope and `Retry-After`.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::http::error::ApiError;

#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    buckets: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimiter {
    pub fn new(limit_per_minute: u32) -> Self {
        Self {
            limit: limit_per_minute,
            window: Duration::from_secs(60),
            buckets: Mutex::default(),
        }
    }

    /// Counts one request for `key`; fails with 429 once the window's budget is spent.
    pub fn check(&self, key: &str) -> Result<(), ApiError> {
        self.take(key, 1, self.limit)
    }

    /// Counts `cost` units for `key` against a budget of `limit` per window (a partner key's own
    /// limit; a batch costs one unit per profile). A request that does not fit is refused
    /// whole and spends nothing.
    pub fn take(&self, key: &str, cost: u32, limit: u32) -> Result<(), ApiError> {
        let now = Instant::now();
        let mut buckets = match self.buckets.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if buckets.len() > 50_000 {
            let window = self.window;
            buckets.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = buckets.entry(key.to_string()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1.saturating_add(cost) > limit {
            let remaining = self.window.saturating_sub(now.duration_since(entry.0));
            let secs = remaining.as_secs() + u64::from(remaining.subsec_nanos() > 0);
            tracing::warn!(
                scope = key.split(':').next().unwrap_or(""),
                "rate limit exceeded"
            );
            return Err(ApiError::rate_limited(secs.max(1)));
        }
        entry.1 += cost;
        Ok(())
    }

    /// Checks the per-IP key and, when given, the per-account key of one scope.
    pub fn check_scope(
        &self,
        scope: &str,
        ip: &str,
        account: Option<&str>,
    ) -> Result<(), ApiError> {
        self.check(&format!("{scope}:ip:{ip}"))?;
        if let Some(a) = account {
            self.check(&format!("{scope}:acct:{}", a.trim().to_lowercase()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_key_and_reports_retry_after() {
        let rl = RateLimiter::new(2);
        assert!(rl.check_scope("login", "1.1.1.1", Some("A@x.co")).is_ok());
        assert!(rl.check_scope("login", "2.2.2.2", Some("a@x.co")).is_ok());
        // Third request for the same account (case-insensitive) from a new IP.
        let e = rl
            .check_scope("login", "3.3.3.3", Some("a@X.co "))
            .expect_err("the third request for the account is limited");
        assert_eq!(e.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
        assert!(e.retry_after.is_some_and(|s| (1..=60).contains(&s)));
        // Other scopes are independent.
        assert!(rl.check_scope("forgot", "1.1.1.1", Some("a@x.co")).is_ok());
        // A cost that does not fit is refused whole and spends nothing.
        assert!(rl.take("score:key:k", 7, 10).is_ok());
        assert!(rl.take("score:key:k", 4, 10).is_err());
        assert!(rl.take("score:key:k", 3, 10).is_ok());
        assert!(rl.take("score:key:k", 1, 10).is_err());
    }
}
