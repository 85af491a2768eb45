//! The SAT's CA certificates on the server (issue 43): every receipt's certificate is chained
//! to score-docs' carried CAs, or to those of the folder `SAT_CA_DIR` (the real binary,
//! configured as an operator would), which is checked at start. A field is verified only when
//! every receipt proving it has a valid seal AND a certificate a loaded CA issued; a valid seal
//! by any other certificate is shown with its reason and proves nothing. `GET /api/v1/ca-sat`
//! hands the page the same set.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{ServerProcess, TestApp, TestOptions, test_ca_dir};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name)).unwrap()
}

/// Creates a profile at `base` and uploads the receipt `name`: the response's `verificacion`.
async fn upload(client: &reqwest::Client, base: &str, name: &str) -> Value {
    let profile = json!({"estado": "CMX", "ingreso_mensual": 35000, "tipo_ingreso": "asalariado", "antiguedad_meses": 12, "edad": 38});
    let created: Value = client.post(format!("{base}/api/v1/fase1/perfil")).json(&profile).send().await.unwrap().json().await.unwrap();
    let id = created["data"]["id"].as_str().unwrap();
    let part = Part::bytes(fixture(name)).file_name(name.to_owned()).mime_str("application/xml").unwrap();
    let resp = client.post(format!("{base}/api/v1/fase2/documentos/{id}")).multipart(Form::new().part("recibos", part)).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    body["data"]["verificacion"].clone()
}

/// The `verificacion` of a receipt that proves nothing: no field, the receipt named with `motivo`.
fn assert_proves_nothing(verificacion: &Value, uuid: &str, motivo: &str) {
    assert_eq!(verificacion["campos"], json!([]), "{verificacion}");
    let checks = &verificacion["comprobacion"]["comprobaciones"];
    assert_eq!(checks["sellos_validos"], false);
    assert_eq!(checks["sellos_invalidos"], json!([{"recibo": uuid, "motivo": motivo}]));
    let notas = verificacion["comprobacion"]["notas"].as_array().unwrap();
    assert!(notas.iter().any(|n| n.as_str().unwrap().contains(&format!("({motivo})"))), "{notas:?}");
}

#[tokio::test]
async fn a_valid_seal_by_a_certificate_no_loaded_ca_issued_proves_nothing() {
    // The tests' server loads the test CA as its SAT_CA_DIR: the fixtures' receipts verify...
    let app = TestApp::spawn().await;
    let verified = upload(&app.client, &app.address, "quincenal-40-infonavit-1.xml").await;
    assert!(verified["campos"].as_array().unwrap().iter().any(|c| c == "ingreso_mensual"), "{verified}");
    let sello = &verified["documentos"][0]["sello"];
    assert_eq!((sello["valido"].clone(), sello["ca_sat_verificada"].clone()), (json!(true), json!(true)), "{sello}");

    // ...but not a receipt sealed validly with a certificate its issuer made itself.
    let forged = upload(&app.client, &app.address, "ca-desconocida-40.xml").await;
    let sello = &forged["documentos"][0]["sello"];
    assert_eq!(sello["valido"], true, "{sello}");
    assert_eq!((sello["ca_sat_verificada"].clone(), sello["ca_sat_motivo"].clone()), (json!(false), json!("AC_DESCONOCIDA")));
    let uuid = forged["documentos"][0]["uuid"].as_str().unwrap().to_owned();
    assert_proves_nothing(&forged, &uuid, "AC_DESCONOCIDA");
    assert_eq!(forged["perfil_verificado"], json!({}));
}

#[tokio::test]
async fn receipts_are_chained_to_the_carried_cas_or_to_those_of_sat_ca_dir() {
    // With the SAT's own CAs (no SAT_CA_DIR), the test CA's certificates are none of theirs.
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(|c| {
            c.sat_ca = std::sync::Arc::new(score_docs::CertificadosSat::incluidos().clone());
            c.sat_ca_dir = None;
        })),
        ..TestOptions::default()
    })
    .await;
    let carried = upload(&app.client, &app.address, "quincenal-40-infonavit-1.xml").await;
    let sello = &carried["documentos"][0]["sello"];
    assert_eq!(sello["valido"], true, "{sello}");
    assert_eq!((sello["ca_sat_verificada"].clone(), sello["ca_sat_motivo"].clone()), (json!(false), json!("AC_DESCONOCIDA")));
    assert_proves_nothing(&carried, "C75DE8C1-B7C3-4E52-A209-1267A736A9BF", "AC_DESCONOCIDA");
    let ca: Value = app.get("/api/v1/ca-sat").await.json().await.unwrap();
    assert_eq!(ca["data"]["origen"], "incluidos");
    assert_eq!(ca["data"]["certificados"].as_array().unwrap().len(), 4);

    // The operator's folder in their place (the real binary): the same receipt is chained.
    let dir = tempfile::tempdir().unwrap();
    let ac: PathBuf = test_ca_dir();
    let mut server = ServerProcess::start(
        dir.path(),
        &[("DATA_DIR", dir.path().join("data").display().to_string()), ("SAT_CA_DIR", ac.display().to_string())],
    )
    .await;
    let line = server.wait_for_log(&["\"message\":\"listening\""]).await;
    assert!(line.contains(&format!("1 from SAT_CA_DIR {}", ac.display())), "{line}");
    let client = reqwest::Client::new();
    let chained = upload(&client, &server.address, "quincenal-40-infonavit-1.xml").await;
    let sello = &chained["documentos"][0]["sello"];
    assert_eq!((sello["valido"].clone(), sello["ca_sat_verificada"].clone(), sello["ca_sat_motivo"].clone()), (json!(true), json!(true), Value::Null));
    assert!(chained["campos"].as_array().unwrap().iter().any(|c| c == "ingreso_mensual"), "{chained}");

    // The page is handed the same set, PEM, to read receipts in the browser against it.
    let ca: Value = client.get(format!("{}/api/v1/ca-sat", server.address)).send().await.unwrap().json().await.unwrap();
    assert_eq!(ca["data"]["origen"], "SAT_CA_DIR");
    let pems = ca["data"]["certificados"].as_array().unwrap();
    assert_eq!(pems.len(), 1);
    let pem = pems[0].as_str().unwrap();
    assert!(pem.starts_with("-----BEGIN CERTIFICATE-----\n") && pem.ends_with("-----END CERTIFICATE-----\n"), "{pem}");
    let loaded = score_docs::CertificadosSat::from_files([("pem", pem.as_bytes())]).unwrap();
    assert_eq!(loaded.der().next(), Some(std::fs::read(ac.join("AC_PRUEBAS.cer")).unwrap().as_slice()));
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
