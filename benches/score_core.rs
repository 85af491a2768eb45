//! Criterion benches of score-core: one full report, and a batch of varied profiles.
//!
//! `make bench` (or `cargo bench -p score-core --bench score`). Figures are quoted in the
//! README with the machine they were measured on.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use score_core::Profile;
use std::hint::black_box;

/// A deterministic spread of valid profiles over states, income types and amounts.
fn profiles(n: usize) -> Vec<Profile> {
    let tipos = ["asalariado", "independiente", "mixto", "pensionado"];
    (0..n)
        .map(|i| {
            let text = format!(
                r#"{{"estado":"{:02}","ingreso_mensual":{},"tipo_ingreso":"{}","antiguedad_meses":{},"deudas_mensuales":{},"ahorro":{},"edad":{},"personas_hogar":{}}}"#,
                i % 32 + 1,
                8_000 + (i * 7_919) % 150_000,
                tipos[i % 4],
                (i * 13) % 200,
                (i * 311) % 9_000,
                (i * 10_007) % 600_000,
                18 + (i * 7) % 60,
                1 + i % 7,
            );
            Profile::from_json_str(&text).expect("valid bench profile")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let one = Profile::from_json_str(
        r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"ahorro":100000,"edad":35}"#,
    )
    .expect("valid");
    let mut group = c.benchmark_group("score_core");
    group.bench_function("score/one_report", |b| b.iter(|| score_core::score(black_box(&one))));
    let off = score_core::Opciones { simulaciones: false };
    group.bench_function("score/one_report_without_simulations", |b| {
        b.iter(|| score_core::score_with(black_box(&one), off))
    });
    group.bench_function("score_json/parse_score_serialise", |b| {
        let text = serde_json::to_string(&one.to_json_value()).expect("json");
        b.iter(|| score_core::score_json(black_box(&text)))
    });
    let batch = profiles(1_000);
    group.throughput(Throughput::Elements(batch.len() as u64));
    group.bench_function("score/batch_1000", |b| {
        // One output buffer reused across iterations, as a batch job would: each iteration
        // drops the previous reports and writes new ones (no fresh pages from the allocator).
        let mut out = Vec::with_capacity(batch.len());
        b.iter(|| {
            out.clear();
            out.extend(batch.iter().map(|p| score_core::score(black_box(p))));
        })
    });
    group.bench_function("score/batch_1000_without_simulations", |b| {
        let mut out = Vec::with_capacity(batch.len());
        b.iter(|| {
            out.clear();
            out.extend(batch.iter().map(|p| score_core::score_with(black_box(p), off)));
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
