//! The lenders' published simulator outputs (`fixtures/simuladores/*.json`) as the referee: each
//! example marked `"probado": true` is reproduced by the report, the product's `credito_max`
//! within the example's tolerance of the published credit, under the calibration it names (a
//! file beside it) or the embedded one. An example the model cannot reproduce yet says why
//! (`motivo`); its distance is printed, not asserted.

use score_core::Calibration;
use std::path::{Path, PathBuf};

fn carpeta() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/simuladores")
}

fn ejemplos() -> Vec<(String, serde_json::Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(carpeta())
        .expect("fixtures/simuladores")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("read");
            (f.file_name().expect("name").to_string_lossy().into_owned(), serde_json::from_str(&text).expect("json"))
        })
        .collect()
}

/// The report's offer of the example's product: `(credito_max, the published one)`.
fn credito(ejemplo: &serde_json::Value) -> (f64, f64) {
    let calibracion = match ejemplo["calibracion"].as_str() {
        Some(file) => Calibration::from_toml(&std::fs::read_to_string(carpeta().join(file)).expect("calibration file"))
            .unwrap_or_else(|e| panic!("{file}: {e}")),
        None => Calibration::default(),
    };
    let report = score_core::score_json_calibrated(&ejemplo["perfil"].to_string(), &calibracion).expect("a valid profile");
    let report: serde_json::Value = serde_json::from_str(&report).expect("json");
    let producto = ejemplo["producto"].as_str().expect("producto");
    let oferta = report["productos"].as_array().expect("productos").iter().find(|o| o["producto"] == producto).expect("offer");
    (oferta["credito_max"].as_f64().expect("credito"), ejemplo["salida"]["credito_max"].as_f64().expect("published credit"))
}

#[test]
fn every_tested_example_is_reproduced_within_its_tolerance() {
    let ejemplos = ejemplos();
    assert!(ejemplos.len() >= 7, "{}", ejemplos.len());
    let mut probados = 0;
    for (name, ejemplo) in &ejemplos {
        for key in ["editor", "titulo", "fecha", "direccion"] {
            assert!(ejemplo["fuente"][key].as_str().is_some_and(|s| !s.trim().is_empty()), "{name}: fuente.{key}");
        }
        let tolerancia = ejemplo["tolerancia"].as_f64().expect("tolerancia");
        let (modelo, publicado) = credito(ejemplo);
        let distancia = (modelo - publicado).abs() / publicado;
        if ejemplo["probado"] == true {
            assert!(distancia <= tolerancia, "{name}: the report lends {modelo}, the simulator {publicado} ({:.2}% off, tolerance {:.0}%)", distancia * 100.0, tolerancia * 100.0);
            println!("{name}: tested, the report lends {modelo} against {publicado} ({:.2}% off)", distancia * 100.0);
            probados += 1;
        } else {
            assert!(ejemplo["motivo"].as_str().is_some_and(|m| m.len() > 20), "{name}: an untested example says why");
            println!("{name}: not tested ({:.1}% off): {}", distancia * 100.0, ejemplo["motivo"]);
        }
    }
    assert!(probados >= 1);
}
