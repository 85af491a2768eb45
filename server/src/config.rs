//! Configuration, read from environment variables (see `server/README.md` for the full list).
//!
//! Tests build a [`Config`] directly with [`Config::for_tests`] so they never touch the process
//! environment.

use std::{fmt, net::IpAddr, path::PathBuf, time::Duration};

/// Password hashing parameters (Argon2id). The defaults are the OWASP minimum
/// (m = 19 MiB, t = 2, p = 1).
#[derive(Clone, Debug)]
pub struct Argon2Config {
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for Argon2Config {
    fn default() -> Self {
        Self {
            memory_kib: 19 * 1024,
            iterations: 2,
            parallelism: 1,
        }
    }
}

/// OpenID Connect relying-party settings; present only when all four variables are set.
#[derive(Clone)]
pub struct OidcConfig {
    pub issuer_url: String,
    pub client_id: String,
    pub client_secret: String,
    pub redirect_url: String,
}

impl fmt::Debug for OidcConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OidcConfig")
            .field("issuer_url", &self.issuer_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &"<redacted>")
            .field("redirect_url", &self.redirect_url)
            .finish()
    }
}

/// A secret string that never shows up in `Debug` output or logs.
#[derive(Clone)]
pub struct Secret(pub Vec<u8>);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    /// The market's figures the score reports are made with: the file of `CALIBRATION_FILE`
    /// (or `serve --calibration`), checked at start; score-core's embedded one otherwise.
    pub calibration: std::sync::Arc<score_core::Calibration>,
    /// The SAT's CA certificates receipts' certificates are chained to: the files of the folder
    /// `SAT_CA_DIR`, checked at start; score-docs' carried ones (ca-sat/) otherwise.
    pub sat_ca: std::sync::Arc<score_docs::CertificadosSat>,
    /// `SAT_CA_DIR` as given (shown in the `listening` log line), `None` for the carried ones.
    pub sat_ca_dir: Option<PathBuf>,
    pub host: IpAddr,
    pub port: u16,
    /// `sqlite://...` or `postgres://...`.
    pub database_url: String,
    /// Folder for the default SQLite file, the generated JWT key and the mail outbox.
    pub data_dir: PathBuf,
    /// HS256 signing key. From `JWT_SECRET`, otherwise generated once and kept in
    /// `<data_dir>/jwt-secret`.
    pub jwt_secret: Option<Secret>,
    pub jwt_issuer: String,
    pub jwt_audience: String,
    pub access_token_ttl: Duration,
    pub verification_token_ttl: Duration,
    pub reset_token_ttl: Duration,
    pub idp_login_code_ttl: Duration,
    pub argon2: Argon2Config,
    /// Maximum concurrent password hash computations.
    pub hash_concurrency: usize,
    pub frontend_url: String,
    pub frontend_verify_path: String,
    pub frontend_reset_path: String,
    pub frontend_idp_callback_path: String,
    pub smtp_url: Option<String>,
    pub mail_from: String,
    pub mail_outbox_dir: PathBuf,
    pub mail_max_attempts: u32,
    pub mail_retry_base: Duration,
    /// How often the delivery worker looks for due e-mails besides being woken by a request.
    pub mail_poll_interval: Duration,
    /// `SMTP_TIMEOUT_SECONDS`: the most one SMTP exchange may take before the attempt fails
    /// and is retried (a server that accepts and never answers).
    pub smtp_timeout: Duration,
    pub oidc: Option<OidcConfig>,
    pub auth_rate_limit_per_minute: u32,
    /// Requests per minute per client IP on the public score endpoints (`/api/v1/*`).
    pub score_rate_limit_per_minute: u32,
    /// Default profiles per minute of a new partner API key (`API_KEY_RATE_LIMIT_PER_MINUTE`).
    pub api_key_rate_limit_per_minute: u32,
    pub trust_x_forwarded_for: bool,
    pub cors_allowed_origins: Vec<String>,
    pub max_body_bytes: usize,
    pub request_timeout: Duration,
    pub api_docs_enabled: bool,
    pub db_max_connections: u32,
    /// `METRICS_TOKEN`: when set, `/metrics` answers only `Authorization: Bearer <token>`.
    pub metrics_token: Option<Secret>,
    /// `OCR_WORKERS`: printed documents read at once (each reading holds a core).
    pub ocr_workers: usize,
    /// `OCR_QUEUE`: printed documents that may wait to be read; beyond, uploads get 503.
    pub ocr_queue: usize,
    /// `OCR_TIMEOUT_SECONDS`: the most one document's reading may take.
    pub ocr_timeout: Duration,
}

#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {0}")]
pub struct ConfigError(pub String);

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn parse<T: std::str::FromStr>(name: &str, default: T) -> Result<T, ConfigError> {
    match var(name) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| ConfigError(format!("{name} has an invalid value"))),
    }
}

fn parse_bool(name: &str, default: bool) -> Result<bool, ConfigError> {
    match var(name).map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(default),
        Some(v) if ["1", "true", "yes", "on"].contains(&v.as_str()) => Ok(true),
        Some(v) if ["0", "false", "no", "off"].contains(&v.as_str()) => Ok(false),
        Some(_) => Err(ConfigError(format!("{name} must be true or false"))),
    }
}

/// The server's own base URL, the default `FRONTEND_URL`: the server serves the web app
/// (`crate::web`), so the links of every e-mail open a page with no configuration. An
/// unspecified address (`0.0.0.0`, `::`) becomes `localhost`.
fn own_address(host: IpAddr, port: u16) -> String {
    match host {
        h if h.is_unspecified() => format!("http://localhost:{port}"),
        IpAddr::V6(h) => format!("http://[{h}]:{port}"),
        IpAddr::V4(h) => format!("http://{h}:{port}"),
    }
}

impl Config {
    /// Reads the configuration from the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let data_dir = PathBuf::from(var("DATA_DIR").unwrap_or_else(|| "data".into()));
        let database_url = var("DATABASE_URL").unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                data_dir.join("platform.db").display()
            )
        });
        let oidc = match (
            var("OIDC_ISSUER_URL"),
            var("OIDC_CLIENT_ID"),
            var("OIDC_CLIENT_SECRET"),
            var("OIDC_REDIRECT_URL"),
        ) {
            (Some(issuer_url), Some(client_id), Some(client_secret), Some(redirect_url)) => {
                Some(OidcConfig {
                    issuer_url,
                    client_id,
                    client_secret,
                    redirect_url,
                })
            }
            (None, None, None, None) => None,
            _ => {
                return Err(ConfigError(
                    "OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_REDIRECT_URL \
                     must be set together"
                        .into(),
                ));
            }
        };
        let jwt_secret = match var("JWT_SECRET") {
            Some(s) if s.len() < 32 => {
                return Err(ConfigError("JWT_SECRET must be at least 32 bytes".into()));
            }
            Some(s) => Some(Secret(s.into_bytes())),
            None => None,
        };
        let defaults = Argon2Config::default();
        let host = parse("HOST", IpAddr::from([127, 0, 0, 1]))?;
        let port = parse("PORT", 8080)?;
        let calibration = match var("CALIBRATION_FILE") {
            Some(path) => Config::load_calibration(std::path::Path::new(path.trim()))?,
            None => score_core::Calibration::default(),
        };
        let sat_ca_dir = var("SAT_CA_DIR").map(|d| PathBuf::from(d.trim()));
        let sat_ca = match &sat_ca_dir {
            Some(dir) => Config::load_sat_ca(dir)?,
            None => score_docs::CertificadosSat::incluidos().clone(),
        };
        let cfg = Config {
            calibration: std::sync::Arc::new(calibration),
            sat_ca: std::sync::Arc::new(sat_ca),
            sat_ca_dir,
            host,
            port,
            database_url,
            mail_outbox_dir: var("MAIL_OUTBOX_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| data_dir.join("outbox")),
            data_dir,
            jwt_secret,
            jwt_issuer: var("JWT_ISSUER").unwrap_or_else(|| "platform-score".into()),
            jwt_audience: var("JWT_AUDIENCE").unwrap_or_else(|| "platform-score-api".into()),
            access_token_ttl: Duration::from_secs(parse("ACCESS_TOKEN_TTL_SECONDS", 3600)?),
            verification_token_ttl: Duration::from_secs(parse(
                "VERIFICATION_TOKEN_TTL_SECONDS",
                86_400,
            )?),
            reset_token_ttl: Duration::from_secs(parse("RESET_TOKEN_TTL_SECONDS", 3600)?),
            idp_login_code_ttl: Duration::from_secs(parse("IDP_LOGIN_CODE_TTL_SECONDS", 120)?),
            argon2: Argon2Config {
                memory_kib: parse("ARGON2_MEMORY_KIB", defaults.memory_kib)?,
                iterations: parse("ARGON2_ITERATIONS", defaults.iterations)?,
                parallelism: parse("ARGON2_PARALLELISM", defaults.parallelism)?,
            },
            hash_concurrency: parse(
                "PASSWORD_HASH_CONCURRENCY",
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(2),
            )?,
            frontend_url: var("FRONTEND_URL").unwrap_or_else(|| own_address(host, port)),
            frontend_verify_path: var("FRONTEND_VERIFY_PATH")
                .unwrap_or_else(|| "/verify-email".into()),
            frontend_reset_path: var("FRONTEND_RESET_PATH")
                .unwrap_or_else(|| "/reset-password".into()),
            frontend_idp_callback_path: var("FRONTEND_IDP_CALLBACK_PATH")
                .unwrap_or_else(|| "/auth/idp/callback".into()),
            smtp_url: var("SMTP_URL"),
            mail_from: var("MAIL_FROM").unwrap_or_else(|| "Plataforma <no-reply@localhost>".into()),
            mail_max_attempts: parse("MAIL_MAX_ATTEMPTS", 5)?,
            mail_retry_base: Duration::from_millis(parse("MAIL_RETRY_BASE_MS", 1000)?),
            mail_poll_interval: Duration::from_millis(parse("MAIL_POLL_INTERVAL_MS", 1000)?),
            smtp_timeout: Duration::from_secs(parse("SMTP_TIMEOUT_SECONDS", 15)?),
            oidc,
            auth_rate_limit_per_minute: parse("AUTH_RATE_LIMIT_PER_MINUTE", 10)?,
            score_rate_limit_per_minute: parse("SCORE_RATE_LIMIT_PER_MINUTE", 120)?,
            api_key_rate_limit_per_minute: parse("API_KEY_RATE_LIMIT_PER_MINUTE", 6000)?,
            trust_x_forwarded_for: parse_bool("TRUST_X_FORWARDED_FOR", false)?,
            cors_allowed_origins: var("CORS_ALLOWED_ORIGINS")
                .map(|v| {
                    v.split(',')
                        .map(|s| s.trim().trim_end_matches('/').to_string())
                        .filter(|s| !s.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            max_body_bytes: parse("MAX_BODY_BYTES", 64 * 1024)?,
            request_timeout: Duration::from_secs(parse("REQUEST_TIMEOUT_SECONDS", 30)?),
            api_docs_enabled: parse_bool("API_DOCS_ENABLED", true)?,
            db_max_connections: parse("DB_MAX_CONNECTIONS", 10)?,
            metrics_token: var("METRICS_TOKEN").map(|s| Secret(s.into_bytes())),
            ocr_workers: parse(
                "OCR_WORKERS",
                std::thread::available_parallelism().map(|n| n.get().div_ceil(2)).unwrap_or(1),
            )?,
            ocr_queue: parse("OCR_QUEUE", 32)?,
            ocr_timeout: Duration::from_secs(parse("OCR_TIMEOUT_SECONDS", 60)?),
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// Reads and checks a calibration file (`CALIBRATION_FILE`, `serve --calibration`): a file
    /// that cannot be read or is not a valid calibration stops the start with its reason.
    pub fn load_calibration(path: &std::path::Path) -> Result<score_core::Calibration, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("CALIBRATION_FILE {}: {e}", path.display())))?;
        score_core::Calibration::from_toml(&text).map_err(|e| {
            ConfigError(format!(
                "CALIBRATION_FILE {}: {} en `{}`: {}",
                path.display(),
                e.code,
                e.field.unwrap_or_default(),
                e.message
            ))
        })
    }

    /// Reads the SAT's CA certificates of `dir` (`SAT_CA_DIR`): every file in it (DER, as the
    /// SAT publishes them, or PEM; hidden files and README files skipped). A folder that cannot
    /// be read, has none, or has a file that is not a certificate stops the start, naming it.
    pub fn load_sat_ca(dir: &std::path::Path) -> Result<score_docs::CertificadosSat, ConfigError> {
        let error = |e: &dyn fmt::Display| ConfigError(format!("SAT_CA_DIR {}: {e}", dir.display()));
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| error(&e))? {
            let path = entry.map_err(|e| error(&e))?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if !path.is_file() || name.starts_with('.') || name.to_ascii_lowercase().starts_with("readme") {
                continue;
            }
            files.push((name, std::fs::read(&path).map_err(|e| error(&e))?));
        }
        // In name order, so that a start says the same whatever order the folder lists.
        files.sort();
        score_docs::CertificadosSat::from_files(files).map_err(|e| error(&e.message))
    }

    /// A configuration for tests: cheap Argon2 parameters, generous rate limits, outbox mail.
    pub fn for_tests(database_url: String, data_dir: PathBuf) -> Self {
        Config {
            calibration: std::sync::Arc::new(score_core::Calibration::default()),
            sat_ca: std::sync::Arc::new(score_docs::CertificadosSat::incluidos().clone()),
            sat_ca_dir: None,
            host: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            database_url,
            mail_outbox_dir: data_dir.join("outbox"),
            data_dir,
            jwt_secret: Some(Secret(
                b"test-secret-test-secret-test-secret-0123456789".to_vec(),
            )),
            jwt_issuer: "platform-score".into(),
            jwt_audience: "platform-score-api".into(),
            access_token_ttl: Duration::from_secs(3600),
            verification_token_ttl: Duration::from_secs(86_400),
            reset_token_ttl: Duration::from_secs(3600),
            idp_login_code_ttl: Duration::from_secs(120),
            argon2: Argon2Config {
                memory_kib: 1024,
                iterations: 1,
                parallelism: 1,
            },
            hash_concurrency: 4,
            frontend_url: "http://127.0.0.1:3000".into(),
            frontend_verify_path: "/verify-email".into(),
            frontend_reset_path: "/reset-password".into(),
            frontend_idp_callback_path: "/auth/idp/callback".into(),
            smtp_url: None,
            mail_from: "Plataforma <no-reply@example.test>".into(),
            mail_max_attempts: 5,
            mail_retry_base: Duration::from_millis(100),
            mail_poll_interval: Duration::from_millis(100),
            smtp_timeout: Duration::from_secs(3),
            oidc: None,
            auth_rate_limit_per_minute: 10_000,
            score_rate_limit_per_minute: 10_000,
            api_key_rate_limit_per_minute: 6000,
            trust_x_forwarded_for: false,
            cors_allowed_origins: vec![],
            max_body_bytes: 64 * 1024,
            request_timeout: Duration::from_secs(30),
            api_docs_enabled: true,
            db_max_connections: 5,
            metrics_token: None,
            ocr_workers: 1,
            ocr_queue: 32,
            ocr_timeout: Duration::from_secs(60),
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.database_url.starts_with("sqlite:")
            || self.database_url.starts_with("postgres://")
            || self.database_url.starts_with("postgresql://"))
        {
            return Err(ConfigError(
                "DATABASE_URL must be sqlite: or postgres://".into(),
            ));
        }
        if self.auth_rate_limit_per_minute == 0 {
            return Err(ConfigError(
                "AUTH_RATE_LIMIT_PER_MINUTE must be at least 1".into(),
            ));
        }
        if self.score_rate_limit_per_minute == 0 {
            return Err(ConfigError(
                "SCORE_RATE_LIMIT_PER_MINUTE must be at least 1".into(),
            ));
        }
        if self.api_key_rate_limit_per_minute == 0 {
            return Err(ConfigError(
                "API_KEY_RATE_LIMIT_PER_MINUTE must be at least 1".into(),
            ));
        }
        if self.ocr_workers == 0 || self.ocr_queue == 0 || self.ocr_timeout.is_zero() {
            return Err(ConfigError("OCR_WORKERS, OCR_QUEUE and OCR_TIMEOUT_SECONDS must be at least 1".into()));
        }
        if self.hash_concurrency == 0 {
            return Err(ConfigError(
                "PASSWORD_HASH_CONCURRENCY must be at least 1".into(),
            ));
        }
        url::Url::parse(&self.frontend_url)
            .map_err(|_| ConfigError("FRONTEND_URL must be an absolute URL".into()))?;
        Ok(())
    }

    /// With `PORT=0` the kernel picks the port when the server binds. A URL of this
    /// configuration that names port 0 (the default `FRONTEND_URL`, an `OIDC_REDIRECT_URL`
    /// written `http://127.0.0.1:0/api/auth/idp/callback`) means that port: no client can
    /// connect to port 0, so nothing else is meant. Tests and scripts thus never guess a
    /// port that might be taken before the server binds it.
    pub fn with_bound_port(mut self, port: u16) -> Self {
        fn fill(url: &mut String, port: u16) {
            if let Ok(mut parsed) = url::Url::parse(url)
                && parsed.port() == Some(0)
                && parsed.set_port(Some(port)).is_ok()
            {
                *url = parsed.to_string();
            }
        }
        fill(&mut self.frontend_url, port);
        if let Some(oidc) = self.oidc.as_mut() {
            fill(&mut oidc.redirect_url, port);
        }
        self
    }

    /// Builds `FRONTEND_URL` + `path` + `?key=value`.
    pub fn frontend_link(&self, path: &str, key: &str, value: &str) -> String {
        let base = self.frontend_url.trim_end_matches('/');
        let mut url = url::Url::parse(&format!("{base}{path}"))
            .unwrap_or_else(|_| url::Url::parse("http://localhost/").expect("static URL"));
        url.query_pairs_mut().append_pair(key, value);
        url.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontend_links_carry_the_token_as_query() {
        let mut c = Config::for_tests("sqlite::memory:".into(), PathBuf::from("x"));
        c.frontend_url = "https://app.example.com/".into();
        assert_eq!(
            c.frontend_link("/verify-email", "token", "abc_-123"),
            "https://app.example.com/verify-email?token=abc_-123"
        );
        assert!(c.validate().is_ok());
        c.database_url = "mysql://x".into();
        assert!(c.validate().is_err());
    }

    #[test]
    fn the_default_frontend_is_the_server_itself() {
        assert_eq!(
            own_address(IpAddr::from([127, 0, 0, 1]), 8080),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            own_address(IpAddr::from([0, 0, 0, 0]), 80),
            "http://localhost:80"
        );
        assert_eq!(
            own_address(IpAddr::from(std::net::Ipv6Addr::LOCALHOST), 8080),
            "http://[::1]:8080"
        );
    }

    #[test]
    fn secrets_are_not_printed() {
        let c = Config::for_tests("sqlite::memory:".into(), PathBuf::from("x"));
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("test-secret"), "{dbg}");
        assert!(dbg.contains("<redacted>"));
    }

    #[test]
    fn port_zero_in_own_urls_becomes_the_bound_port() {
        let mut c = Config::for_tests("sqlite::memory:".into(), PathBuf::from("x"));
        c.frontend_url = own_address(IpAddr::from([127, 0, 0, 1]), 0);
        c.oidc = Some(OidcConfig {
            issuer_url: "http://127.0.0.1:4000".into(),
            client_id: "id".into(),
            client_secret: "secret".into(),
            redirect_url: "http://127.0.0.1:0/api/auth/idp/callback".into(),
        });
        let c = c.with_bound_port(43210);
        assert_eq!(c.frontend_url, "http://127.0.0.1:43210/");
        let urls = c.oidc.as_ref().map(|o| (o.redirect_url.as_str(), o.issuer_url.as_str()));
        assert_eq!(urls, Some(("http://127.0.0.1:43210/api/auth/idp/callback", "http://127.0.0.1:4000")));
        let mut other = Config::for_tests("sqlite::memory:".into(), PathBuf::from("x"));
        other.frontend_url = "https://app.example.com".into();
        assert_eq!(other.with_bound_port(43210).frontend_url, "https://app.example.com");
    }
}
