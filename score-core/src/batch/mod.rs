//! Batch and columnar scoring (feature `batch`): many profiles at once over all cores, with
//! each profile's error in its place, and tables of profiles in columns with the report
//! flattened into columns, in the published shape of [`TableSpec`] (kept columns, the
//! report's, the error columns). Bindings call these and only convert: Python's `score_many` and
//! `score_frame` are [`pipeline`] and [`score_frame`] with the GIL released in
//! [`Host::detach`].
//!
//! Threads are the only thing this module adds to the model: the results are those of
//! [`crate::score`], profile by profile, in input order.

mod columns_in;
mod columns_out;
mod frame;
mod host_frame;
mod pipeline;
mod table;
mod threads;

pub use columns_in::{Column, Frame};
pub use columns_out::{CODES_FAILED, CODES_LONG, Kind, OutColumn, layout, pack_codes, unpack_codes};
pub use frame::{FrameExtras, ends_with_codes, output_lengths, recommendation_categories, score_frame, score_frame_calibrated};
pub use host_frame::{HostColumn, HostFrame, HostRowError, byte_column, score_host_frame, score_host_frame_calibrated};
pub use pipeline::{BLOCK, CHUNK, IN_FLIGHT, pipeline};
pub use table::{ERROR_COLUMNS, ERROR_LIST_COLUMN, Extra, TableSpec, error_cells};
pub use threads::{Host, NoHost, PARALLEL_MIN, par_map};

use crate::{Profile, ScoreError, ScoreReport};

/// A profile as read by a binding: the profile, or why it could not be read.
pub type Input = Result<Profile, ScoreError>;

/// Scores one read profile (its read error stays in place).
pub fn score_input(input: &Input) -> Result<ScoreReport, ScoreError> {
    score_input_with(input, crate::Opciones::default())
}

/// [`score_input`] with simulations off (`simulaciones` empty): a plain function, as
/// [`pipeline`] takes.
pub fn score_input_without_simulations(input: &Input) -> Result<ScoreReport, ScoreError> {
    score_input_with(input, crate::Opciones { simulaciones: false, ..crate::Opciones::default() })
}

/// The plain scoring function of a batch ([`pipeline`] takes one): with or without
/// simulations.
pub fn scorer(simulaciones: bool) -> fn(&Input) -> Result<ScoreReport, ScoreError> {
    if simulaciones { score_input } else { score_input_without_simulations }
}

/// [`scorer`] with each report boxed on the scoring thread: for a host object that owns its
/// Rust report (Python's lazy `Report`), so the calling thread moves a pointer, not a report.
pub fn boxed_scorer(simulaciones: bool) -> fn(&Input) -> Result<Box<ScoreReport>, ScoreError> {
    fn with(input: &Input) -> Result<Box<ScoreReport>, ScoreError> {
        score_input(input).map(Box::new)
    }
    fn without(input: &Input) -> Result<Box<ScoreReport>, ScoreError> {
        score_input_without_simulations(input).map(Box::new)
    }
    if simulaciones { with } else { without }
}

/// [`scorer`] under `calibration`'s figures (each report's `calibracion` its id): a closure,
/// which [`pipeline`] takes as it takes the plain function.
pub fn scorer_calibrated(simulaciones: bool, calibration: &crate::Calibration) -> impl Fn(&Input) -> Result<ScoreReport, ScoreError> + Sync + '_ {
    let opciones = crate::Opciones { simulaciones, ..crate::Opciones::default() };
    move |input: &Input| match input {
        Ok(profile) => crate::score_calibrated(profile, calibration, opciones),
        Err(e) => Err(e.clone()),
    }
}

/// [`boxed_scorer`] under `calibration`'s figures.
pub fn boxed_scorer_calibrated(
    simulaciones: bool,
    calibration: &crate::Calibration,
) -> impl Fn(&Input) -> Result<Box<ScoreReport>, ScoreError> + Sync + '_ {
    let score = scorer_calibrated(simulaciones, calibration);
    move |input: &Input| score(input).map(Box::new)
}

/// [`score_all`] under `calibration`'s figures.
pub fn score_all_calibrated(profiles: &[Input], calibration: &crate::Calibration) -> Vec<Result<ScoreReport, ScoreError>> {
    par_map(profiles, scorer_calibrated(true, calibration))
}

fn score_input_with(input: &Input, opciones: crate::Opciones) -> Result<ScoreReport, ScoreError> {
    match input {
        Ok(profile) => crate::score_with(profile, opciones),
        Err(e) => Err(e.clone()),
    }
}

/// Scores every profile, in order, over all cores: each result in the place of its profile.
pub fn score_all(profiles: &[Input]) -> Vec<Result<ScoreReport, ScoreError>> {
    par_map(profiles, score_input)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch under a loaded calibration computes each report with its figures, as one
    /// profile scored alone under it does, in order, through the pipeline too.
    #[test]
    fn a_batch_under_a_calibration_scores_with_its_figures() {
        let embedded = crate::calibration::EMBEDDED_TOML;
        let rate = embedded.replacen("valor = 0.1154,", "valor = 0.0999,", 1);
        assert_ne!(rate, embedded, "the embedded calibration's bank rate is no longer 0.1154");
        // The embedded id read from the code, so that a new calibration's id keeps the rename.
        let id_line = format!("id = \"{}\"", crate::CALIBRATION);
        let text = rate.replacen(&id_line, "id = \"banco-lote\"", 1);
        assert_ne!(text, rate, "the embedded calibration has no line {id_line}");
        let cal = crate::Calibration::from_toml(&text).expect("valid");
        let profiles = inputs(300);
        let under = score_all_calibrated(&profiles, &cal);
        let plain = score_all(&profiles);
        let mut differ = 0;
        for ((input, a), b) in profiles.iter().zip(&under).zip(&plain) {
            let alone = input.as_ref().map(|p| crate::score_calibrated(p, &cal, crate::Opciones::default()));
            match (a, alone) {
                (Ok(a), Ok(Ok(alone))) => {
                    assert_eq!(a, &alone);
                    assert_eq!(a.calibracion, "banco-lote");
                    differ += usize::from(b.as_ref().is_ok_and(|b| b.productos != a.productos));
                }
                (Err(a), Ok(Err(alone))) => assert_eq!(a, &alone),
                (Err(_), Err(_)) => {}
                other => panic!("{other:?}"),
            }
        }
        assert!(differ > 100, "{differ}");
        let mut rest = profiles.clone().into_iter();
        let mut piped = Vec::new();
        let read = &mut |n: usize| -> Result<Vec<Input>, ()> { Ok(rest.by_ref().take(n).collect()) };
        pipeline(&NoHost, read, scorer_calibrated(true, &cal), |out, _| {
            piped.extend(out);
            Ok(())
        }, || ())
        .expect("pipeline");
        assert_eq!(piped, under);
    }

    fn inputs(n: usize) -> Vec<Input> {
        (0..n)
            .map(|i| {
                Profile::from_json_str(&format!(
                    r#"{{"estado":"{:02}","ingreso_mensual":{},"tipo_ingreso":"mixto","antiguedad_meses":{}}}"#,
                    i % 34 + 1,
                    1000 + i * 37,
                    i % 50
                ))
            })
            .collect()
    }

    #[test]
    fn batches_keep_every_result_in_place() {
        let profiles = inputs(PARALLEL_MIN + 77);
        let all = score_all(&profiles);
        assert_eq!(all.len(), profiles.len());
        for (input, out) in profiles.iter().zip(&all) {
            assert_eq!(&score_input(input), out);
        }
        assert!(all.iter().any(Result::is_err) && all.iter().any(Result::is_ok));
    }

    #[test]
    fn the_pipeline_emits_in_order() {
        let profiles = inputs(BLOCK + 3 * CHUNK + 5);
        let mut at = 0;
        let mut read = |n: usize| -> Result<Vec<Input>, ()> {
            let end = (at + n).min(profiles.len());
            let out = profiles[at..end].to_vec();
            at = end;
            Ok(out)
        };
        let mut seen = Vec::new();
        pipeline(&NoHost, &mut read, score_input, |out, start| {
            assert_eq!(start, seen.len());
            seen.extend(out);
            Ok(())
        }, || ())
        .expect("no error");
        assert_eq!(seen, score_all(&profiles));
    }

    #[test]
    fn frames_score_like_profiles() {
        let n = PARALLEL_MIN + 10;
        let estados: Vec<String> = (0..n).map(|i| format!("{:02}", i % 34 + 1)).collect();
        let mut cats: Vec<String> = estados.clone();
        cats.sort();
        cats.dedup();
        let codes: Vec<u8> = estados
            .iter()
            .flat_map(|e| i32::try_from(cats.iter().position(|c| c == e).unwrap_or(0)).unwrap_or(0).to_le_bytes())
            .collect();
        let ingresos: Vec<u8> = (0..n).flat_map(|i| (1000.5 + i as f64).to_le_bytes()).collect();
        let meses: Vec<u8> = (0..n).flat_map(|i| ((i % 50) as i64).to_le_bytes()).collect();
        let tipo = vec![Ok(serde_json::Value::from("asalariado")); n];
        let mut frame = Frame::new(n);
        frame.push("estado".into(), Column::Cat(&codes, cats)).expect("len");
        frame.push("ingreso_mensual".into(), Column::F64(&ingresos)).expect("len");
        frame.push("antiguedad_meses".into(), Column::I64(&meses)).expect("len");
        frame.push("tipo_ingreso".into(), Column::Values(tipo)).expect("len");
        let layout = layout();
        let ((ok, columns), extras) = score_frame(&NoHost, &frame, &layout, |lengths, fill| {
            let mut buffers: Vec<Vec<u8>> = lengths.iter().map(|l| vec![0; *l]).collect();
            fill(buffers.iter_mut().map(Vec::as_mut_slice).collect());
            let ok = buffers.remove(0);
            Ok::<_, ()>((ok, buffers))
        })
        .expect("scored");
        let failed = extras.errors.iter().map(|(row, _)| *row).collect::<Vec<_>>();
        for row in 0..n {
            let expected = frame.profile(row).and_then(|p| crate::score(&p));
            assert_eq!(ok[row] == 1, expected.is_ok(), "row {row}");
            assert_eq!(failed.contains(&row), expected.is_err());
            if let Ok(report) = expected {
                let score = i64::from_le_bytes(columns[0][row * 8..row * 8 + 8].try_into().unwrap_or([0; 8]));
                assert_eq!(score, i64::from(report.score));
            }
        }
        assert!(!failed.is_empty());
    }
}
