//! A loop over `score_core::score_with` on the benches' profile (CMX, 30,000 a month, salaried),
//! for instruction counts: `benches/instructions/run.sh` copies it into each tree it measures as
//! `score-core/examples/instructions_loop.rs`. Arguments: the number of reports, and `sin` for
//! reports without what-ifs (`simulaciones: false`). Only API every measured commit has.

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_200);
    let simulaciones = args.next().as_deref() != Some("sin");
    let one = score_core::Profile::from_json_str(
        r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"ahorro":100000,"edad":35}"#,
    )
    .expect("valid bench profile");
    let opciones = score_core::Opciones { simulaciones, ..score_core::Opciones::default() };
    // The embedded figures are read on first use: one report before the loop, in both counts.
    let mut total = 0u64;
    for _ in 0..=n {
        let report = score_core::score_with(std::hint::black_box(&one), opciones).expect("report");
        total += u64::from(report.score);
    }
    println!("{total}");
}
