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
    let off = score_core::Opciones { simulaciones: false, ..score_core::Opciones::default() };
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
    products(c);
    calibration(c);
}

/// A calibration: loading one (the embedded text, and a bank's file that differs from it in
/// its id; each load reads its figures and solves the fixed products' tables), and one report
/// under the embedded calibration and under a loaded one, side by side with `score/one_report`.
fn calibration(c: &mut Criterion) {
    use score_core::calibration::{Calibration, EMBEDDED_TOML};
    let one = Profile::from_json_str(
        r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"ahorro":100000,"edad":35}"#,
    )
    .expect("valid");
    let banco = EMBEDDED_TOML.replacen(&format!("id = \"{}\"", score_core::CALIBRATION), "id = \"banco-2026\"", 1);
    let mut group = c.benchmark_group("calibration");
    group.bench_function("load/embedded", |b| b.iter(|| Calibration::from_toml(black_box(EMBEDDED_TOML))));
    group.bench_function("load/bank_file", |b| b.iter(|| Calibration::from_toml(black_box(&banco))));
    let embedded = Calibration::default();
    let loaded = Calibration::from_toml(&banco).expect("valid");
    let opciones = score_core::Opciones::default();
    group.bench_function("score/one_report", |b| b.iter(|| score_core::score(black_box(&one))));
    group.bench_function("score/one_report_embedded_calibration", |b| {
        b.iter(|| score_core::score_calibrated(black_box(&one), &embedded, opciones))
    });
    group.bench_function("score/one_report_loaded_calibration", |b| {
        b.iter(|| score_core::score_calibrated(black_box(&one), &loaded, opciones))
    });
    group.finish();
}

/// The credit products of one applicant: the filtered path `evaluar` takes, side by side with
/// the decimal definition it is certified against, on the README's example and on a spread.
fn products(c: &mut Criterion) {
    use rust_decimal::Decimal;
    use score_core::products::{Coacreditado, Solicitud, evaluar, evaluar_exacto};
    use score_core::{IncomeType, State};
    let ejemplo = Solicitud {
        estado: State::parse("CMX").expect("CMX"),
        ingreso_mensual: Decimal::from(30_000),
        tipo_ingreso: IncomeType::Asalariado,
        antiguedad_meses: 36,
        edad: Some(35),
        deudas_mensuales: Decimal::ZERO,
        ahorro: Decimal::from(100_000),
        subcuenta_fondo: Decimal::from(54_000),
        institucion: None,
        coacreditado: None,
    };
    let con_pareja = Solicitud {
        coacreditado: Some(Coacreditado {
            ingreso_mensual: Decimal::from(18_500),
            tipo_ingreso: IncomeType::Asalariado,
            antiguedad_meses: 20,
            edad: Some(33),
            deudas_mensuales: Some(Decimal::from(1_200)),
            subcuenta_fondo: Some(Decimal::from(25_000)),
            institucion: None,
        }),
        ..ejemplo.clone()
    };
    let varias: Vec<Solicitud> = profiles(1_000)
        .iter()
        .map(|p| Solicitud {
            estado: p.estado,
            ingreso_mensual: p.ingreso_mensual,
            tipo_ingreso: p.tipo_ingreso,
            antiguedad_meses: p.antiguedad_meses,
            edad: p.edad,
            deudas_mensuales: p.deudas_mensuales.unwrap_or_default(),
            ahorro: p.ahorro,
            subcuenta_fondo: Decimal::ZERO,
            institucion: None,
            coacreditado: None,
        })
        .collect();
    let mut group = c.benchmark_group("products");
    group.bench_function("evaluar/one", |b| b.iter(|| evaluar(black_box(&ejemplo))));
    group.bench_function("evaluar_exacto/one", |b| b.iter(|| evaluar_exacto(black_box(&ejemplo))));
    group.bench_function("evaluar/co_borrower", |b| b.iter(|| evaluar(black_box(&con_pareja))));
    group.bench_function("evaluar_exacto/co_borrower", |b| b.iter(|| evaluar_exacto(black_box(&con_pareja))));
    group.throughput(Throughput::Elements(varias.len() as u64));
    group.bench_function("evaluar/batch_1000", |b| {
        let mut out = Vec::with_capacity(varias.len());
        b.iter(|| {
            out.clear();
            out.extend(varias.iter().map(|s| evaluar(black_box(s))));
        })
    });
    group.sample_size(10);
    group.bench_function("evaluar_exacto/batch_1000", |b| {
        let mut out = Vec::with_capacity(varias.len());
        b.iter(|| {
            out.clear();
            out.extend(varias.iter().map(|s| evaluar_exacto(black_box(s))));
        })
    });
    group.finish();
}

/// `score_frame` over 1,000 rows of typed columns, as `platform_score.score_frame` hands a
/// DataFrame over (categories for the texts, doubles and integers for the numbers): the column
/// reader, the frame's bare reports and the row writer, in one thread.
#[cfg(feature = "batch")]
fn frame(c: &mut Criterion) {
    use score_core::batch::{Column, Frame, NoHost, score_host_frame};
    let profiles = profiles(1000);
    let value = |p: &Profile| serde_json::to_value(p).expect("a profile's JSON");
    let values: Vec<serde_json::Value> = profiles.iter().map(value).collect();
    let doubles = |key: &str| -> Vec<u8> {
        values.iter().flat_map(|v| v[key].as_f64().unwrap_or(f64::NAN).to_le_bytes()).collect()
    };
    let integers = |key: &str| -> Vec<u8> { values.iter().flat_map(|v| v[key].as_i64().unwrap_or(0).to_le_bytes()).collect() };
    let categories = |key: &str| -> (Vec<u8>, Vec<String>) {
        let mut names: Vec<String> = Vec::new();
        let mut codes = Vec::new();
        for v in &values {
            let name = v[key].as_str().expect("a text").to_owned();
            let code = names.iter().position(|n| *n == name).unwrap_or_else(|| {
                names.push(name);
                names.len() - 1
            });
            codes.extend(i32::try_from(code).expect("few categories").to_le_bytes());
        }
        (codes, names)
    };
    let (estado, estados) = categories("estado");
    let (tipo, tipos) = categories("tipo_ingreso");
    let f64_columns = ["ingreso_mensual", "deudas_mensuales", "ahorro"].map(|k| (k, doubles(k)));
    let i64_columns = ["antiguedad_meses", "edad", "personas_hogar"].map(|k| (k, integers(k)));
    let mut table = Frame::new(profiles.len());
    table.push("estado".to_owned(), Column::Cat(&estado, estados)).expect("rows");
    table.push("tipo_ingreso".to_owned(), Column::Cat(&tipo, tipos)).expect("rows");
    for (name, data) in &f64_columns {
        table.push((*name).to_owned(), Column::F64(data)).expect("rows");
    }
    for (name, data) in &i64_columns {
        table.push((*name).to_owned(), Column::I64(data)).expect("rows");
    }
    let make = |len: usize, fill: &mut dyn FnMut(&mut [u8]) -> Result<(), ()>| {
        let mut buffer = vec![0u8; len];
        fill(&mut buffer).map(|()| buffer)
    };
    let mut group = c.benchmark_group("score_core");
    group.throughput(Throughput::Elements(profiles.len() as u64));
    group.bench_function("score_frame/rows_1000", |b| {
        b.iter(|| score_host_frame(&NoHost, black_box(&table), make, |b: &Vec<u8>| b).expect("frame"))
    });
    group.finish();
}

#[cfg(not(feature = "batch"))]
fn frame(_: &mut Criterion) {}

criterion_group!(benches, bench, frame);
criterion_main!(benches);
