//! What an operator relies on (issue 21, items 3 and 4): owner-only data files and the
//! migration check, on SQLite and PostgreSQL.

#![allow(clippy::unwrap_used)]

use serde_json::json;

use crate::helpers::{PASSWORD, TestApp};

#[cfg(unix)]
fn mode(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[tokio::test]
async fn database_wal_and_outbox_files_are_owner_only() {
    let app = TestApp::spawn().await;
    let r = app
        .post_json(
            "/api/auth/register",
            &json!({"firstName": "Ana", "lastName": "López", "email": "perm@example.test",
                    "password": PASSWORD, "role": "comprador", "acceptedTerms": true}),
        )
        .await;
    assert_eq!(r.status(), 201);
    // The verification e-mail lands in the outbox (no SMTP in this test): it holds a live link.
    let outbox = app.config.mail_outbox_dir.clone();
    app.wait_for_mail_queue_empty().await;
    let emls: Vec<std::path::PathBuf> = std::fs::read_dir(&outbox)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(!emls.is_empty(), "no e-mail in the outbox");
    assert_eq!(mode(&outbox), 0o700);
    for f in &emls {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    // SQLite: the database and its -wal (PostgreSQL keeps its own files).
    let url = app.config.database_url.clone();
    if let Some(rest) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        let path = std::path::PathBuf::from(rest.split('?').next().unwrap());
        if path.exists() {
            assert_eq!(mode(&path), 0o600, "{}", path.display());
            let wal = std::path::PathBuf::from(format!("{}-wal", path.display()));
            if wal.exists() {
                assert_eq!(mode(&wal), 0o600);
            }
        }
    }
}

#[tokio::test]
async fn the_migration_check_sees_a_pending_migration() {
    let app = TestApp::spawn().await;
    let url = app.config.database_url.clone();
    assert!(server::db::pending_migrations(&app.db, &url).await.unwrap().is_empty());
    // Forget the newest migration: the check reports it as pending.
    let (newest,): (i64,) = sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&app.db)
        .await
        .unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = $1")
        .bind(newest)
        .execute(&app.db)
        .await
        .unwrap();
    let pending = server::db::pending_migrations(&app.db, &url).await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].0, newest);
}

#[tokio::test]
async fn seed_refuses_a_database_with_accounts_unless_forced() {
    use server::seed::SeedOptions;
    let app = TestApp::spawn().await;
    app.create_user(server::domain::users::Role::Comprador).await;
    let small = SeedOptions { agents: 3, reviewers: Some(1), ..Default::default() };
    let refused = server::cli::seed(&app.config, &small, PASSWORD).await.unwrap_err();
    assert!(refused.contains("already has 1 accounts"), "{refused}");
    let forced = SeedOptions { force: true, ..small };
    let done = server::cli::seed(&app.config, &forced, PASSWORD).await.unwrap();
    assert_eq!(done.agents, 3);
}

#[tokio::test]
async fn metrics_behind_a_token_when_one_is_configured() {
    let app = TestApp::spawn_with(crate::helpers::TestOptions {
        configure: Some(Box::new(|c| {
            c.metrics_token = Some(server::config::Secret(b"metrics-token-0123456789".to_vec()))
        })),
        ..Default::default()
    })
    .await;
    crate::helpers::assert_error(app.get("/metrics").await, 401, "TOKEN_INVALID").await;
    let r = app.get_auth("/metrics", "wrong-token").await;
    assert_eq!(r.status(), 401);
    let r = app.get_auth("/metrics", "metrics-token-0123456789").await;
    assert_eq!(r.status(), 200);
    assert!(r.text().await.unwrap().contains("http_requests_total"));
}

#[tokio::test]
async fn metrics_count_scores_by_level_and_show_the_pool() {
    let app = TestApp::spawn().await;
    let profile = json!({"estado": "Jalisco", "ingreso_mensual": 42000, "tipo_ingreso": "asalariado",
        "antiguedad_meses": 30, "ahorro": 150000, "edad": 33, "personas_hogar": 3});
    let r = app.post_json("/api/v1/score", &profile).await;
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    let nivel = body["data"]["platform_score"]["nivel"].as_str().unwrap().to_string();
    assert_eq!(app.post_json("/api/v1/onboarding/perfil", &profile).await.status(), 201);
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains(&format!("scores_total{{nivel=\"{nivel}\"}} 2\n")), "{metrics}");
    for other in server::metrics::LEVELS.iter().filter(|l| **l != nivel) {
        assert!(metrics.contains(&format!("scores_total{{nivel=\"{other}\"}} 0\n")), "{metrics}");
    }
    assert!(metrics.contains("db_pool_max_connections 5\n"), "{metrics}");
    assert!(metrics.contains("db_pool_connections_idle "), "{metrics}");
    assert!(metrics.contains("mail_dead_letters 0\n"), "{metrics}");
}

#[tokio::test]
async fn backup_copies_a_live_sqlite_database_and_points_postgresql_to_pg_dump() {
    let app = TestApp::spawn().await;
    let user = app.create_user(server::domain::users::Role::Comprador).await;
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("copy.db");
    let result = server::cli::backup(&app.config, &to).await;
    if app.config.database_url.starts_with("postgres") {
        let e = result.unwrap_err();
        assert!(e.contains("pg_dump"), "{e}");
        return;
    }
    result.unwrap();
    #[cfg(unix)]
    assert_eq!(mode(&to), 0o600);
    // The copy is a database with the account, readable on its own.
    let copy = server::db::connect(&format!("sqlite://{}", to.display()), 1).await.unwrap();
    let (email,): (String,) = sqlx::query_as("SELECT email FROM users WHERE id = $1")
        .bind(&user.id)
        .fetch_one(&copy)
        .await
        .unwrap();
    assert_eq!(email, user.email);
    copy.close().await;
    // An existing file is never overwritten.
    let again = server::cli::backup(&app.config, &to).await.unwrap_err();
    assert!(again.contains("already exists"), "{again}");
}

#[tokio::test]
async fn seed_gives_a_random_password_printed_once() {
    let app = TestApp::spawn().await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["seed", "--agents", "2", "--reviewers", "1"])
        .env_clear()
        .env("DATABASE_URL", &app.config.database_url)
        .env("DATA_DIR", &app.config.data_dir)
        .env("ARGON2_MEMORY_KIB", "1024")
        .env("ARGON2_ITERATIONS", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let after = |prefix: &str| {
        let start = stdout.find(prefix).unwrap_or_else(|| panic!("no {prefix:?} in {stdout}")) + prefix.len();
        stdout[start..].split_whitespace().next().unwrap().to_string()
    };
    let password = after("stored nowhere): ");
    let owner = after("office owner: ");
    assert_eq!(password.len(), 24);
    assert!(!stdout.contains("seed password 2026"));
    // The printed password is the owner's.
    assert!(!app.login(&owner, &password).await.is_empty());
    // Only its Argon2 hash is stored.
    let stored: Vec<(Option<String>,)> = sqlx::query_as("SELECT password_hash FROM users")
        .fetch_all(&app.db)
        .await
        .unwrap();
    assert!(stored.iter().all(|(h,)| h.as_deref().is_some_and(|h| h.starts_with("$argon2id$") && !h.contains(&password))));
}
