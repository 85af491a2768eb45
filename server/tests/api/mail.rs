//! E-mail delivery: queued in the database with what causes it, never blocks the request,
//! retries, keeps undeliverable mail, survives kill -9 and is sent once by several instances.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use serde_json::json;

use server::{Application, Config, db::Db};

use crate::helpers::{PASSWORD, ServerProcess, SmtpGate, SmtpSink, TestApp, TestOptions, fresh_database};

fn body(email: &str) -> serde_json::Value {
    json!({"firstName": "Luis", "lastName": "Pérez", "email": email, "password": PASSWORD,
           "role": "broker", "acceptedTerms": true})
}

#[tokio::test]
async fn slow_smtp_server_does_not_block_requests() {
    // An SMTP "server" that accepts connections and never answers, and a client that would
    // wait an hour for it: a request that waited on delivery would never answer in time.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let (accepted, mut connected) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            if let Ok((s, _)) = silent.accept().await {
                held.push(s);
                let _ = accepted.send(());
            }
        }
    });
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
            c.smtp_timeout = Duration::from_secs(3600);
        })),
        ..Default::default()
    })
    .await;
    let answered = tokio::time::timeout(
        Duration::from_secs(60),
        app.post_json("/api/auth/register", &body("slow@example.test")),
    )
    .await
    .expect("the registration answered while its e-mail was stuck");
    assert_eq!(answered.status(), 201);
    // And its e-mail is indeed being delivered (to the server that never answers).
    tokio::time::timeout(Duration::from_secs(30), connected.recv()).await.expect("no delivery attempt").unwrap();
    let row = outbox_row(&app.db, "slow@example.test").await.unwrap();
    assert_eq!(row.status, "pending");
}

#[tokio::test]
async fn failed_delivery_is_retried_until_the_server_is_back() {
    let gate = SmtpGate::start().await;
    let smtp_url = gate.url();
    let mut app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(smtp_url);
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
    // The first attempt fails (the server is down); then the SMTP server comes up.
    wait_for_row(&app.db, "retry@example.test", |r| r.attempts >= 1 && r.claim_id.is_none()).await;
    let sink = SmtpSink::start(&app.config.data_dir).await;
    gate.open(sink.port);
    app.smtp = Some(sink);
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
async fn undeliverable_mail_becomes_a_dead_letter() {
    let gate = SmtpGate::start().await; // never opened: every attempt fails at once
    let smtp_url = gate.url();
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(smtp_url);
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
    let row = wait_for_row(&app.db, "lost@example.test", |r| r.status == "dead").await;
    assert_eq!(row.attempts, 2);
    assert!(row.last_error.is_some_and(|e| !e.is_empty()));
    // The dead letter keeps its message so that an operator can requeue it (README).
    assert!(row.body_text.contains("Hola Luis"));
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains("emails_dead_lettered_total 1\n"), "{metrics}");
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

/// A row of the `mail_outbox` table.
#[derive(Debug, sqlx::FromRow)]
struct OutboxRow {
    status: String,
    attempts: i64,
    last_error: Option<String>,
    body_text: String,
    claim_id: Option<String>,
}

async fn outbox_row(db: &Db, to: &str) -> Option<OutboxRow> {
    sqlx::query_as(
        "SELECT status, attempts, last_error, body_text, claim_id FROM mail_outbox \
         WHERE recipient = $1 ORDER BY created_ms DESC LIMIT 1",
    )
    .bind(to)
    .fetch_optional(db)
    .await
    .unwrap()
}

/// Waits (up to 20 s) until the newest outbox row to `to` satisfies `done`.
async fn wait_for_row(db: &Db, to: &str, done: impl Fn(&OutboxRow) -> bool) -> OutboxRow {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let row = outbox_row(db, to).await;
        match row {
            Some(r) if done(&r) => return r,
            other => assert!(Instant::now() < deadline, "outbox row to {to} still {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn the_email_is_queued_in_the_transaction_of_the_account() {
    let gate = SmtpGate::start().await; // never opened: the row stays pending
    let smtp_url = gate.url();
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| {
            c.smtp_url = Some(smtp_url);
            c.mail_retry_base = Duration::from_secs(60);
        })),
        ..Default::default()
    })
    .await;
    assert_eq!(app.post_json("/api/auth/register", &body("queued@example.test")).await.status(), 201);
    let row = outbox_row(&app.db, "queued@example.test").await.expect("queued with the account");
    assert_eq!(row.status, "pending");
    assert!(row.body_text.contains("/verify-email?token="));
    // A refused registration queues nothing.
    let mut bad = body("refused@example.test");
    bad["acceptedTerms"] = json!(false);
    assert_eq!(app.post_json("/api/auth/register", &bad).await.status(), 422);
    assert!(outbox_row(&app.db, "refused@example.test").await.is_none());
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains("mail_queue_depth 1\n"), "{metrics}");
}

/// The real `server` binary on `database_url` with its own data folder under `dir`,
/// delivering to `smtp_url` (cheap hashing, quick retries), plus `extra` settings.
pub async fn start_server_with(
    dir: &std::path::Path,
    data: &str,
    database_url: &str,
    smtp_url: &str,
    extra: &[(&'static str, String)],
) -> ServerProcess {
    let mut env = vec![
        ("DATABASE_URL", database_url.to_string()),
        ("DATA_DIR", dir.join(data).display().to_string()),
        ("SMTP_URL", smtp_url.to_string()),
        ("SMTP_TIMEOUT_SECONDS", "3".into()),
        ("MAIL_RETRY_BASE_MS", "100".into()),
        ("MAIL_POLL_INTERVAL_MS", "100".into()),
        ("MAIL_MAX_ATTEMPTS", "50".into()),
        ("ARGON2_MEMORY_KIB", "1024".into()),
        ("ARGON2_ITERATIONS", "1".into()),
        ("JWT_SECRET", "test-instances-secret-test-instances-secret-0123".into()),
    ];
    env.extend(extra.iter().cloned());
    ServerProcess::start(dir, &env).await
}

async fn start_server(dir: &std::path::Path, database_url: &str, smtp_url: &str) -> ServerProcess {
    start_server_with(dir, "data", database_url, smtp_url, &[]).await
}

#[tokio::test]
async fn a_registration_mailed_while_smtp_is_down_arrives_once_after_kill_9_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = fresh_database(dir.path()).await;
    let gate = SmtpGate::start().await;
    let mut first = start_server(dir.path(), &database_url, &gate.url()).await;
    let client = reqwest::Client::new();
    let r = client
        .post(first.url("/api/auth/register"))
        .json(&body("crash@example.test"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let db = server::db::connect(&database_url, 2).await.unwrap();
    // SMTP is down: the first attempt fails and is recorded; then the process dies hard.
    wait_for_row(&db, "crash@example.test", |r| r.attempts >= 1 && r.claim_id.is_none()).await;
    first.kill_9();

    let sink = SmtpSink::start(dir.path()).await;
    gate.open(sink.port);
    let second = start_server(dir.path(), &database_url, &gate.url()).await;
    wait_for_row(&db, "crash@example.test", |r| r.status == "sent").await;
    let row = outbox_row(&db, "crash@example.test").await.unwrap();
    assert!(row.body_text.is_empty(), "a sent row keeps no live link");
    let delivered: Vec<_> = std::fs::read_dir(sink.maildir.join("new")).unwrap().collect();
    assert_eq!(delivered.len(), 1, "the e-mail arrives once");
    let raw = std::fs::read(delivered[0].as_ref().unwrap().path()).unwrap();
    let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
    let text = msg.body_text(0).unwrap().into_owned();
    let start = text.find("token=").unwrap() + "token=".len();
    let token: String = text[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    // The link of the e-mail that survived the crash verifies the account.
    let r = client
        .get(second.url(&format!("/api/auth/verify-email?token={token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn two_instances_on_one_database_send_each_email_once() {
    let app = TestApp::spawn_with(TestOptions { smtp: true, ..Default::default() }).await;
    let smtp_port = app.smtp.as_ref().unwrap().port;
    // A second instance on the same database and SMTP server.
    let other_dir = tempfile::tempdir().unwrap();
    let mut config = Config::for_tests(app.config.database_url.clone(), other_dir.path().join("data"));
    config.smtp_url = Some(format!("smtp://127.0.0.1:{smtp_port}"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other = Application::build_with_listener(config, listener).await.unwrap();
    let other_address = format!("http://{}", other.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(other.run_until(async {
        let _ = stopped.await;
    }));

    let recipients: Vec<String> = (0..24).map(|i| format!("twice-{i}@example.test")).collect();
    let mut registrations = tokio::task::JoinSet::new();
    for (i, to) in recipients.iter().enumerate() {
        let url = if i % 2 == 0 { app.url("/api/auth/register") } else { format!("{other_address}/api/auth/register") };
        let (client, payload) = (app.client.clone(), body(to));
        registrations.spawn(async move { client.post(url).json(&payload).send().await.unwrap().status() });
    }
    while let Some(status) = registrations.join_next().await {
        assert_eq!(status.unwrap(), 201);
    }
    for to in &recipients {
        wait_for_row(&app.db, to, |r| r.status == "sent").await;
    }
    for to in &recipients {
        assert_eq!(app.count_emails_to(to), 1, "{to}");
    }
    let _ = stop.send(());
    serving.await.unwrap().unwrap();
}
