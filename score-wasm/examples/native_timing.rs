//! Native score-core timings for benches/js (the JS bindings' baseline, measured in the same run).
//!
//! `cargo run --release -p score-wasm --example native_timing -- <fixtures dir> <rounds> <calls>`
//! prints one JSON object: median nanoseconds per call (over `rounds` rounds of `calls` calls; the
//! JS bench runs it with three rounds, between its own rounds) of
//!   score_profile  score_core::score(&Profile)           (validated profile -> report)
//!   score_value    score_core::score_value(&Value)       (what the bindings call after conversion)
//!   score_json     score_core::score_json(&str) -> String (text in, text out)
//!   report_json    score_value + ScoreReport::to_json_string (the JSON-text route, for reference)
//! over the valid inputs of the fixtures, cycled, and the batch throughput of score_value.
use std::hint::black_box;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time_per_call(rounds: usize, calls: usize, mut f: impl FnMut(usize)) -> f64 {
    for i in 0..calls / 4 {
        f(i);
    }
    median(
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                for i in 0..calls {
                    f(i);
                }
                t.elapsed().as_nanos() as f64 / calls as f64
            })
            .collect(),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(args.get(1).map_or("fixtures", String::as_str));
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let calls: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20_000);

    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    let mut inputs = Vec::new();
    for path in manifest["cases"].as_array().expect("cases") {
        let text = std::fs::read_to_string(dir.join(path.as_str().expect("path"))).expect("case");
        let case: serde_json::Value = serde_json::from_str(&text).expect("case json");
        if case.get("expected").is_some() {
            if let Some(input) = case.get("input") {
                inputs.push(input.clone());
            }
        }
    }
    let profiles: Vec<score_core::Profile> = inputs
        .iter()
        .map(|v| score_core::Profile::from_json_value(v).expect("valid"))
        .collect();
    let texts: Vec<String> = inputs.iter().map(|v| v.to_string()).collect();
    let n = inputs.len();

    let score_profile = time_per_call(rounds, calls, |i| {
        black_box(score_core::score(black_box(&profiles[i % n])).ok());
    });
    let score_value = time_per_call(rounds, calls, |i| {
        black_box(score_core::score_value(black_box(&inputs[i % n])).ok());
    });
    let score_json = time_per_call(rounds, calls, |i| {
        black_box(score_core::score_json(black_box(&texts[i % n])).ok());
    });
    let report_json = time_per_call(rounds, calls, |i| {
        black_box(
            score_core::score_value(black_box(&inputs[i % n]))
                .map(|r| r.to_json_string())
                .ok(),
        );
    });
    let batch_reps = (calls / n).max(1);
    let batch = median(
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..batch_reps {
                    black_box(
                        inputs
                            .iter()
                            .map(|v| score_core::score_value(v).ok())
                            .collect::<Vec<_>>(),
                    );
                }
                (batch_reps * n) as f64 / t.elapsed().as_secs_f64()
            })
            .collect(),
    );
    println!(
        "{}",
        serde_json::json!({
            "profiles": n,
            "ns_per_call": {
                "score_profile": score_profile,
                "score_value": score_value,
                "score_json": score_json,
                "report_json": report_json,
            },
            "batch_reports_per_s": batch,
        })
    );
}
