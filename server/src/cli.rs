//! Command-line subcommands: `serve` (default) and `create-admin`.

use std::process::ExitCode;

use crate::{
    app::{self, Application},
    config::Config,
    db,
    domain::{
        accounts::{self, CreateUserError, NewUser},
        users::Role,
    },
    security::{PasswordService, check_password_rules},
};

pub const USAGE: &str = "\
Usage:
  server                      start the HTTP server (same as `server serve`)
  server serve [--calibration FILE]
                              start the HTTP server; with --calibration (or CALIBRATION_FILE)
                              the score reports use that calibration of the market's figures
                              (TOML, score-core/calibration/mx-2026.toml is the default),
                              checked before the server starts
  server create-admin --email EMAIL [--password PASSWORD] [--first-name NAME] [--last-name NAME]
                              create a platform administrator (role admin, verified, active).
                              Without --password the password is read from ADMIN_PASSWORD.
  server seed [--agents N] [--agencies N] [--properties-per-agent N] [--reviewers N] [--seed N] [--force]
                              fill the database with realistic offices, agents, properties and
                              reviews across the 32 Mexican states (default 200 agents). Refuses
                              a database that already has accounts unless --force. Every
                              seeded account gets the password of SEED_PASSWORD, or else a
                              random one printed once at the end (stored nowhere).
  server backup --to FILE     write a consistent copy of the SQLite database to FILE while
                              the server runs (owner-only; FILE must not exist). PostgreSQL:
                              use pg_dump (server/README.md)
  server api-key create --name NAME [--limit N]
                              create a partner API key (sent as X-API-Key to the score
                              endpoints; N profiles per minute, default
                              API_KEY_RATE_LIMIT_PER_MINUTE). The key is printed once.
  server api-key list         list the keys (never the keys themselves)
  server api-key revoke ID    revoke a key at once
  server migrate [--check]    apply the pending database migrations (the server also applies
                              them at start); with --check, list them and exit 1 when any is
                              pending, changing nothing
  server --version            print the version of the server and of the score model
  server --help               show this help

Configuration comes from environment variables (see server/README.md).";

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Serve {
        /// `--calibration FILE`: takes the place of `CALIBRATION_FILE`.
        calibration: Option<std::path::PathBuf>,
    },
    Help,
    Version,
    Migrate {
        check: bool,
    },
    Backup {
        to: std::path::PathBuf,
    },
    ApiKeyCreate {
        name: String,
        limit: Option<i64>,
    },
    ApiKeyList,
    ApiKeyRevoke {
        id: String,
    },
    Seed(crate::seed::SeedOptions),
    CreateAdmin {
        email: String,
        password: Option<String>,
        first_name: String,
        last_name: String,
    },
}

pub fn parse(args: &[String]) -> Result<Command, String> {
    match args.first().map(String::as_str) {
        None => Ok(Command::Serve { calibration: None }),
        Some("serve") => match &args[1..] {
            [] => Ok(Command::Serve { calibration: None }),
            [flag, path] if flag == "--calibration" && !path.is_empty() => {
                Ok(Command::Serve { calibration: Some(path.into()) })
            }
            _ => Err("serve takes only --calibration FILE".into()),
        },
        Some("-h" | "--help" | "help") => Ok(Command::Help),
        Some("-V" | "--version" | "version") => Ok(Command::Version),
        Some("migrate") => match args.get(1).map(String::as_str) {
            None => Ok(Command::Migrate { check: false }),
            Some("--check") if args.len() == 2 => Ok(Command::Migrate { check: true }),
            Some(other) => Err(format!("unknown option {other}")),
        },
        Some("backup") => match &args[1..] {
            [flag, to] if flag == "--to" && !to.is_empty() => Ok(Command::Backup { to: to.into() }),
            _ => Err("backup needs --to FILE".into()),
        },
        Some("api-key") => match &args[1..] {
            [cmd] if cmd == "list" => Ok(Command::ApiKeyList),
            [cmd, id] if cmd == "revoke" => Ok(Command::ApiKeyRevoke { id: id.clone() }),
            [cmd, rest @ ..] if cmd == "create" => {
                let (mut name, mut limit) = (None, None);
                let mut it = rest.iter();
                while let Some(flag) = it.next() {
                    let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                    match flag.as_str() {
                        "--name" => name = Some(value.clone()),
                        "--limit" => limit = Some(value.parse().map_err(|_| "--limit needs a number".to_string())?),
                        other => return Err(format!("unknown option {other}")),
                    }
                }
                Ok(Command::ApiKeyCreate { name: name.ok_or("--name is required")?, limit })
            }
            _ => Err("api-key needs create --name NAME [--limit N], list or revoke ID".into()),
        },
        Some("create-admin") => {
            let mut email = None;
            let mut password = None;
            let mut first_name = "Admin".to_string();
            let mut last_name = "Plataforma".to_string();
            let mut it = args[1..].iter();
            while let Some(flag) = it.next() {
                let mut value = || {
                    it.next()
                        .cloned()
                        .ok_or_else(|| format!("{flag} needs a value"))
                };
                match flag.as_str() {
                    "--email" => email = Some(value()?),
                    "--password" => password = Some(value()?),
                    "--first-name" => first_name = value()?,
                    "--last-name" => last_name = value()?,
                    other => return Err(format!("unknown option {other}")),
                }
            }
            let email = email.ok_or("--email is required")?;
            Ok(Command::CreateAdmin {
                email,
                password,
                first_name,
                last_name,
            })
        }
        Some("seed") => {
            let mut opts = crate::seed::SeedOptions::default();
            let mut it = args[1..].iter();
            while let Some(flag) = it.next() {
                if flag == "--force" {
                    opts.force = true;
                    continue;
                }
                let value = it
                    .next()
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                let n: u64 = value
                    .parse()
                    .map_err(|_| format!("{flag} needs a number"))?;
                match flag.as_str() {
                    "--agents" => opts.agents = n as usize,
                    "--agencies" => opts.agencies = Some((n as usize).max(1)),
                    "--properties-per-agent" => opts.properties_per_agent = n as usize,
                    "--reviewers" => opts.reviewers = Some((n as usize).max(1)),
                    "--seed" => opts.seed = n,
                    other => return Err(format!("unknown option {other}")),
                }
            }
            if opts.agents > 1_000_000 {
                return Err("--agents is at most 1000000".into());
            }
            Ok(Command::Seed(opts))
        }
        Some(other) => Err(format!("unknown command {other}")),
    }
}

/// `server migrate [--check]`: exit 0 when the database is up to date (after applying, or
/// when checking finds nothing pending), 1 when checking finds pending migrations or on error.
async fn migrate(config: &Config, check: bool) -> ExitCode {
    let result = async {
        let pool = db::connect(&config.database_url, 1).await?;
        let pending = db::pending_migrations(&pool, &config.database_url).await?;
        if !check && !pending.is_empty() {
            db::migrate(&pool, &config.database_url).await?;
        }
        pool.close().await;
        Ok::<_, sqlx::Error>(pending)
    }
    .await;
    match result {
        Ok(pending) if pending.is_empty() => {
            println!("the database is up to date");
            ExitCode::SUCCESS
        }
        Ok(pending) => {
            for (version, description) in &pending {
                println!("{} {version} {description}", if check { "pending" } else { "applied" });
            }
            if check { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        Err(e) => {
            eprintln!("error: database: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `server backup --to FILE` on SQLite; on PostgreSQL it points to `pg_dump`.
pub async fn backup(config: &Config, to: &std::path::Path) -> Result<(), String> {
    if db::Backend::of_url(&config.database_url) == db::Backend::Postgres {
        return Err("backup copies SQLite databases; for PostgreSQL use pg_dump, e.g. \
             pg_dump --format=custom --file=backup.dump \"$DATABASE_URL\" (server/README.md)"
            .into());
    }
    let pool = db::connect(&config.database_url, 1)
        .await
        .map_err(|e| format!("database: {e}"))?;
    let result = db::backup_sqlite(&pool, to).await;
    pool.close().await;
    result
}

/// `server api-key ...`: what to print.
pub async fn api_key(config: &Config, command: &Command) -> Result<String, String> {
    use crate::domain::api_keys;
    let pool = db::connect_and_migrate(&config.database_url, 1)
        .await
        .map_err(|e| format!("database: {e}"))?;
    let result = match command {
        Command::ApiKeyCreate { name, limit } => {
            let limit = limit.unwrap_or(i64::from(config.api_key_rate_limit_per_minute));
            api_keys::create(&pool, name, limit, None).await.map(|(row, key)| {
                format!(
                    "API key {} for {} ({} profiles per minute); send it as X-API-Key. It is shown only now:\n{key}",
                    row.id, row.name, row.rate_limit_per_minute
                )
            })
        }
        Command::ApiKeyList => api_keys::list(&pool).await.map(|rows| {
            let mut out = format!("{:36}  {:12}  {:>10}  {:20}  {:20}  name", "id", "prefix", "per minute", "created", "revoked");
            for r in rows.iter().map(|r| r.view()) {
                out.push_str(&format!(
                    "\n{:36}  {:12}  {:>10}  {:20}  {:20}  {}",
                    r.id, r.key_prefix, r.rate_limit_per_minute, r.created_at, r.revoked_at.unwrap_or_default(), r.name
                ));
            }
            out
        }),
        Command::ApiKeyRevoke { id } => match api_keys::revoke(&pool, id).await {
            Ok(Some(r)) => Ok(format!("API key {} ({}) revoked", r.id, r.name)),
            Ok(None) => Err(crate::domain::error::DomainError::not_found("API_KEY_NOT_FOUND", "no such API key")),
            Err(e) => Err(e),
        },
        _ => Ok(String::new()),
    };
    pool.close().await;
    result.map_err(|e| e.message)
}

/// Creates an administrator account. Returns its id.
pub async fn create_admin(
    config: &Config,
    email: &str,
    password: &str,
    first_name: &str,
    last_name: &str,
) -> Result<String, String> {
    if !accounts::is_valid_email(email) {
        return Err("the e-mail address is not valid".into());
    }
    check_password_rules(password).map_err(|e| e.message)?;
    let pool = db::connect_and_migrate(&config.database_url, 2)
        .await
        .map_err(|e| format!("database: {e}"))?;
    let passwords = PasswordService::new(&config.argon2, 1)?;
    let hash = passwords.hash(password).await.map_err(|e| e.message)?;
    let new = NewUser {
        email: email.to_string(),
        password_hash: Some(hash),
        first_name: first_name.to_string(),
        last_name: last_name.to_string(),
        phone: None,
        company_name: None,
        role: Role::Admin,
        verified: true,
    };
    let result = accounts::create_user(&pool, &new).await;
    pool.close().await;
    match result {
        Ok(user) => Ok(user.id),
        Err(CreateUserError::EmailTaken) => {
            Err("an account with this e-mail already exists".into())
        }
        Err(CreateUserError::Db(e)) => Err(format!("database: {e}")),
    }
}

/// The `seed` subcommand: hashes the shared password once and seeds.
pub async fn seed(config: &Config, opts: &crate::seed::SeedOptions, password: &str) -> Result<crate::seed::SeedSummary, String> {
    check_password_rules(password).map_err(|e| e.message)?;
    let pool = db::connect_and_migrate(&config.database_url, 2)
        .await
        .map_err(|e| format!("database: {e}"))?;
    let (accounts,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users")
        .fetch_one(&pool)
        .await
        .map_err(|e| format!("database: {e}"))?;
    if accounts > 0 && !opts.force {
        pool.close().await;
        return Err(format!(
            "the database already has {accounts} accounts: seed only an empty database, or pass --force"
        ));
    }
    let passwords = PasswordService::new(&config.argon2, 1)?;
    let hash = passwords.hash(password).await.map_err(|e| e.message)?;
    let result = crate::seed::run(&pool, &hash, opts).await;
    pool.close().await;
    result.map_err(|e| format!("database: {e}"))
}

/// A random password for seeded accounts: 24 characters of an unambiguous alphabet (about
/// 129 bits), within the password rules.
fn random_password() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..24)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Runs the command of `args` (the process arguments without the program name) and gives the
/// process exit code: 2 for a usage or configuration error, 1 for a failure.
pub async fn run(args: &[String]) -> ExitCode {
    crate::telemetry::init();
    let command = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}\n\n{}", USAGE);
            return ExitCode::from(2);
        }
    };
    if command == Command::Help {
        println!("{}", USAGE);
        return ExitCode::SUCCESS;
    }
    if command == Command::Version {
        println!(
            "server {} (score model {}, score-core {})",
            env!("CARGO_PKG_VERSION"),
            score_core::MODEL_VERSION,
            score_core::VERSION
        );
        return ExitCode::SUCCESS;
    }
    let config = match Config::from_env().and_then(|mut c| {
        if let Command::Serve { calibration: Some(path) } = &command {
            c.calibration = std::sync::Arc::new(Config::load_calibration(path)?);
        }
        Ok(c)
    }) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help | Command::Version => ExitCode::SUCCESS,
        Command::Migrate { check } => migrate(&config, check).await,
        Command::ApiKeyCreate { .. } | Command::ApiKeyList | Command::ApiKeyRevoke { .. } => {
            match api_key(&config, &command).await {
                Ok(out) => {
                    println!("{out}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Backup { to } => match backup(&config, &to).await {
            Ok(()) => {
                println!("backup written to {}", to.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::CreateAdmin {
            email,
            password,
            first_name,
            last_name,
        } => {
            let Some(password) = password.or_else(|| std::env::var("ADMIN_PASSWORD").ok()) else {
                eprintln!("error: give --password or set ADMIN_PASSWORD");
                return ExitCode::from(2);
            };
            match create_admin(&config, &email, &password, &first_name, &last_name).await {
                Ok(id) => {
                    println!(
                        "administrator created: {} ({id})",
                        email.trim().to_lowercase()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Seed(opts) => {
            // No password anyone could know: the operator's, or a random one shown once.
            let given = std::env::var("SEED_PASSWORD").ok().filter(|p| !p.is_empty());
            let password = given.clone().unwrap_or_else(random_password);
            let started = std::time::Instant::now();
            match seed(&config, &opts, &password).await {
                Ok(s) => {
                    println!(
                        "seeded in {:.1} s (run tag {}): {} offices, {} agents ({} active), {} properties, {} reviews by {} buyers",
                        started.elapsed().as_secs_f64(),
                        s.tag,
                        s.agencies,
                        s.agents,
                        s.active_agents,
                        s.properties,
                        s.reviews,
                        s.reviewers
                    );
                    match given {
                        Some(_) => println!("every seeded account has the password of SEED_PASSWORD;"),
                        None => println!(
                            "password of every seeded account (shown only now, stored nowhere): {password}"
                        ),
                    }
                    println!(
                        "  e.g. office owner: {}\n  agent: {}",
                        s.first_owner_email, s.first_agent_email
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Serve { .. } => {
            // Which of the SAT's CA certificates receipts are chained to (score-docs/ca-sat/README.md).
            let ca_sat = match &config.sat_ca_dir {
                Some(dir) => format!("{} from SAT_CA_DIR {}", config.sat_ca.len(), dir.display()),
                None => format!("{} carried by score-docs", config.sat_ca.len()),
            };
            let app = match Application::build(config).await {
                Ok(a) => a,
                Err(e) => {
                    tracing::error!(error = %e, "startup failed");
                    return ExitCode::FAILURE;
                }
            };
            tracing::info!(address = %app.local_addr(), ca_sat = %ca_sat, "listening");
            match app.run_until(app::shutdown_signal()).await {
                Ok(()) => {
                    tracing::info!("stopped");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    tracing::error!(error = %e, "server error");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse(&args(&[])), Ok(Command::Serve { calibration: None }));
        assert_eq!(parse(&args(&["serve"])), Ok(Command::Serve { calibration: None }));
        assert_eq!(
            parse(&args(&["serve", "--calibration", "banco.toml"])),
            Ok(Command::Serve { calibration: Some("banco.toml".into()) })
        );
        assert!(parse(&args(&["serve", "--calibration"])).is_err());
        assert_eq!(parse(&args(&["--help"])), Ok(Command::Help));
        assert_eq!(parse(&args(&["--version"])), Ok(Command::Version));
        assert_eq!(parse(&args(&["migrate"])), Ok(Command::Migrate { check: false }));
        assert_eq!(parse(&args(&["migrate", "--check"])), Ok(Command::Migrate { check: true }));
        assert!(parse(&args(&["migrate", "--dry"])).is_err());
        assert_eq!(
            parse(&args(&[
                "create-admin",
                "--email",
                "a@b.co",
                "--password",
                "p",
                "--last-name",
                "X"
            ])),
            Ok(Command::CreateAdmin {
                email: "a@b.co".into(),
                password: Some("p".into()),
                first_name: "Admin".into(),
                last_name: "X".into()
            })
        );
        assert!(parse(&args(&["create-admin"])).is_err());
        assert!(parse(&args(&["create-admin", "--email"])).is_err());
        assert!(
            parse(&args(&[
                "create-admin",
                "--email",
                "a@b.co",
                "--bogus",
                "1"
            ]))
            .is_err()
        );
        assert!(parse(&args(&["frobnicate"])).is_err());
        assert_eq!(
            parse(&args(&["backup", "--to", "copy.db"])),
            Ok(Command::Backup { to: "copy.db".into() })
        );
        assert!(parse(&args(&["backup"])).is_err());
        assert_eq!(
            parse(&args(&["api-key", "create", "--name", "Portal", "--limit", "600"])),
            Ok(Command::ApiKeyCreate { name: "Portal".into(), limit: Some(600) })
        );
        assert_eq!(parse(&args(&["api-key", "list"])), Ok(Command::ApiKeyList));
        assert_eq!(parse(&args(&["api-key", "revoke", "x"])), Ok(Command::ApiKeyRevoke { id: "x".into() }));
        assert!(parse(&args(&["api-key", "create"])).is_err());
        assert!(parse(&args(&["api-key", "create", "--limit", "a", "--name", "P"])).is_err());
        assert!(parse(&args(&["backup", "--to"])).is_err());
        let (a, b) = (random_password(), random_password());
        assert_ne!(a, b);
        assert!(check_password_rules(&a).is_ok());
        match parse(&args(&["seed", "--agents", "10000", "--seed", "7"])) {
            Ok(Command::Seed(o)) => assert_eq!((o.agents, o.seed), (10_000, 7)),
            other => panic!("{other:?}"),
        }
        assert!(parse(&args(&["seed", "--agents"])).is_err());
        match parse(&args(&["seed", "--force", "--agents", "5"])) {
            Ok(Command::Seed(o)) => assert!(o.force && o.agents == 5),
            other => panic!("{other:?}"),
        }
        assert!(parse(&args(&["seed", "--agents", "x"])).is_err());
    }
}
