//! Prometheus metrics (text exposition format 0.0.4) at `/metrics`.

use std::{
    collections::BTreeMap,
    fmt::Write,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

const BUCKETS: [f64; 10] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

#[derive(Default, Debug)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

#[derive(Default, Debug)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    durations: Mutex<BTreeMap<(String, String), Histogram>>,
    pub emails_sent: AtomicU64,
    pub emails_failed_attempts: AtomicU64,
    pub emails_dead_lettered: AtomicU64,
    /// Score reports produced, by level (index in [`LEVELS`]).
    scores: [AtomicU64; LEVELS.len()],
}

/// The levels of score-core's `Nivel`, in order (their wire names).
pub const LEVELS: [&str; 4] = ["bajo", "medio", "alto", "excelente"];

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

impl Metrics {
    pub fn observe(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        *lock(&self.requests)
            .entry((method.into(), route.into(), status))
            .or_default() += 1;
        let mut d = lock(&self.durations);
        let h = d.entry((method.into(), route.into())).or_default();
        let secs = elapsed.as_secs_f64();
        for (i, b) in BUCKETS.iter().enumerate() {
            if secs <= *b {
                h.counts[i] += 1;
            }
        }
        h.count += 1;
        h.sum += secs;
    }

    /// Counts one score report of level `nivel` (a wire name of `score_core::Nivel`).
    pub fn record_score(&self, nivel: &str) {
        if let Some(i) = LEVELS.iter().position(|l| *l == nivel) {
            Self::inc(&self.scores[i]);
        }
    }

    pub fn inc(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP http_requests_total HTTP requests by method, route and status."
        );
        let _ = writeln!(out, "# TYPE http_requests_total counter");
        for ((m, r, s), n) in lock(&self.requests).iter() {
            let _ = writeln!(
                out,
                "http_requests_total{{method=\"{m}\",route=\"{}\",status=\"{s}\"}} {n}",
                esc(r)
            );
        }
        let _ = writeln!(
            out,
            "# HELP http_request_duration_seconds HTTP request latency."
        );
        let _ = writeln!(out, "# TYPE http_request_duration_seconds histogram");
        for ((m, r), h) in lock(&self.durations).iter() {
            let r = esc(r);
            for (i, b) in BUCKETS.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "http_request_duration_seconds_bucket{{method=\"{m}\",route=\"{r}\",le=\"{b}\"}} {}",
                    h.counts[i]
                );
            }
            let _ = writeln!(
                out,
                "http_request_duration_seconds_bucket{{method=\"{m}\",route=\"{r}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "http_request_duration_seconds_sum{{method=\"{m}\",route=\"{r}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "http_request_duration_seconds_count{{method=\"{m}\",route=\"{r}\"}} {}",
                h.count
            );
        }
        for (name, help, c) in [
            (
                "emails_sent_total",
                "E-mails delivered (SMTP or outbox).",
                &self.emails_sent,
            ),
            (
                "email_send_failures_total",
                "Failed e-mail delivery attempts (retried).",
                &self.emails_failed_attempts,
            ),
            (
                "emails_dead_lettered_total",
                "E-mails this process turned into dead letters (mail_outbox status dead) after the last attempt.",
                &self.emails_dead_lettered,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name} {}", c.load(Ordering::Relaxed));
        }
        let _ = writeln!(out, "# HELP scores_total Score reports produced (calculator, profiles, batches), by level.");
        let _ = writeln!(out, "# TYPE scores_total counter");
        for (level, n) in LEVELS.iter().zip(&self.scores) {
            let _ = writeln!(out, "scores_total{{nivel=\"{level}\"}} {}", n.load(Ordering::Relaxed));
        }
        out
    }
}

/// Appends one gauge in the text format (values read at scrape time, e.g. from the database).
pub fn write_gauge(out: &mut String, name: &str, help: &str, value: impl std::fmt::Display) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} gauge");
    let _ = writeln!(out, "{name} {value}");
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
