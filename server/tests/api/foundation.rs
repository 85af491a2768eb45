//! Foundation: health, metrics, error envelope for framework errors, request id, CORS, docs.
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use crate::helpers::{TestApp, TestOptions, assert_error};

#[tokio::test]
async fn health_ready_and_metrics() {
    let app = TestApp::spawn().await;
    let r = app.get("/healthz").await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "ok");
    let r = app.get("/readyz").await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    let expected_db = if app.config.database_url.starts_with("sqlite") {
        "sqlite"
    } else {
        "postgres"
    };
    assert_eq!(body["database"], expected_db);
    let r = app.get("/metrics").await;
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = r.text().await.unwrap();
    assert!(
        text.contains("http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 1"),
        "{text}"
    );
    assert!(text.contains("http_request_duration_seconds_bucket"));
    assert!(text.contains("emails_sent_total"));
}

#[tokio::test]
async fn framework_errors_use_the_envelope() {
    let app = TestApp::spawn().await;
    assert_error(app.get("/no/such/route").await, 404, "ROUTE_NOT_FOUND").await;
    let r = app
        .client
        .delete(app.url("/api/auth/login"))
        .send()
        .await
        .unwrap();
    assert!(r.headers().contains_key("allow"));
    assert_error(r, 405, "METHOD_NOT_ALLOWED").await;
    // Malformed JSON.
    let r = app
        .client
        .post(app.url("/api/auth/login"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    assert_error(r, 400, "INVALID_JSON").await;
    // Wrong types and missing fields.
    let r = app
        .post_json("/api/auth/login", &json!({"email": 5, "password": true}))
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app
        .post_json("/api/auth/login", &json!({"email": "a@example.test"}))
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app
        .post_json("/api/auth/register", &json!({"acceptedTerms": "yes"}))
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    // Not JSON.
    let r = app
        .client
        .post(app.url("/api/auth/login"))
        .body("email=a")
        .send()
        .await
        .unwrap();
    assert_error(r, 415, "UNSUPPORTED_MEDIA_TYPE").await;
    // Oversized body.
    let big = "x".repeat(app.config.max_body_bytes + 10);
    let r = app
        .post_json("/api/auth/login", &json!({"email": big, "password": "p"}))
        .await;
    assert_error(r, 413, "PAYLOAD_TOO_LARGE").await;
    // Bad query types.
    let r = app.get("/api/auth/verify-email?token=a&token=b").await;
    assert!(r.status().is_client_error());
    let _: Value = r.json().await.unwrap();
}

#[tokio::test]
async fn request_id_is_set_and_propagated() {
    let app = TestApp::spawn().await;
    let r = app.get("/healthz").await;
    let id = r.headers()["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(id.len(), 36);
    let r = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "abc-123");
}

#[tokio::test]
async fn cors_allow_list() {
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(|c| {
            c.cors_allowed_origins = vec!["https://app.example.test".into()]
        })),
        ..Default::default()
    })
    .await;
    let r = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/auth/login"))
        .header("origin", "https://app.example.test")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "https://app.example.test"
    );
    let r = app
        .client
        .get(app.url("/healthz"))
        .header("origin", "https://evil.example.test")
        .send()
        .await
        .unwrap();
    assert!(!r.headers().contains_key("access-control-allow-origin"));
}

#[tokio::test]
async fn docs_page_and_openapi_are_served_offline() {
    let app = TestApp::spawn().await;
    let r = app.get("/docs/").await;
    assert_eq!(r.status(), 200);
    let html = r.text().await.unwrap();
    assert!(html.contains("swagger-ui"), "{html}");
    // Assets come from the binary, not a CDN.
    assert!(!html.contains("cdn."), "{html}");
    let r = app.get("/docs/swagger-ui.css").await;
    assert_eq!(r.status(), 200);
    let r = app.get("/docs/swagger-ui-bundle.js").await;
    assert_eq!(r.status(), 200);
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
}

#[tokio::test]
async fn slow_requests_time_out_with_the_envelope() {
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(|c| {
            // Expensive hashing and a tiny timeout: registration cannot finish in time.
            c.argon2 = server::config::Argon2Config {
                memory_kib: 64 * 1024,
                iterations: 4,
                parallelism: 1,
            };
            c.request_timeout = std::time::Duration::from_millis(5);
        })),
        ..Default::default()
    })
    .await;
    let body = json!({"firstName": "A", "lastName": "B", "email": "slow@example.test",
        "password": "a long enough passphrase", "role": "comprador", "acceptedTerms": true});
    assert_error(
        app.post_json("/api/auth/register", &body).await,
        408,
        "REQUEST_TIMEOUT",
    )
    .await;
}

#[tokio::test]
async fn sqlite_runs_in_wal_mode_with_durable_commits() {
    let app = TestApp::spawn().await;
    if !app.config.database_url.starts_with("sqlite") {
        return;
    }
    let mode: (String,) = sqlx::query_as("PRAGMA journal_mode")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(mode.0.to_lowercase(), "wal");
    let sync: (i64,) = sqlx::query_as("PRAGMA synchronous")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(sync.0, 2, "synchronous=FULL");
}

/// The real binary: creates its SQLite file under DATA_DIR, serves, and on SIGTERM finishes
/// the request in flight before exiting 0.
#[tokio::test]
async fn binary_starts_with_defaults_and_shuts_down_gracefully() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = crate::helpers::ServerProcess::start(
        dir.path(),
        &[
            ("DATA_DIR", dir.path().join("data").display().to_string()),
            // Slow hashing so that a registration is still running when SIGTERM arrives.
            ("ARGON2_MEMORY_KIB", "262144".into()),
            ("ARGON2_ITERATIONS", "4".into()),
            // The start of each request is logged: SIGTERM goes once the registration is in.
            ("RUST_LOG", "warn,server=info,tower_http=debug".into()),
        ],
    )
    .await;
    let client = reqwest::Client::new();
    assert_eq!(client.get(server.url("/readyz")).send().await.unwrap().status(), 200);
    assert!(dir.path().join("data/platform.db").exists());
    assert!(dir.path().join("data/jwt-secret").exists());
    let body = json!({"firstName": "A", "lastName": "B", "email": "graceful@example.test",
        "password": "a long enough passphrase", "role": "comprador", "acceptedTerms": true});
    let inflight = {
        let client = client.clone();
        let url = server.url("/api/auth/register");
        tokio::spawn(async move {
            client
                .post(url)
                .json(&body)
                .send()
                .await
                .map(|r| r.status().as_u16())
        })
    };
    server.wait_for_log(&["started processing request", "/api/auth/register"]).await;
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(
        inflight.await.unwrap().unwrap(),
        201,
        "the in-flight request must complete"
    );
    let status = server.wait().await;
    assert!(status.success(), "exit status {status:?}");
    // Outbox mode: the verification e-mail was written before exit.
    let outbox = dir.path().join("data/outbox");
    let n = std::fs::read_dir(&outbox).map(|d| d.count()).unwrap_or(0);
    assert_eq!(n, 1, "one .eml in {}", outbox.display());
}
