//! `server` binary: see `server --help`.

use std::process::ExitCode;

use server::{Application, Config, app, cli};

#[tokio::main]
async fn main() -> ExitCode {
    server::telemetry::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match cli::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    if command == cli::Command::Help {
        println!("{}", cli::USAGE);
        return ExitCode::SUCCESS;
    }
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match command {
        cli::Command::Help => ExitCode::SUCCESS,
        cli::Command::CreateAdmin {
            email,
            password,
            first_name,
            last_name,
        } => {
            let Some(password) = password.or_else(|| std::env::var("ADMIN_PASSWORD").ok()) else {
                eprintln!("error: give --password or set ADMIN_PASSWORD");
                return ExitCode::from(2);
            };
            match cli::create_admin(&config, &email, &password, &first_name, &last_name).await {
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
        cli::Command::Seed(opts) => {
            let password =
                std::env::var("SEED_PASSWORD").unwrap_or_else(|_| "seed password 2026".into());
            let started = std::time::Instant::now();
            match cli::seed(&config, &opts, &password).await {
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
                    println!(
                        "every seeded account has the password of SEED_PASSWORD (default `seed password 2026`);\n  e.g. office owner: {}\n  agent: {}",
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
        cli::Command::Serve => {
            let app = match Application::build(config).await {
                Ok(a) => a,
                Err(e) => {
                    tracing::error!(error = %e, "startup failed");
                    return ExitCode::FAILURE;
                }
            };
            tracing::info!(address = %app.local_addr(), "listening");
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
