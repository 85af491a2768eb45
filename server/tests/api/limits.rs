//! Rate limits hold one budget for the whole deployment (issue 45): on PostgreSQL the counts
//! live in the database, one atomic upsert per check, shared by every instance; on SQLite one
//! process serves the file (a second one refuses to start), so its memory is the deployment's.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use server::ratelimit::RateLimiter;

use crate::helpers::{ServerProcess, fresh_database};

#[tokio::test]
async fn postgresql_keeps_one_budget_for_every_pool() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database(dir.path()).await;
    if !url.starts_with("postgres") {
        return; // SQLite: see a_second_process_on_one_sqlite_file_refuses_to_start
    }
    // Two pools, as two instances have: each limiter spends from the same rows.
    let first = server::db::connect_and_migrate(&url, 5).await.unwrap();
    let second = server::db::connect(&url, 5).await.unwrap();
    let a = Arc::new(RateLimiter::in_database(first.clone(), 10));
    let b = Arc::new(RateLimiter::in_database(second, 10));

    // Forty concurrent checks of one key, half through each: exactly the budget passes.
    let mut checks = tokio::task::JoinSet::new();
    for i in 0..40 {
        let limiter = if i % 2 == 0 { a.clone() } else { b.clone() };
        checks.spawn(async move { limiter.check("login:ip:203.0.113.9").await });
    }
    let mut passed = 0;
    while let Some(outcome) = checks.join_next().await {
        match outcome.unwrap() {
            Ok(()) => passed += 1,
            Err(e) => {
                assert_eq!(e.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
                assert!(e.retry_after.is_some_and(|s| (1..=60).contains(&s)), "{:?}", e.retry_after);
            }
        }
    }
    assert_eq!(passed, 10);

    // A cost that does not fit is refused whole and spends nothing, on either side.
    assert!(a.take("score:key:k", 7, 10).await.is_ok());
    assert!(b.take("score:key:k", 4, 10).await.is_err());
    assert!(a.take("score:key:k", 3, 10).await.is_ok());
    assert!(b.take("score:key:k", 1, 10).await.is_err());
    // More than the whole budget on a new key: refused, and the key's window is still whole.
    assert!(a.take("score:key:new", 11, 10).await.is_err());
    assert!(b.take("score:key:new", 10, 10).await.is_ok());
    // Once its minute has passed, a window starts again.
    sqlx::query("UPDATE rate_limits SET window_start_ms = window_start_ms - 60000 WHERE bucket = $1")
        .bind("score:key:k")
        .execute(&first)
        .await
        .unwrap();
    assert!(b.take("score:key:k", 10, 10).await.is_ok());
    assert!(a.take("score:key:k", 1, 10).await.is_err());
}

/// A login's two checks (address, then account) in one round trip count exactly what the
/// memory store counts with two: the same sequence gives the same answers on both.
#[tokio::test]
async fn a_logins_two_checks_count_as_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database(dir.path()).await;
    if !url.starts_with("postgres") {
        return;
    }
    let db = server::db::connect_and_migrate(&url, 5).await.unwrap();
    let (memory, database) = (RateLimiter::in_memory(3), RateLimiter::in_database(db.clone(), 3));
    let attempts = [
        ("1.1.1.1", "ana@x.co"),
        ("1.1.1.1", "ANA@x.co "),
        ("2.2.2.2", "ana@x.co"),
        ("2.2.2.2", "ana@x.co"), // the account's fourth: refused, the address counted
        ("1.1.1.1", "luis@x.co"),
        ("1.1.1.1", "eva@x.co"), // the address's fourth: refused, eva not counted
        ("3.3.3.3", "eva@x.co"),
        ("3.3.3.3", "eva@x.co"),
        ("3.3.3.3", "eva@x.co"), // eva's third: granted, since the refusal above spent none
        ("4.4.4.4", "eva@x.co"), // eva's fourth: refused
    ];
    for (i, (ip, account)) in attempts.iter().enumerate() {
        let m = memory.check_scope("login", ip, Some(account)).await.map_err(|e| e.status);
        let d = database.check_scope("login", ip, Some(account)).await.map_err(|e| e.status);
        assert_eq!(m, d, "attempt {i} ({ip}, {account})");
    }
    let (eva,): (i64,) = sqlx::query_as("SELECT used FROM rate_limits WHERE bucket = 'login:acct:eva@x.co'")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(eva, 3, "a refused address spends nothing of the account");
    assert!(database.check_scope("login", "5.5.5.5", Some("eva@x.co")).await.is_err());
}

#[tokio::test]
async fn a_large_budget_leased_in_slices_never_stretches() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database(dir.path()).await;
    if !url.starts_with("postgres") {
        return;
    }
    let first = server::db::connect_and_migrate(&url, 5).await.unwrap();
    let second = server::db::connect(&url, 5).await.unwrap();
    // 640 a minute: each instance leases slices of 10 (640 / LEASE_SHARE).
    assert_eq!(640 / server::ratelimit::LEASE_SHARE, 10);
    let (a, b) = (RateLimiter::in_database(first.clone(), 640), RateLimiter::in_database(second, 640));
    let (mut granted, mut refused_in_a_row) = (0, 0);
    for i in 0..2000_u32 {
        let limiter = if i.is_multiple_of(3) { &b } else { &a };
        if limiter.take("score:key:big", 1, 640).await.is_ok() {
            granted += 1;
            refused_in_a_row = 0;
        } else {
            refused_in_a_row += 1;
            if refused_in_a_row == 4 {
                break;
            }
        }
    }
    // Never more than the budget; at most one unspent slice per instance short of it.
    assert!((620..=640).contains(&granted), "{granted} granted");
    let (used,): (i64,) = sqlx::query_as("SELECT used FROM rate_limits WHERE bucket = 'score:key:big'").fetch_one(&first).await.unwrap();
    assert!(used <= 640, "{used} units spent in the database");
    // A request costing more than what is left leases exactly what it needs, or is refused whole.
    assert!(a.take("score:key:big", 50, 640).await.is_err());
}

#[tokio::test]
async fn a_second_process_on_one_sqlite_file_refuses_to_start() {
    if std::env::var("TEST_DATABASE_URL").is_ok_and(|u| u.starts_with("postgres")) {
        return; // several instances share PostgreSQL: tests/api/instances.rs
    }
    let dir = tempfile::tempdir().unwrap();
    let env = [("DATA_DIR", dir.path().join("data").display().to_string())];
    let first = ServerProcess::start(dir.path(), &env).await;
    let (status, log) = ServerProcess::start_and_fail(dir.path(), &env).await;
    assert!(!status.success());
    assert!(log.contains("another server process serves"), "{log}");
    let client = reqwest::Client::new();
    assert_eq!(client.get(first.url("/readyz")).send().await.unwrap().status(), 200);
    // The lock goes with the process, even killed: the next one starts.
    drop(first);
    let next = ServerProcess::start(dir.path(), &env).await;
    assert_eq!(client.get(next.url("/readyz")).send().await.unwrap().status(), 200);
}
