//! Scores one profile and prints the report as pretty JSON.
//!
//! ```sh
//! cargo run -q -p score-core --example score -- fixtures/sample-profile.json
//! echo '{"estado":"JAL","ingreso_mensual":25000,"tipo_ingreso":"mixto","antiguedad_meses":14}' \
//!   | cargo run -q -p score-core --example score
//! ```
//! Exit status 0 with the report on stdout, or 2 with `CODE: message` on stderr.

use std::io::{Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut text = String::new();
    let read = match std::env::args().nth(1) {
        Some(path) if path != "-" => std::fs::read_to_string(&path).map(|t| text = t),
        _ => std::io::stdin().read_to_string(&mut text).map(|_| ()),
    };
    if let Err(e) = read {
        eprintln!("no se pudo leer el perfil: {e}");
        return ExitCode::from(1);
    }
    match score_core::Profile::from_json_str(&text).and_then(|p| score_core::score(&p)) {
        Ok(report) => {
            let pretty = serde_json::to_string_pretty(&report).unwrap_or_default();
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = writeln!(std::io::stdout(), "{pretty}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {}", e.code, e.message);
            ExitCode::from(2)
        }
    }
}
