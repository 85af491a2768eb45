//! Several instances on one PostgreSQL database (issue 45): two real server processes behind
//! no proxy, each request sent to one or the other. What an operator relies on when scaling
//! out: one rate-limit budget, each e-mail sent once, no acknowledged write lost when one
//! instance dies hard, and a revoked partner key refused everywhere at once.
//! On SQLite these tests return at once: one process serves a SQLite file (tests/api/limits.rs).
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use server::domain::{
    accounts::{self, NewUser},
    users::Role,
};

use crate::{
    helpers::{PASSWORD, ServerProcess, SmtpSink, count_emails_to, fresh_database},
    mail::start_server_with,
};

/// Two instances of the binary on one fresh PostgreSQL database, sharing `JWT_SECRET` and an
/// SMTP sink, with a login limit of 5 per minute; `None` on SQLite.
struct Pair {
    a: ServerProcess,
    b: ServerProcess,
    sink: SmtpSink,
    db: server::db::Db,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

async fn pair() -> Option<Pair> {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database(dir.path()).await;
    if !url.starts_with("postgres") {
        return None;
    }
    let db = server::db::connect_and_migrate(&url, 4).await.unwrap();
    let sink = SmtpSink::start(dir.path()).await;
    let mut instances = Vec::new();
    for name in ["a", "b"] {
        // Each instance its own data folder: nothing on disk is shared but the database (and,
        // set by start_server_with, JWT_SECRET).
        let limits = [
            ("AUTH_RATE_LIMIT_PER_MINUTE", "5".to_string()),
            ("SCORE_RATE_LIMIT_PER_MINUTE", "100000".into()),
            ("TRUST_X_FORWARDED_FOR", "true".into()),
        ];
        let smtp = format!("smtp://127.0.0.1:{}", sink.port);
        instances.push(start_server_with(dir.path(), name, &url, &smtp, &limits).await);
    }
    let b = instances.pop().unwrap();
    let a = instances.pop().unwrap();
    Some(Pair { a, b, sink, db, client: reqwest::Client::new(), _dir: dir })
}

impl Pair {
    /// Instance `i % 2`.
    fn instance(&self, i: usize) -> &ServerProcess {
        if i.is_multiple_of(2) { &self.a } else { &self.b }
    }

    /// A verified user with `role` made directly in the database; its bearer token from a
    /// login on instance `a` (from an address of its own, so that no login budget is shared).
    async fn user(&self, role: Role, ip: &str) -> (String, String) {
        let email = format!("{}-{}@example.test", role.as_str().replace('_', "-"), uuid::Uuid::new_v4().simple());
        let argon2 = server::config::Argon2Config { memory_kib: 1024, iterations: 1, parallelism: 1 };
        let hash = server::security::PasswordService::new(&argon2, 1).unwrap().hash(PASSWORD).await.unwrap();
        let user = accounts::create_user(
            &self.db,
            &NewUser {
                email: email.clone(),
                password_hash: Some(hash),
                first_name: "Test".into(),
                last_name: "Instances".into(),
                phone: None,
                company_name: None,
                role,
                verified: true,
            },
        )
        .await
        .unwrap();
        let r = self.login(&self.a, &user.email, PASSWORD, ip).await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.unwrap();
        (user.id, body["data"]["token"].as_str().unwrap().to_string())
    }

    async fn login(&self, at: &ServerProcess, email: &str, password: &str, ip: &str) -> reqwest::Response {
        self.client
            .post(at.url("/api/auth/login"))
            .header("x-forwarded-for", ip)
            .json(&json!({"email": email, "password": password}))
            .send()
            .await
            .unwrap()
    }
}

#[tokio::test]
async fn the_login_limit_is_one_budget_over_both_instances() {
    let Some(pair) = pair().await else { return };
    // Five attempts per minute for an account, spread over both instances in either order:
    // the sixth is refused whichever instance gets it.
    for (round, first) in [(1, 0), (2, 1)] {
        let ip = format!("203.0.113.{round}");
        let email = format!("victim-{round}@example.test");
        for attempt in 0..5 {
            let r = pair.login(pair.instance(first + attempt), &email, "wrong password", &ip).await;
            assert_eq!(r.status(), 401, "attempt {} of round {round}", attempt + 1);
        }
        let sixth = pair.instance(first + 5);
        let r = pair.login(sixth, &email, "wrong password", &ip).await;
        assert_eq!(r.status(), 429, "the sixth attempt, on {}", sixth.address);
        assert!(r.headers().contains_key("retry-after"));
        // The other instance refuses it too.
        let r = pair.login(pair.instance(first + 6), &email, "wrong password", &ip).await;
        assert_eq!(r.status(), 429);
    }
}

#[tokio::test]
async fn each_email_of_a_registration_burst_over_both_instances_is_delivered_once() {
    let Some(pair) = pair().await else { return };
    let pair = Arc::new(pair);
    let recipients: Vec<String> = (0..24).map(|i| format!("burst-{i}@example.test")).collect();
    let mut registrations = tokio::task::JoinSet::new();
    for (i, to) in recipients.iter().enumerate() {
        let (pair, to) = (pair.clone(), to.clone());
        registrations.spawn(async move {
            let body = json!({"firstName": "Luis", "lastName": "Pérez", "email": to, "password": PASSWORD,
                              "role": "broker", "acceptedTerms": true});
            pair.client
                .post(pair.instance(i).url("/api/auth/register"))
                .header("x-forwarded-for", format!("198.51.100.{i}"))
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
        });
    }
    while let Some(status) = registrations.join_next().await {
        assert_eq!(status.unwrap(), 201);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (unsent,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM mail_outbox WHERE status <> 'sent'")
            .fetch_one(&pair.db)
            .await
            .unwrap();
        if unsent == 0 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{unsent} e-mails not sent");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let files = pair.sink.files();
    assert_eq!(files.len(), recipients.len());
    for to in &recipients {
        assert_eq!(count_emails_to(&files, to), 1, "{to}");
    }
}

#[tokio::test]
async fn kill_9_of_one_instance_loses_no_acknowledged_write_and_the_other_keeps_answering() {
    let Some(mut pair) = pair().await else { return };
    let profile = json!({"estado": "JAL", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado",
                         "antiguedad_meses": 24, "edad": 35});
    // Writers on both instances; each keeps the ids the server acknowledged (201) and the
    // status of every answer it got.
    let acknowledged: Arc<Mutex<Vec<String>>> = Arc::default();
    let answers_of_b: Arc<Mutex<Vec<u16>>> = Arc::default();
    let mut writers = tokio::task::JoinSet::new();
    for i in 0..8 {
        let url = pair.instance(i).url("/api/v1/fase1/perfil");
        let on_b = i % 2 == 1;
        let (client, profile, acknowledged, answers_of_b) =
            (pair.client.clone(), profile.clone(), acknowledged.clone(), answers_of_b.clone());
        writers.spawn(async move {
            loop {
                let Ok(response) = client.post(&url).json(&profile).send().await else {
                    assert!(!on_b, "instance b stopped answering");
                    return; // instance a is gone
                };
                let status = response.status().as_u16();
                if on_b {
                    answers_of_b.lock().unwrap().push(status);
                }
                if status == 201 {
                    // A body cut by the kill is no acknowledgement: the client never saw the id.
                    let Ok(body) = response.json::<Value>().await else {
                        assert!(!on_b, "instance b cut an answer");
                        return;
                    };
                    acknowledged.lock().unwrap().push(body["data"]["id"].as_str().unwrap().to_string());
                }
            }
        });
    }
    let wait_for = |count: usize, what: &'static str| {
        let acknowledged = acknowledged.clone();
        async move {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while acknowledged.lock().unwrap().len() < count {
                assert!(std::time::Instant::now() < deadline, "fewer than {count} writes {what}");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
    };
    wait_for(60, "before the kill").await;
    pair.a.kill_9();
    let at_kill = acknowledged.lock().unwrap().len();
    wait_for(at_kill + 60, "after the kill").await;
    writers.abort_all();
    while let Some(ended) = writers.join_next().await {
        if let Err(e) = ended
            && e.is_panic()
        {
            std::panic::resume_unwind(e.into_panic());
        }
    }

    let answers = answers_of_b.lock().unwrap().clone();
    assert!(answers.iter().all(|s| *s == 201), "instance b answered {answers:?}");
    let ids = acknowledged.lock().unwrap().clone();
    for id in &ids {
        let r = pair.client.get(pair.b.url(&format!("/api/v1/perfil/{id}"))).send().await.unwrap();
        assert_eq!(r.status(), 200, "acknowledged profile {id} is missing");
    }
}

#[tokio::test]
async fn a_partner_key_revoked_on_one_instance_is_refused_by_the_other_at_once() {
    let Some(pair) = pair().await else { return };
    let (_, admin) = pair.user(Role::Admin, "192.0.2.1").await;
    let created: Value = pair
        .client
        .post(pair.a.url("/api/admin/api-keys"))
        .bearer_auth(&admin)
        .json(&json!({"name": "Portal Dos Instancias", "rateLimitPerMinute": 3}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let (id, key) = (created["data"]["id"].as_str().unwrap(), created["data"]["key"].as_str().unwrap());
    let score = |at: &ServerProcess| {
        pair.client
            .post(at.url("/api/v1/score"))
            .header("x-api-key", key)
            .json(&json!({"estado": "Jalisco", "ingreso_mensual": 42000, "tipo_ingreso": "asalariado",
                          "antiguedad_meses": 30, "ahorro": 150000, "edad": 33}))
            .send()
    };
    // The key's budget (3 a minute) is one over both instances.
    assert_eq!(score(&pair.a).await.unwrap().status(), 200);
    assert_eq!(score(&pair.b).await.unwrap().status(), 200);
    assert_eq!(score(&pair.a).await.unwrap().status(), 200);
    assert_eq!(score(&pair.b).await.unwrap().status(), 429);
    // Revoked through a, refused by b on the very next request.
    let r = pair.client.delete(pair.a.url(&format!("/api/admin/api-keys/{id}"))).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = score(&pair.b).await.unwrap();
    assert_eq!(r.status(), 401);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], "API_KEY_INVALID");
}
