//! E-mail delivery: never blocks the request, retries, keeps undeliverable mail.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::{PASSWORD, SmtpSink, TestApp, TestOptions, free_port};

fn body(email: &str) -> serde_json::Value {
    json!({"firstName": "Luis", "lastName": "Pérez", "email": email, "password": PASSWORD,
           "role": "broker", "acceptedTerms": true})
}

#[tokio::test]
async fn slow_smtp_server_does_not_block_requests() {
    // An SMTP "server" that accepts connections and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            if let Ok((s, _)) = silent.accept().await {
                held.push(s);
            }
        }
    });
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))
        })),
        ..Default::default()
    })
    .await;
    let start = Instant::now();
    let r = app
        .post_json("/api/auth/register", &body("slow@example.test"))
        .await;
    assert_eq!(r.status(), 201);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "register took {:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn failed_delivery_is_retried_until_the_server_is_back() {
    let port = free_port();
    let mut app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
            c.mail_max_attempts = 8;
            c.mail_retry_base = Duration::from_millis(200);
        })),
        ..Default::default()
    })
    .await;
    let r = app
        .post_json("/api/auth/register", &body("retry@example.test"))
        .await;
    assert_eq!(r.status(), 201);
    // The first attempts fail (nothing listens); then the SMTP server comes up.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let dir = app.config.data_dir.clone();
    app.smtp = Some(SmtpSink::start_on(&dir, port).await);
    let mail = app.wait_for_email("retry@example.test", "Verifica").await;
    assert_eq!(mail.token().len(), 43);
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        !metrics.contains("email_send_failures_total 0\n"),
        "{metrics}"
    );
    assert!(metrics.contains("emails_sent_total 1\n"), "{metrics}");
}

#[tokio::test]
async fn undeliverable_mail_is_kept_in_the_outbox() {
    let port = free_port();
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
            c.mail_max_attempts = 2;
            c.mail_retry_base = Duration::from_millis(50);
        })),
        ..Default::default()
    })
    .await;
    assert_eq!(
        app.post_json("/api/auth/register", &body("lost@example.test"))
            .await
            .status(),
        201
    );
    let failed = app.config.mail_outbox_dir.join("failed");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let files: Vec<_> = std::fs::read_dir(&failed)
            .map(|d| d.filter_map(|e| e.ok()).collect())
            .unwrap_or_default();
        if let Some(f) = files
            .iter()
            .find(|f| f.path().extension().is_some_and(|e| e == "eml"))
        {
            let raw = std::fs::read_to_string(f.path()).unwrap();
            assert!(raw.contains("lost@example.test"));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no dead-lettered e-mail in {}",
            failed.display()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("emails_dead_lettered_total 1\n"),
        "{metrics}"
    );
}

#[tokio::test]
async fn outbox_mode_writes_eml_files() {
    let app = TestApp::spawn().await;
    assert_eq!(
        app.post_json("/api/auth/register", &body("outbox@example.test"))
            .await
            .status(),
        201
    );
    let mail = app
        .wait_for_email("outbox@example.test", "Verifica tu correo")
        .await;
    assert!(mail.text.contains("Hola Luis"));
    assert!(mail.html.contains("<html lang=\"es\">"));
    assert!(mail.link().contains("/verify-email?token="));
}
