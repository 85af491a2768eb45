//! Test harness shared by every area's end-to-end tests.
//!
//! `TestApp::spawn().await` starts the real application on `127.0.0.1:0` with a fresh
//! database: a SQLite file in a temporary folder, or, when `TEST_DATABASE_URL` is set to a
//! PostgreSQL server URL, a new database created on that server. Requests go over real HTTP
//! with `reqwest` (no redirects followed, cookie store on).
//!
//! Helpers: `create_user(role)` inserts a verified, active user directly and logs it in
//! through the API (returns its token); `wait_for_email(to, subject)` reads messages from the
//! SMTP sink (`aiosmtpd` on loopback, with `TestOptions { smtp: true, .. }`) or from the
//! outbox folder; `OidcProvider::start` runs the npm `oidc-provider` on loopback.
#![allow(dead_code, clippy::unwrap_used)]

use std::{
    collections::HashSet,
    net::TcpListener as StdListener,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use server::{
    Application, Config,
    config::OidcConfig,
    db::Db,
    domain::{
        accounts::{self, NewUser},
        users::Role,
    },
};
use tempfile::TempDir;

pub const PASSWORD: &str = "correct horse battery staple";

/// A change to the configuration of a test application.
pub type Configure = Box<dyn FnOnce(&mut Config) + Send>;

/// Options of a test application.
#[derive(Default)]
pub struct TestOptions {
    /// Deliver mail over SMTP to an aiosmtpd sink started for this app.
    pub smtp: bool,
    /// Start the loopback OpenID provider and configure the app for it.
    pub oidc: bool,
    /// The provider keeps e-mail and profile claims out of the ID token (UserInfo only).
    pub oidc_userinfo_only: bool,
    /// Changes to the configuration before start.
    pub configure: Option<Configure>,
}

pub struct TestApp {
    /// `http://127.0.0.1:<port>`
    pub address: String,
    pub port: u16,
    pub client: reqwest::Client,
    pub db: Db,
    pub config: Arc<Config>,
    pub smtp: Option<SmtpSink>,
    pub oidc: Option<OidcProvider>,
    seen_mail: Mutex<HashSet<PathBuf>>,
    _dir: TempDir,
    _shutdown: tokio::sync::oneshot::Sender<()>,
}

/// A user created by the harness.
#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: String,
    pub email: String,
    pub password: String,
    pub role: Role,
    /// Bearer token from a real login.
    pub token: String,
}

/// A received e-mail.
#[derive(Debug, Clone)]
pub struct ReceivedEmail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl ReceivedEmail {
    /// The value of `token=` in the first link of the text body.
    pub fn token(&self) -> String {
        let start = self.text.find("token=").expect("no token= in the e-mail") + "token=".len();
        self.text[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect()
    }

    /// The first http(s) link of the text body.
    pub fn link(&self) -> String {
        let start = self.text.find("http").expect("no link in the e-mail");
        self.text[start..]
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    }
}

pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

async fn wait_for_port(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what} did not start listening on 127.0.0.1:{port}");
}

/// Creates a fresh database and returns its URL.
pub async fn fresh_database(dir: &Path) -> String {
    match std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    {
        Some(base) if base.starts_with("postgres") => {
            sqlx::any::install_default_drivers();
            let name = format!("t_{}", uuid::Uuid::new_v4().simple());
            let admin = sqlx::AnyPool::connect(&base)
                .await
                .expect("connect to TEST_DATABASE_URL");
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
                .execute(&admin)
                .await
                .expect("create test database");
            admin.close().await;
            let mut url = url::Url::parse(&base).unwrap();
            url.set_path(&name);
            url.to_string()
        }
        _ => format!("sqlite://{}?mode=rwc", dir.join("test.db").display()),
    }
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        Self::spawn_with(TestOptions::default()).await
    }

    pub async fn spawn_with(opts: TestOptions) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let database_url = fresh_database(dir.path()).await;
        let mut config = Config::for_tests(database_url, dir.path().join("data"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let address = format!("http://127.0.0.1:{port}");
        let smtp = if opts.smtp {
            let sink = SmtpSink::start(dir.path()).await;
            config.smtp_url = Some(format!("smtp://127.0.0.1:{}", sink.port));
            Some(sink)
        } else {
            None
        };
        let oidc = if opts.oidc {
            let redirect = format!("{address}/api/auth/idp/callback");
            let op = OidcProvider::start(&redirect, opts.oidc_userinfo_only).await;
            config.oidc = Some(OidcConfig {
                issuer_url: op.issuer.clone(),
                client_id: op.client_id.clone(),
                client_secret: op.client_secret.clone(),
                redirect_url: redirect,
            });
            Some(op)
        } else {
            None
        };
        if let Some(f) = opts.configure {
            f(&mut config);
        }
        let app = Application::build_with_listener(config, listener)
            .await
            .expect("build app");
        let db = app.state.db.clone();
        let config = app.state.config.clone();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(app.run_until(async {
            let _ = rx.await;
        }));
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .cookie_store(true)
            .build()
            .unwrap();
        TestApp {
            address,
            port,
            client,
            db,
            config,
            smtp,
            oidc,
            seen_mail: Mutex::new(HashSet::new()),
            _dir: dir,
            _shutdown: tx,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    pub async fn get_auth(&self, path: &str, token: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    pub async fn post_json_auth(&self, path: &str, body: &Value, token: &str) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .unwrap()
    }

    pub async fn put_json_auth(&self, path: &str, body: &Value, token: &str) -> reqwest::Response {
        self.client
            .put(self.url(path))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .unwrap()
    }

    pub async fn delete_auth(&self, path: &str, token: &str) -> reqwest::Response {
        self.client
            .delete(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    /// Logs in through the API and returns the bearer token (panics unless 200).
    pub async fn login(&self, email: &str, password: &str) -> String {
        let resp = self
            .post_json(
                "/api/auth/login",
                &json!({"email": email, "password": password}),
            )
            .await;
        assert_eq!(resp.status(), 200, "login of {email} failed");
        let body: Value = resp.json().await.unwrap();
        body["data"]["token"].as_str().unwrap().to_string()
    }

    /// Creates a verified, active user with `role` directly in the database and logs it in.
    pub async fn create_user(&self, role: Role) -> TestUser {
        let email = format!(
            "{}-{}@example.test",
            role.as_str().replace('_', "-"),
            uuid::Uuid::new_v4().simple()
        );
        self.create_user_with(&email, PASSWORD, role, true).await
    }

    /// Creates a user directly in the database; logs it in when `verified`.
    pub async fn create_user_with(
        &self,
        email: &str,
        password: &str,
        role: Role,
        verified: bool,
    ) -> TestUser {
        let passwords = server::security::PasswordService::new(&self.config.argon2, 1).unwrap();
        let hash = passwords.hash(password).await.unwrap();
        let user = accounts::create_user(
            &self.db,
            &NewUser {
                email: email.to_string(),
                password_hash: Some(hash),
                first_name: "Test".into(),
                last_name: role.as_str().into(),
                phone: None,
                company_name: None,
                role,
                verified,
            },
        )
        .await
        .unwrap();
        let token = if verified {
            self.login(&user.email, password).await
        } else {
            String::new()
        };
        TestUser {
            id: user.id,
            email: user.email,
            password: password.to_string(),
            role,
            token,
        }
    }

    fn mail_files(&self) -> Vec<PathBuf> {
        let dir = match &self.smtp {
            Some(s) => s.maildir.join("new"),
            None => self.config.mail_outbox_dir.clone(),
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.is_file() && !p.to_string_lossy().ends_with(".tmp"))
                    .map(|p| (std::fs::metadata(&p).and_then(|m| m.modified()).unwrap(), p))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files.into_iter().map(|(_, p)| p).collect()
    }

    /// Waits (up to 15 s) for a not-yet-seen e-mail to `to` whose subject contains
    /// `subject_part`, and marks it seen.
    pub async fn wait_for_email(&self, to: &str, subject_part: &str) -> ReceivedEmail {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            for path in self.mail_files() {
                if self.seen_mail.lock().unwrap().contains(&path) {
                    continue;
                }
                let raw = std::fs::read(&path).unwrap();
                let Some(msg) = mail_parser::MessageParser::default().parse(&raw) else {
                    continue;
                };
                let rcpt = msg
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or_default()
                    .to_lowercase();
                let subject = msg.subject().unwrap_or_default().to_string();
                if rcpt == to.to_lowercase() && subject.contains(subject_part) {
                    self.seen_mail.lock().unwrap().insert(path.clone());
                    return ReceivedEmail {
                        to: rcpt,
                        subject,
                        text: msg.body_text(0).map(|c| c.into_owned()).unwrap_or_default(),
                        html: msg.body_html(0).map(|c| c.into_owned()).unwrap_or_default(),
                    };
                }
            }
            if Instant::now() > deadline {
                panic!("no e-mail to {to} with subject containing {subject_part:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Number of e-mails received so far to `to`.
    pub fn count_emails_to(&self, to: &str) -> usize {
        self.mail_files()
            .iter()
            .filter(|p| {
                let raw = std::fs::read(p).unwrap();
                mail_parser::MessageParser::default()
                    .parse(&raw)
                    .and_then(|m| {
                        m.to()
                            .and_then(|a| a.first())
                            .and_then(|a| a.address())
                            .map(|s| s.to_lowercase())
                    })
                    .is_some_and(|a| a == to.to_lowercase())
            })
            .count()
    }
}

/// Asserts the error envelope and returns the body.
pub async fn assert_error(resp: reqwest::Response, status: u16, code: &str) -> Value {
    let got = resp.status().as_u16();
    let body: Value = resp.json().await.expect("error body must be JSON");
    assert_eq!(got, status, "unexpected status; body: {body}");
    assert_eq!(body["status"], "error", "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    body
}

/// `aiosmtpd` SMTP sink on loopback writing a maildir.
pub struct SmtpSink {
    pub port: u16,
    pub maildir: PathBuf,
    child: Child,
}

fn python_with_aiosmtpd() -> PathBuf {
    if let Ok(p) = std::env::var("AIOSMTPD_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = workspace_root().join(".venv/bin/python");
    if venv.exists() {
        return venv;
    }
    PathBuf::from("python3")
}

impl SmtpSink {
    pub async fn start(dir: &Path) -> SmtpSink {
        Self::start_on(dir, free_port()).await
    }

    /// Starts the sink on a given port (e.g. one the app was configured with earlier).
    pub async fn start_on(dir: &Path, port: u16) -> SmtpSink {
        let maildir = dir.join("maildir");
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        let child = Command::new(python_with_aiosmtpd())
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd (run server/scripts/test.sh, or: python3 -m venv .venv && .venv/bin/pip install aiosmtpd)");
        wait_for_port(
            port,
            "aiosmtpd (is it installed? see server/scripts/test.sh)",
        )
        .await;
        SmtpSink {
            port,
            maildir,
            child,
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The npm `oidc-provider` on loopback (server/tests/oidc/provider.mjs).
pub struct OidcProvider {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
    child: Child,
}

impl OidcProvider {
    pub async fn start(redirect_uri: &str, userinfo_only: bool) -> OidcProvider {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        assert!(
            dir.join("node_modules/oidc-provider").exists(),
            "oidc-provider is not installed: run `npm install --no-audit --no-fund` in server/tests/oidc (server/scripts/test.sh does it)"
        );
        let port = free_port();
        let client_id = "platform-test".to_string();
        let client_secret = format!("secret-{}", uuid::Uuid::new_v4().simple());
        let child = Command::new("node")
            .arg(dir.join("provider.mjs"))
            .env("OP_PORT", port.to_string())
            .env("OP_CLIENT_ID", &client_id)
            .env("OP_CLIENT_SECRET", &client_secret)
            .env("OP_REDIRECT_URI", redirect_uri)
            .env("OP_USERINFO_ONLY", if userinfo_only { "1" } else { "0" })
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start node oidc-provider");
        wait_for_port(port, "oidc-provider").await;
        OidcProvider {
            issuer: format!("http://127.0.0.1:{port}"),
            client_id,
            client_secret,
            child,
        }
    }
}

impl Drop for OidcProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
