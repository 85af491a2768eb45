//! Bad input that must get a clear 4xx on both databases (issue 21, item 6): control
//! characters in bodies, query strings and paths, ids that are not UUIDs, and keep-alive after
//! an answer that came before the body was read.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::{
    agents::{agent_body, body, world},
    helpers::{PASSWORD, TestApp, assert_error},
};

#[tokio::test]
async fn a_nul_or_control_character_in_a_body_is_refused_everywhere() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    // Registration: the name with a NUL (PostgreSQL cannot store it) and with a newline.
    for first in ["a\u{0}b", "a\nb", "a\u{1b}[31mb", "a\u{85}b"] {
        let r = app
            .post_json(
                "/api/auth/register",
                &json!({"firstName": first, "lastName": "López", "email": "nul@example.test",
                        "password": PASSWORD, "role": "comprador", "acceptedTerms": true}),
            )
            .await;
        assert_error(r, 422, "VALIDATION_ERROR").await;
    }
    // Agent creation, office update, a listing, a review, a profile update.
    let mut agent = agent_body("nul");
    agent["company"] = json!("Casas\u{0}");
    let r = app.post_json_auth(&format!("/api/agencies/{}/agents", w.office_a), &agent, &w.owner.token).await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app.put_json_auth(&format!("/api/agencies/{}", w.office_a), &json!({"city": "Gdl\u{0}"}), &w.owner.token).await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app.put_json_auth("/api/auth/profile", &json!({"phone": "33\u{0}11"}), &w.buyer.token).await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app
        .post_json_auth(&format!("/api/agents/{}/reviews", w.agent_id), &json!({"rating": 4, "comment": "ok\u{0}"}), &w.buyer.token)
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    // A multi-line field keeps its newlines and tabs.
    let r = app
        .post_json_auth(&format!("/api/agents/{}/reviews", w.agent_id), &json!({"rating": 4, "comment": "línea 1\n\tlínea 2"}), &w.buyer.token)
        .await;
    let out = body(r, 201).await;
    assert_eq!(out["data"]["review"]["comment"], "línea 1\n\tlínea 2");
    // Nothing with a NUL was stored.
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE email = 'nul@example.test'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(n, 0);
}

#[tokio::test]
async fn control_characters_in_queries_and_paths_and_ids_that_are_not_uuids() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    for path in ["/api/agents?search=a%00b", "/api/agents?city=x%0Ay", "/api/properties?agentId=%00"] {
        assert_error(app.get(path).await, 400, "INVALID_QUERY").await;
    }
    assert_error(app.get("/api/agents/a%00b").await, 404, "NOT_FOUND").await;
    assert_error(app.get("/api/agents/not-a-uuid").await, 404, "AGENT_NOT_FOUND").await;
    assert_error(app.get("/api/agencies/123").await, 404, "AGENCY_NOT_FOUND").await;
    assert_error(app.get("/api/properties/x'--").await, 404, "PROPERTY_NOT_FOUND").await;
    assert_error(app.get("/api/v1/perfil/abc").await, 404, "PROFILE_NOT_FOUND").await;
    let r = app
        .delete_auth(&format!("/api/agencies/{}/admins/not-a-user", w.office_a), &w.owner.token)
        .await;
    assert_error(r, 404, "ADMIN_NOT_FOUND").await;
    let r = app
        .post_json_auth(&format!("/api/agencies/{}/admins", w.office_a), &json!({"userId": "a\u{0}"}), &w.owner.token)
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app
        .post_json_auth(&format!("/api/agencies/{}/admins", w.office_a), &json!({"userId": "nobody"}), &w.owner.token)
        .await;
    assert_error(r, 404, "USER_NOT_FOUND").await;
    // A real id still works.
    assert_eq!(app.get(&format!("/api/agents/{}", w.agent_id)).await.status(), 200);
}

/// Sends `head` on a fresh connection and returns the response head (status line and headers).
async fn raw_head(app: &TestApp, head: &str) -> (TcpStream, String) {
    let mut s = TcpStream::connect(("127.0.0.1", app.port)).await.unwrap();
    s.write_all(head.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = s.read(&mut chunk).await.unwrap();
        assert!(n > 0, "connection closed before the response head");
        buf.extend_from_slice(&chunk[..n]);
    }
    (s, String::from_utf8_lossy(&buf).to_lowercase())
}

#[tokio::test]
async fn an_answer_before_the_body_is_read_says_connection_close() {
    let app = TestApp::spawn().await;
    // 401 before the 60,000-byte body: the client is told not to reuse the connection.
    let (_, head) = raw_head(
        &app,
        "POST /api/agents HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("http/1.1 401"), "{head}");
    assert!(head.contains("connection: close"), "{head}");
    // 415 before the body.
    let (_, head) = raw_head(
        &app,
        "POST /api/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 50000\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("http/1.1 415"), "{head}");
    assert!(head.contains("connection: close"), "{head}");
    // A request without a body keeps the connection: a second request on it is answered.
    let (mut s, head) = raw_head(&app, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").await;
    assert!(head.starts_with("http/1.1 200") && !head.contains("connection: close"), "{head}");
    let mut rest = head.split("\r\n\r\n").nth(1).unwrap_or("").len();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    let mut chunk = [0u8; 1024];
    while rest < len {
        rest += s.read(&mut chunk).await.unwrap();
    }
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").await.unwrap();
    let n = s.read(&mut chunk).await.unwrap();
    assert!(String::from_utf8_lossy(&chunk[..n]).starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn forgot_password_and_resend_answer_alike_and_still_send_the_email() {
    let app = TestApp::spawn_with(crate::helpers::TestOptions { smtp: true, ..Default::default() }).await;
    let user = app.create_user(server::domain::users::Role::Comprador).await;
    let known = app.post_json("/api/auth/forgot-password", &json!({"email": user.email})).await;
    let unknown = app.post_json("/api/auth/forgot-password", &json!({"email": "nadie@example.test"})).await;
    assert_eq!(known.status(), 200);
    assert_eq!(unknown.status(), 200);
    assert_eq!(known.text().await.unwrap(), unknown.text().await.unwrap());
    let mail = app.wait_for_email(&user.email, "Restablece").await;
    assert!(mail.link().contains("token="));
    let a = app.post_json("/api/auth/resend-verification", &json!({"email": user.email})).await;
    let b = app.post_json("/api/auth/resend-verification", &json!({"email": "nadie@example.test"})).await;
    assert_eq!(a.text().await.unwrap(), b.text().await.unwrap());
}
