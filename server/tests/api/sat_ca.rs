//! The SAT's CA certificates on the server (issue 43): every receipt's certificate is chained
//! to score-docs' carried CAs, or to those of the folder `SAT_CA_DIR` (the real binary,
//! configured as an operator would), which is checked at start.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{ServerProcess, TestApp};

/// fixtures/documents/ca-prueba: a test CA (`ac/`) and a receipt sealed with a CSD it issued.
fn ca_prueba() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents/ca-prueba")
}

/// Creates a profile at `base` and uploads the test CA's receipt: the stored document's `sello`.
async fn upload_seal(client: &reqwest::Client, base: &str) -> Value {
    let profile = json!({"estado": "CMX", "ingreso_mensual": 35000, "tipo_ingreso": "asalariado", "antiguedad_meses": 12, "edad": 38});
    let created: Value = client.post(format!("{base}/api/v1/fase1/perfil")).json(&profile).send().await.unwrap().json().await.unwrap();
    let id = created["data"]["id"].as_str().unwrap();
    let xml = std::fs::read(ca_prueba().join("quincenal-40-ca-prueba.xml")).unwrap();
    let part = Part::bytes(xml).file_name("quincenal-40-ca-prueba.xml").mime_str("application/xml").unwrap();
    let resp = client.post(format!("{base}/api/v1/fase2/documentos/{id}")).multipart(Form::new().part("recibos", part)).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    let verificacion = &body["data"]["verificacion"];
    assert!(verificacion["campos"].as_array().unwrap().iter().any(|c| c == "ingreso_mensual"), "a valid seal verifies: {verificacion}");
    verificacion["documentos"][0]["sello"].clone()
}

#[tokio::test]
async fn receipts_are_chained_to_the_carried_cas_or_to_those_of_sat_ca_dir() {
    // By default, the SAT's own CAs: the test CA's certificate is none of theirs.
    let app = TestApp::spawn().await;
    let sello = upload_seal(&app.client, &app.address).await;
    assert_eq!(sello["valido"], true, "{sello}");
    assert_eq!((sello["ca_sat_verificada"].clone(), sello["ca_sat_motivo"].clone()), (json!(false), json!("AC_DESCONOCIDA")));

    // The operator's folder in their place: the same receipt is chained.
    let dir = tempfile::tempdir().unwrap();
    let ac = ca_prueba().join("ac");
    let mut server = ServerProcess::start(
        dir.path(),
        &[("DATA_DIR", dir.path().join("data").display().to_string()), ("SAT_CA_DIR", ac.display().to_string())],
    )
    .await;
    let line = server.wait_for_log(&["\"message\":\"listening\""]).await;
    assert!(line.contains(&format!("1 from SAT_CA_DIR {}", ac.display())), "{line}");
    let sello = upload_seal(&reqwest::Client::new(), &server.address).await;
    assert_eq!(sello["valido"], true, "{sello}");
    assert_eq!((sello["ca_sat_verificada"].clone(), sello["ca_sat_motivo"].clone()), (json!(true), Value::Null));
}

#[test]
fn a_sat_ca_dir_without_certificates_stops_the_start_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ca");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("README.txt"), "skipped").unwrap();
    let start = |folder: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_server"))
            .env("DATA_DIR", dir.path().join("data"))
            .env("SAT_CA_DIR", folder)
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    };
    let empty = start(&folder);
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("SAT_CA_DIR"), "{}", String::from_utf8_lossy(&empty.stderr));

    std::fs::write(folder.join("AC6_SAT.cer"), "no es un certificado").unwrap();
    let bad = start(&folder);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("AC6_SAT.cer"), "{}", String::from_utf8_lossy(&bad.stderr));

    let missing = start(&dir.path().join("no-existe"));
    assert_eq!(missing.status.code(), Some(2));
}
