//! Prints the facts of each payroll receipt given, then the profile of them all:
//!
//! ```text
//! cargo run -p score-docs --example read_cfdi -- 2025-04-10 fixtures/documents/quincenal-40-infonavit-*.xml
//! ```
//!
//! With `REPEAT=n` in the environment it reads the first receipt n more times first (used to
//! count instructions per read with `perf stat`, a figure the machine's load does not change).

use score_docs::{Date, profile_from_cfdi, read_cfdi};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(reference) = args.next().as_deref().and_then(Date::parse) else {
        eprintln!("usage: read_cfdi YYYY-MM-DD RECEIPT.xml...");
        return ExitCode::from(2);
    };
    let mut files = Vec::new();
    for path in args {
        match std::fs::read(&path) {
            Ok(bytes) => files.push((path, bytes)),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let repeat: usize = std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    if let Some((_, first)) = files.first() {
        let ok = (0..repeat).filter(|_| read_cfdi(std::hint::black_box(first)).is_ok()).count();
        if repeat > 0 {
            eprintln!("{ok} of {repeat} repeated reads succeeded");
        }
    }
    let mut facts = Vec::new();
    for (path, bytes) in &files {
        match read_cfdi(bytes) {
            Ok(f) => {
                println!("{path}: {}", f.to_json());
                facts.push(f);
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match profile_from_cfdi(&facts, reference) {
        Ok(p) => println!("{}", p.to_json()),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
