//! The cost of a rate-limit check, side by side: the counts in this process's memory (what
//! SQLite keeps, one process) against the counts in PostgreSQL's `rate_limits` table (what
//! every instance on PostgreSQL shares), on the limited paths with the default limits:
//!   login  a per-address and a per-account check, 10 a minute: two upserts in one statement
//!   score  one per-address check, 120 a minute: one upsert
//!   key    one check of a partner key, 6,000 a minute: leased in slices of 93, mostly memory
//!
//! The four series run in interleaved rounds (memory login, database login, memory score,
//! database score, then again), each round `--checks` sequential checks over `--keys` distinct
//! clients, so that the machine's load hits all four alike; it prints the median over the
//! rounds of each round's p50, p90 and p99 in microseconds. Run by benches/server/limits_cost.sh:
//!
//! ```sh
//! cargo run --release -p server --example limits_bench -- --database-url postgres://... \
//!     [--rounds 5] [--checks 5000] [--keys 1000]
//! ```

use std::time::Instant;

use server::ratelimit::RateLimiter;

struct Options {
    database_url: String,
    rounds: usize,
    checks: usize,
    keys: usize,
}

fn usage(message: &str) -> ! {
    eprintln!("limits_bench: {message}\nusage: limits_bench --database-url postgres://... [--rounds N] [--checks N] [--keys N]");
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut opts = Options { database_url: String::new(), rounds: 5, checks: 5000, keys: 1000 };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage(&format!("{arg} needs a value")));
        let number = || value.parse().unwrap_or_else(|_| usage(&format!("bad {arg}")));
        match arg.as_str() {
            "--database-url" => opts.database_url = value.clone(),
            "--rounds" => opts.rounds = number(),
            "--checks" => opts.checks = number(),
            "--keys" => opts.keys = number(),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    if !opts.database_url.starts_with("postgres") {
        usage("--database-url must be a PostgreSQL URL");
    }
    opts
}

#[derive(Clone, Copy, PartialEq)]
enum Path {
    Login,
    Score,
    Key,
}

/// The defaults of AUTH_RATE_LIMIT_PER_MINUTE, SCORE_RATE_LIMIT_PER_MINUTE and
/// API_KEY_RATE_LIMIT_PER_MINUTE.
const LOGIN_LIMIT: u32 = 10;
const SCORE_LIMIT: u32 = 120;
const KEY_LIMIT: u32 = 6000;

/// Latencies in microseconds of `checks` sequential limited requests on `path`.
async fn round(limiter: &RateLimiter, path: Path, checks: usize, keys: usize, round: usize) -> Vec<f64> {
    let mut micros = Vec::with_capacity(checks);
    for i in 0..checks {
        // Distinct clients per round, each making checks/keys requests: no window fills.
        let client = (i % keys) + round * keys;
        let ip = format!("10.{}.{}.{}", client >> 16 & 255, client >> 8 & 255, client & 255);
        let start = Instant::now();
        let outcome = match path {
            Path::Login => limiter.check_scope("login", &ip, Some(&format!("user{client}@example.test"))).await,
            Path::Score => limiter.take(&format!("score:ip:{ip}"), 1, SCORE_LIMIT).await,
            Path::Key => limiter.take(&format!("score:key:{}", client % 8), 1, KEY_LIMIT).await,
        };
        micros.push(start.elapsed().as_secs_f64() * 1e6);
        if let Err(e) = outcome {
            eprintln!("limits_bench: a check failed: {}", e.message);
            std::process::exit(1);
        }
    }
    micros.sort_by(f64::total_cmp);
    micros
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let opts = parse_args();
    let db = server::db::connect_and_migrate(&opts.database_url, 4).await.unwrap_or_else(|e| usage(&format!("database: {e}")));
    sqlx::query("TRUNCATE rate_limits").execute(&db).await.unwrap_or_else(|e| usage(&format!("database: {e}")));
    let memory = RateLimiter::in_memory(LOGIN_LIMIT);
    let database = RateLimiter::in_database(db, LOGIN_LIMIT);
    let series = [
        ("login, memory (SQLite, one process)", &memory, Path::Login),
        ("login, PostgreSQL rate_limits", &database, Path::Login),
        ("score, memory (SQLite, one process)", &memory, Path::Score),
        ("score, PostgreSQL rate_limits", &database, Path::Score),
        ("key, memory (SQLite, one process)", &memory, Path::Key),
        ("key, PostgreSQL rate_limits (leased)", &database, Path::Key),
    ];
    // [series][round] = (p50, p90, p99)
    let mut results: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); series.len()];
    // A warm-up round, not counted: connections, prepared statements, the table's first pages.
    for (_, limiter, path) in &series {
        round(limiter, *path, opts.checks / 5, opts.keys, opts.rounds + 1).await;
    }
    for r in 0..opts.rounds {
        for (s, (_, limiter, path)) in series.iter().enumerate() {
            let sorted = round(limiter, *path, opts.checks, opts.keys, r).await;
            results[s].push((percentile(&sorted, 0.5), percentile(&sorted, 0.9), percentile(&sorted, 0.99)));
        }
    }
    println!("{} rounds of {} sequential checks over {} clients; microseconds per limited request (median of the rounds)", opts.rounds, opts.checks, opts.keys);
    println!("{:40} {:>9} {:>9} {:>9}", "path, where the counts live", "p50 µs", "p90 µs", "p99 µs");
    for (s, (name, _, _)) in series.iter().enumerate() {
        let pick = |f: fn(&(f64, f64, f64)) -> f64| median(results[s].iter().map(f).collect());
        println!("{name:40} {:>9.1} {:>9.1} {:>9.1}", pick(|r| r.0), pick(|r| r.1), pick(|r| r.2));
    }
    for (path, memory_series, database_series) in [("login", 0, 1), ("score", 2, 3), ("key", 4, 5)] {
        let extra: Vec<f64> = results[database_series].iter().zip(&results[memory_series]).map(|(d, m)| d.0 - m.0).collect();
        println!("{path}: the shared limits add {:.1} µs at p50 (median of the rounds' differences)", median(extra));
    }
}
