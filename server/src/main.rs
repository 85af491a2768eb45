//! `server` binary: see `server --help`. Everything is in the library (`server::cli`).

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    server::cli::run(&args).await
}
