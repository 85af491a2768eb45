//! Human-readable output under review: every error message of the fixtures and every
//! recommendation text. A wording change shows up as a snapshot diff (insta), so it is a
//! deliberate, reviewed change; surfaces assert on codes, people read these texts.

use score_core::{AccionSimulacion, CodigoDictamen, CodigoRecomendacion, ErrorCode, Falla};
use std::path::Path;

#[test]
fn error_messages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cases");
    let mut files: Vec<_> = std::fs::read_dir(dir).expect("fixtures").map(|e| e.expect("entry").path()).collect();
    files.sort();
    let mut lines = Vec::new();
    for path in files {
        let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        if case.get("error").is_none() {
            continue;
        }
        let result = match (&case.get("input"), &case.get("input_text")) {
            (Some(input), _) => score_core::score_value(input).map(|_| ()),
            (_, Some(text)) => score_core::score_json(text.as_str().unwrap_or_default()).map(|_| ()),
            _ => Ok(()),
        };
        let err = result.expect_err("error case");
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        lines.push(name);
        for e in &err.errors {
            lines.push(format!("  {} {}: {}", e.codigo, e.campo.as_deref().unwrap_or("-"), e.mensaje));
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn recommendation_texts() {
    let lines: Vec<String> = CodigoRecomendacion::ALL
        .iter()
        .map(|c| format!("{}\n  {}", c.as_str(), score_core::recommendation_text(*c)))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn verdict_texts() {
    let lines: Vec<String> = CodigoDictamen::ALL
        .iter()
        .map(|c| format!("{}\n  {}", c.as_str(), score_core::verdict_text(*c)))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn simulation_texts() {
    let lines: Vec<String> =
        AccionSimulacion::ALL.iter().map(|a| format!("{}\n  {}", a.as_str(), a.descripcion())).collect();
    insta::assert_snapshot!(lines.join("\n"));
}

/// The one table of messages: every kind of mistake, its code and its template; every code
/// has at least one.
#[test]
fn error_templates() {
    let lines: Vec<String> = Falla::ALL
        .iter()
        .map(|f| {
            let (code, plantilla) = f.plantilla();
            format!("{code} {f:?}\n  {plantilla}")
        })
        .collect();
    for code in ErrorCode::ALL {
        assert!(Falla::ALL.iter().any(|f| f.codigo() == code), "{code} has no template");
    }
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn error_codes_are_stable() {
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    insta::assert_snapshot!(codes.join("\n"));
}
