//! The server's calibration: `CALIBRATION_FILE` (or `serve --calibration`) checked at start,
//! `GET /api/v1/calibracion` showing the active one, and the score's `calibracion` naming it.
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use crate::helpers::{TestApp, TestOptions};

const EMBEDDED: &str = include_str!("../../../score-core/calibration/mx-2026.toml");

/// The embedded calibration under another `id` (read from the code, so that a new calibration's
/// id keeps the rename); fails when the file has no line with that id rather than keep it.
fn renamed(id: &str) -> String {
    let id_line = format!("id = \"{}\"", score_core::CALIBRATION);
    let text = EMBEDDED.replacen(&id_line, &format!("id = \"{id}\""), 1);
    assert_ne!(text, EMBEDDED, "the embedded calibration has no line {id_line}");
    text
}

#[tokio::test]
async fn the_default_calibration_is_the_embedded_one() {
    let app = TestApp::spawn().await;
    let r = app.get("/api/v1/calibracion").await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    assert_eq!(body["data"]["id"], score_core::CALIBRATION);
    assert_eq!(body["data"]["vigente_desde"], "2026-02-01");
    let documento = &body["data"]["documento"];
    assert_eq!(documento["productos"][2]["clave"], "HIPOTECA_BANCARIA");
    assert_eq!(documento["productos"][2]["tasa_anual"]["valor"], 0.1154);
    assert_eq!(documento["productos"][2]["tasa_anual"]["fuente"], "universal_2026_02_22");
    assert!(documento["fuentes"]["dinero_2025_t1"]["titulo"].is_string());
    // The documented example is the embedded id too, whatever calibration is embedded.
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    let example = &doc["components"]["schemas"]["CalibracionData"]["properties"]["id"]["example"];
    assert_eq!(example, score_core::CALIBRATION);
}

#[tokio::test]
async fn a_server_started_with_a_calibration_file_answers_with_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("banco.toml");
    std::fs::write(&path, renamed("banco-ejemplo-2026.03")).unwrap();
    let calibration = server::config::Config::load_calibration(&path).expect("a valid file");
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(move |c| c.calibration = std::sync::Arc::new(calibration))),
        ..Default::default()
    })
    .await;
    let body: Value = app.get("/api/v1/calibracion").await.json().await.unwrap();
    assert_eq!(body["data"]["id"], "banco-ejemplo-2026.03");
    let profile = json!({"estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado", "antiguedad_meses": 36});
    let r = app.post_json("/api/v1/score", &profile).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["data"]["platform_score"]["calibracion"], "banco-ejemplo-2026.03");
}

#[test]
fn a_bad_calibration_file_stops_the_start_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mala.toml");
    std::fs::write(&path, EMBEDDED.replacen("tasa_anual = { valor = 0.1154", "tasa_anual = { valor = -0.1154", 1)).unwrap();
    for args in [vec!["serve".to_owned(), "--calibration".to_owned(), path.display().to_string()], vec!["serve".to_owned()]] {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_server"));
        command.args(&args).env("DATA_DIR", dir.path().join("data")).env("RUST_LOG", "error");
        if args.len() == 1 {
            command.env("CALIBRATION_FILE", &path);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("CALIBRATION_INVALID") && stderr.contains("productos[2].tasa_anual"), "{stderr}");
    }
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["serve", "--calibration", "/nonexistent/calibracion.toml"])
        .env("DATA_DIR", dir.path().join("data"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("CALIBRATION_FILE"));
}
