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
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, ChildStdout, Command, Stdio},
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

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The first line a child process prints (the port or URL it listens on: the kernel picked it,
/// so no test ever guesses a free port), waiting up to 30 s. The reader is returned so that the
/// pipe stays open for whatever the child prints later.
async fn first_line(child: &mut Child, what: &str) -> (String, BufReader<ChildStdout>) {
    let stdout = child.stdout.take().expect("stdout is piped");
    let reading = tokio::task::spawn_blocking(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        reader.read_line(&mut line).map(|_| (line.trim().to_string(), reader))
    });
    match tokio::time::timeout(Duration::from_secs(30), reading).await {
        Ok(Ok(Ok((line, reader)))) if !line.is_empty() => (line, reader),
        other => {
            let _ = child.kill();
            panic!("{what} did not say where it listens: {other:?}");
        }
    }
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

/// fixtures/documents/ca-prueba/ac: the test CA that issued the fixture receipts' certificates.
pub fn test_ca_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents/ca-prueba/ac")
}

/// The test CA of [`test_ca_dir`], to read fixture receipts as the tests' server reads them.
pub fn test_ca() -> score_docs::CertificadosSat {
    Config::load_sat_ca(&test_ca_dir()).expect("the test CA")
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        Self::spawn_with(TestOptions::default()).await
    }

    pub async fn spawn_with(opts: TestOptions) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let database_url = fresh_database(dir.path()).await;
        let mut config = Config::for_tests(database_url, dir.path().join("data"));
        // The fixtures' receipts are chained to the test CA (fixtures/documents/ca-prueba/ac),
        // loaded as an operator's SAT_CA_DIR: with the SAT's own CAs they would prove nothing.
        let ca = test_ca_dir();
        config.sat_ca = std::sync::Arc::new(Config::load_sat_ca(&ca).expect("the test CA"));
        config.sat_ca_dir = Some(ca);
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

    /// Waits (up to 20 s) until no e-mail is left pending in the outbox table: every e-mail the
    /// requests so far queued has been delivered (or given up on).
    pub async fn wait_for_mail_queue_empty(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (pending,): (i64,) =
                sqlx::query_as("SELECT COUNT(*) FROM mail_outbox WHERE status = 'pending'")
                    .fetch_one(&self.db)
                    .await
                    .unwrap();
            if pending == 0 {
                return;
            }
            assert!(Instant::now() < deadline, "{pending} e-mails still pending");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Number of e-mails received so far to `to`.
    pub fn count_emails_to(&self, to: &str) -> usize {
        count_emails_to(&self.mail_files(), to)
    }
}

/// Number of the e-mail `files` addressed to `to`.
pub fn count_emails_to(files: &[PathBuf], to: &str) -> usize {
    files
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

/// `aiosmtpd` SMTP sink on loopback writing a maildir (server/tests/smtp_sink.py), on a port
/// the kernel picked.
pub struct SmtpSink {
    pub port: u16,
    pub maildir: PathBuf,
    child: Child,
    _stdout: BufReader<ChildStdout>,
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
    /// The messages received so far.
    pub fn files(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.maildir.join("new"))
            .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default()
    }

    pub async fn start(dir: &Path) -> SmtpSink {
        let maildir = dir.join("maildir");
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        let mut child = Command::new(python_with_aiosmtpd())
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp_sink.py"))
            .arg(&maildir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd (run server/scripts/test.sh, or: python3 -m venv .venv && .venv/bin/pip install aiosmtpd)");
        let (line, stdout) = first_line(&mut child, "aiosmtpd (is it installed? see server/scripts/test.sh)").await;
        SmtpSink {
            port: line.parse().expect("the sink prints its port"),
            maildir,
            child,
            _stdout: stdout,
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An SMTP address the test owns for as long as it lives. Until [`SmtpGate::open`] it is a
/// server that is down: each connection is accepted and closed at once, so a delivery attempt
/// fails in microseconds (never on a timeout, never on another test's listener that took a
/// port thought free). Once open, each connection is forwarded to a sink.
pub struct SmtpGate {
    pub port: u16,
    sink: Arc<Mutex<Option<u16>>>,
    task: tokio::task::JoinHandle<()>,
}

impl SmtpGate {
    pub async fn start() -> SmtpGate {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let sink: Arc<Mutex<Option<u16>>> = Arc::default();
        let target = sink.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut conn, _)) = listener.accept().await {
                let Some(sink_port) = *target.lock().unwrap() else {
                    drop(conn);
                    continue;
                };
                tokio::spawn(async move {
                    if let Ok(mut upstream) = tokio::net::TcpStream::connect(("127.0.0.1", sink_port)).await {
                        let _ = tokio::io::copy_bidirectional(&mut conn, &mut upstream).await;
                    }
                });
            }
        });
        SmtpGate { port, sink, task }
    }

    /// From now on, connections reach the sink on `sink_port`.
    pub fn open(&self, sink_port: u16) {
        *self.sink.lock().unwrap() = Some(sink_port);
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }
}

impl Drop for SmtpGate {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The real `server` binary, configured by environment like an operator would: `PORT=0`, and
/// the address it got read from its `listening` log line (JSON logs in `<dir>/<log>`).
pub struct ServerProcess {
    /// `http://127.0.0.1:<port>`
    pub address: String,
    pub log: PathBuf,
    child: Child,
}

impl ServerProcess {
    /// Starts the binary with a cleared environment plus `PATH`, `HOST=127.0.0.1`, `PORT=0`,
    /// `LOG_FORMAT=json` and `env`, and waits (up to 30 s) until it listens.
    pub async fn start(dir: &Path, env: &[(&str, String)]) -> ServerProcess {
        let mut server = Self::spawn(dir, env);
        let line = server.wait_for_log(&["\"message\":\"listening\""]).await;
        let entry: Value = serde_json::from_str(&line).unwrap();
        server.address = format!("http://{}", entry["fields"]["address"].as_str().unwrap());
        server
    }

    /// Starts the binary as [`ServerProcess::start`] does and expects it to exit without ever
    /// listening (up to 30 s): its exit status and log.
    pub async fn start_and_fail(dir: &Path, env: &[(&str, String)]) -> (std::process::ExitStatus, String) {
        let mut server = Self::spawn(dir, env);
        let status = server.wait().await;
        let log = std::fs::read_to_string(&server.log).unwrap_or_default();
        assert!(!log.contains("\"message\":\"listening\""), "it listened:\n{log}");
        (status, log)
    }

    fn spawn(dir: &Path, env: &[(&str, String)]) -> ServerProcess {
        let log = dir.join(format!("server-{}.log", uuid::Uuid::new_v4().simple()));
        let out = std::fs::File::create(&log).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_server"));
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOST", "127.0.0.1")
            .env("PORT", "0")
            .env("LOG_FORMAT", "json");
        for (name, value) in env {
            command.env(name, value);
        }
        let child = command
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .expect("start the server binary");
        ServerProcess { address: String::new(), log, child }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits (up to 30 s) for a log line that contains every one of `parts`, and returns it.
    pub async fn wait_for_log(&mut self, parts: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = std::fs::read_to_string(&self.log).unwrap_or_default();
            if let Some(line) = text.lines().find(|l| parts.iter().all(|p| l.contains(p))) {
                return line.to_string();
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the server exited ({status}) before logging {parts:?}:\n{text}");
            }
            assert!(Instant::now() < deadline, "the server did not log {parts:?}:\n{text}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// SIGKILL: no shutdown of any kind.
    pub fn kill_9(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Waits (up to 60 s) for the process to exit on its own.
    pub async fn wait(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for ServerProcess {
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
    _stdout: BufReader<ChildStdout>,
}

impl OidcProvider {
    pub async fn start(redirect_uri: &str, userinfo_only: bool) -> OidcProvider {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        assert!(
            dir.join("node_modules/oidc-provider").exists(),
            "oidc-provider is not installed: run `npm install --no-audit --no-fund` in server/tests/oidc (server/scripts/test.sh does it)"
        );
        let client_id = "platform-test".to_string();
        let client_secret = format!("secret-{}", uuid::Uuid::new_v4().simple());
        let mut child = Command::new("node")
            .arg(dir.join("provider.mjs"))
            .env("OP_CLIENT_ID", &client_id)
            .env("OP_CLIENT_SECRET", &client_secret)
            .env("OP_REDIRECT_URI", redirect_uri)
            .env("OP_USERINFO_ONLY", if userinfo_only { "1" } else { "0" })
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start node oidc-provider");
        let (issuer, stdout) = first_line(&mut child, "oidc-provider").await;
        OidcProvider {
            issuer,
            client_id,
            client_secret,
            child,
            _stdout: stdout,
        }
    }
}

impl Drop for OidcProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
