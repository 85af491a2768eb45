//! Structured logging (tracing). `RUST_LOG` sets the filter, `LOG_FORMAT=json` gives JSON lines.
//! Request logs carry the request id, method, path (never the query string, which can hold
//! tokens), client address, status and latency (`latency_ms`, a number); headers and bodies
//! are never logged. Colours only when the output is a terminal (never in files or pipes).

use std::io::IsTerminal;

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let json = std::env::var("LOG_FORMAT")
        .map(|v| v.eq_ignore_ascii_case("json"))
        .unwrap_or(false);
    let registry = tracing_subscriber::registry().with(filter);
    let result = if json {
        registry
            .with(fmt::layer().json().with_current_span(true))
            .try_init()
    } else {
        registry
            .with(fmt::layer().with_ansi(std::io::stdout().is_terminal()))
            .try_init()
    };
    let _ = result;
}
