//! A loop over `score_core::Calibration::from_toml` on the embedded calibration's text, for
//! instruction counts of loading a calibration: `benches/instructions/run.sh --load` copies it
//! into each tree it measures as `score-core/examples/instructions_loop.rs`. Argument: the
//! number of loads (a second one, the report mode, is ignored). Only API every measured commit
//! has.

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let text = std::hint::black_box(score_core::calibration::EMBEDDED_TOML);
    let mut total = 0usize;
    for _ in 0..n {
        let calibration = score_core::Calibration::from_toml(std::hint::black_box(text)).expect("the embedded calibration loads");
        total += calibration.id().len();
    }
    println!("{total}");
}
