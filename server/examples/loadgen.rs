//! A small closed-loop HTTP load generator for the benchmark scripts under `benches/server/`.
//!
//! Each of `--concurrency` workers sends one request at a time over a kept-alive connection for
//! `--seconds`, after `--warmup` seconds that are not counted; the request count and time are
//! both bounded, and only loopback targets are accepted. Prints one JSON line per target:
//! requests per second, p50/p90/p99/max latency in milliseconds, and the non-2xx count.
//!
//! ```sh
//! cargo run --release -p server --example loadgen -- --base http://127.0.0.1:8080 \
//!     --concurrency 32 --seconds 10 "GET /healthz" "POST /api/v1/score @profile.json"
//! ```
//! A target is `METHOD PATH` with an optional `@file` JSON body.

use std::time::{Duration, Instant};

struct Target {
    method: reqwest::Method,
    path: String,
    body: Option<String>,
    label: String,
}

struct Options {
    base: String,
    concurrency: usize,
    seconds: f64,
    warmup: f64,
    max_requests: u64,
    targets: Vec<Target>,
}

fn usage(message: &str) -> ! {
    eprintln!("loadgen: {message}\nusage: loadgen --base http://127.0.0.1:PORT [--concurrency N] [--seconds S] [--warmup S] [--max-requests N] \"METHOD /path [@body.json]\"...");
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut args = std::env::args().skip(1);
    let mut opts = Options { base: String::new(), concurrency: 32, seconds: 10.0, warmup: 2.0, max_requests: 5_000_000, targets: vec![] };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().unwrap_or_else(|| usage(&format!("{name} needs a value")));
        match arg.as_str() {
            "--base" => opts.base = value("--base"),
            "--concurrency" => opts.concurrency = value("--concurrency").parse().unwrap_or_else(|_| usage("bad --concurrency")),
            "--seconds" => opts.seconds = value("--seconds").parse().unwrap_or_else(|_| usage("bad --seconds")),
            "--warmup" => opts.warmup = value("--warmup").parse().unwrap_or_else(|_| usage("bad --warmup")),
            "--max-requests" => opts.max_requests = value("--max-requests").parse().unwrap_or_else(|_| usage("bad --max-requests")),
            spec => {
                let mut parts = spec.split_whitespace();
                let method = parts.next().and_then(|m| m.parse().ok()).unwrap_or_else(|| usage("target needs a method"));
                let path = parts.next().unwrap_or_else(|| usage("target needs a path")).to_string();
                let body = parts.next().map(|b| {
                    let file = b.strip_prefix('@').unwrap_or_else(|| usage("a body is @file"));
                    std::fs::read_to_string(file).unwrap_or_else(|e| usage(&format!("{file}: {e}")))
                });
                opts.targets.push(Target { method, path, body, label: spec.to_string() });
            }
        }
    }
    let host = opts.base.trim_start_matches("http://").split([':', '/']).next().unwrap_or_default().to_string();
    if !(host == "127.0.0.1" || host == "localhost" || host == "[::1]") {
        usage("only loopback targets are allowed (http://127.0.0.1:PORT)");
    }
    if opts.targets.is_empty() || opts.concurrency == 0 {
        usage("give at least one target and a concurrency above 0");
    }
    opts
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1000.0
}

async fn run(client: &reqwest::Client, opts: &Options, target: &Target) -> serde_json::Value {
    let url = format!("{}{}", opts.base, target.path);
    let start = Instant::now();
    let measure_from = start + Duration::from_secs_f64(opts.warmup);
    let end = measure_from + Duration::from_secs_f64(opts.seconds);
    let per_worker = opts.max_requests / opts.concurrency as u64 + 1;
    let workers = (0..opts.concurrency).map(|_| {
        let client = client.clone();
        let url = url.clone();
        let method = target.method.clone();
        let body = target.body.clone();
        tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(64 * 1024);
            let mut failures = 0u64;
            for _ in 0..per_worker {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let mut request = client.request(method.clone(), &url);
                if let Some(body) = &body {
                    request = request.header("content-type", "application/json").body(body.clone());
                }
                let ok = match request.send().await {
                    Ok(response) => {
                        let ok = response.status().is_success();
                        ok && response.bytes().await.is_ok()
                    }
                    Err(_) => false,
                };
                if sent >= measure_from {
                    latencies.push(sent.elapsed());
                    failures += u64::from(!ok);
                }
            }
            (latencies, failures)
        })
    });
    let mut all = Vec::new();
    let mut failures = 0;
    for worker in workers.collect::<Vec<_>>() {
        if let Ok((latencies, failed)) = worker.await {
            all.extend(latencies);
            failures += failed;
        }
    }
    all.sort_unstable();
    serde_json::json!({
        "target": target.label,
        "requests": all.len(),
        "rps": (all.len() as f64 / opts.seconds).round(),
        "p50_ms": (percentile(&all, 0.50) * 1000.0).round() / 1000.0,
        "p90_ms": (percentile(&all, 0.90) * 1000.0).round() / 1000.0,
        "p99_ms": (percentile(&all, 0.99) * 1000.0).round() / 1000.0,
        "max_ms": (percentile(&all, 1.0) * 1000.0).round() / 1000.0,
        "non_2xx_or_failed": failures,
        "concurrency": opts.concurrency,
    })
}

#[tokio::main]
async fn main() {
    let opts = parse_args();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(opts.concurrency)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap_or_else(|e| usage(&e.to_string()));
    for target in &opts.targets {
        println!("{}", run(&client, &opts, target).await);
    }
}
