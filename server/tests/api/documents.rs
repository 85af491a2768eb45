//! Payroll receipts that verify a buyer profile (`POST /api/v1/fase2/documentos/{id}`) end to
//! end: every profile case of fixtures/documents/profiles.json through real multipart uploads,
//! the buyer's journey (precedence, discrepancies, idempotency, refinement, GET), what is and
//! is not stored, and every error code with its envelope.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{TestApp, assert_error};

fn documents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents")
}

fn receipt(name: &str) -> Vec<u8> {
    std::fs::read(documents_dir().join(name)).unwrap()
}

fn form(files: &[(&str, Vec<u8>)]) -> Form {
    files.iter().fold(Form::new(), |form, (name, bytes)| {
        form.part("recibos", Part::bytes(bytes.clone()).file_name(name.to_string()).mime_str("application/xml").unwrap())
    })
}

fn named(names: &[&str]) -> Vec<(String, Vec<u8>)> {
    names.iter().map(|n| (n.to_string(), receipt(n))).collect()
}

async fn upload(app: &TestApp, id: &str, files: &[(String, Vec<u8>)]) -> reqwest::Response {
    let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    app.client.post(app.url(&format!("/api/v1/fase2/documentos/{id}"))).multipart(form(&files)).send().await.unwrap()
}

async fn ok_json(resp: reqwest::Response, status: u16) -> Value {
    let got = resp.status().as_u16();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(got, status, "{body}");
    assert_eq!(body["status"], "success", "{body}");
    body["data"].clone()
}

async fn new_profile(app: &TestApp, profile: &Value) -> String {
    let data = ok_json(app.post_json("/api/v1/fase1/perfil", profile).await, 201).await;
    data["id"].as_str().unwrap().to_owned()
}

fn declared() -> Value {
    json!({
        "estado": "CMX", "ingreso_mensual": 35000, "tipo_ingreso": "mixto", "antiguedad_meses": 12,
        "deudas_mensuales": 1000, "ahorro": 250000, "edad": 38, "personas_hogar": 3
    })
}

/// What score-docs itself says of these receipts today (the server's reference date).
fn expected_profile(names: &[&str]) -> Value {
    let files: Vec<Vec<u8>> = names.iter().map(|n| receipt(n)).collect();
    let profile = score_docs::profile_from_cfdi_bytes_con(&files, server::domain::documents::today_in_mexico(), &crate::helpers::test_ca()).unwrap();
    serde_json::to_value(&profile).unwrap()
}

/// The platform_score the stateless calculator gives for `profile`.
async fn score_of(app: &TestApp, profile: &Value) -> Value {
    ok_json(app.post_json("/api/v1/score", profile).await, 200).await["platform_score"].clone()
}

async fn stored_documents(app: &TestApp, id: &str) -> Vec<(Option<String>, String, String)> {
    sqlx::query_as("SELECT uuid, sha256, facts_json FROM buyer_documents WHERE profile_id = $1 ORDER BY fecha_inicial_pago")
        .bind(id)
        .fetch_all(&app.db)
        .await
        .unwrap()
}

/// Every case of fixtures/documents/profiles.json, uploaded in one request: the verified
/// profile and debts are the fixture's (seniority counted to today, so it is checked against
/// score-docs at today's date), the checks are score-docs' own, and refusals carry the
/// fixture's code with the receipt at fault as `recibos[i]`.
#[tokio::test]
async fn every_profile_case_through_the_endpoint() {
    let app = TestApp::spawn().await;
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(documents_dir().join("profiles.json")).unwrap()).unwrap();
    let mut checked = 0;
    for case in cases.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let names: Vec<&str> = case["receipts"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        if names.is_empty() {
            continue; // no file at all: DOCUMENT_REQUIRED, below
        }
        let id = new_profile(&app, &declared()).await;
        let resp = upload(&app, &id, &named(&names)).await;
        if let Some(error) = case.get("error") {
            let code = error["code"].as_str().unwrap();
            let body = assert_error(resp, 422, code).await;
            let field = error["field"].as_str().unwrap().replace("receipts", "recibos");
            assert_eq!(body["field"], json!(field), "{name}: {body}");
            assert!(stored_documents(&app, &id).await.is_empty(), "{name}: a refused upload stores nothing");
            checked += 1;
            continue;
        }
        let data = ok_json(resp, 200).await;
        let v = &data["verificacion"];
        let want = &case["expected"];
        let mut verified = v["perfil_verificado"].clone();
        let mut fixture = want["perfil"].clone();
        verified.as_object_mut().unwrap().remove("antiguedad_meses");
        fixture.as_object_mut().unwrap().remove("antiguedad_meses");
        assert_eq!(verified, fixture, "{name}");
        assert_eq!(v["deudas_nomina"], want["deudas_nomina"], "{name}");
        // A receipt sent twice is stored once (`nuevo: false` the second time), so the checks
        // are score-docs' over each receipt once.
        let mut unique: Vec<&str> = Vec::new();
        for n in &names {
            if !unique.contains(n) {
                unique.push(n);
            }
        }
        let nuevos: Vec<bool> = data["recibidos"].as_array().unwrap().iter().map(|r| r["nuevo"].as_bool().unwrap()).collect();
        let first_copies: Vec<bool> = names.iter().enumerate().map(|(i, n)| !names[..i].contains(n)).collect();
        assert_eq!(nuevos, first_copies, "{name}");
        let today = expected_profile(&unique);
        assert_eq!(v["perfil_verificado"], today["perfil"], "{name}");
        assert_eq!(v["comprobacion"], today["verificacion"], "{name}");
        // The score is score-core's for the profile shown.
        assert_eq!(data["platform_score"], score_of(&app, &data["perfil"]).await, "{name}");
        assert_eq!(data["recibidos"].as_array().unwrap().len(), names.len(), "{name}");
        assert_eq!(v["documentos"].as_array().unwrap().len(), today["verificacion"]["recibos"].as_u64().unwrap() as usize, "{name}");
        // Each receipt's seal as every surface shows it: the fixture's `sello` (a sealed and a
        // tampered receipt alike), matched by UUID.
        for doc in v["documentos"].as_array().unwrap() {
            let fixture = unique
                .iter()
                .map(|n| serde_json::from_str::<Value>(&std::fs::read_to_string(documents_dir().join(n.replace(".xml", ".json"))).unwrap()).unwrap())
                .find(|f| f["uuid"] == doc["uuid"] && f["fecha_inicial_pago"] == doc["fecha_inicial_pago"])
                .unwrap();
            assert_eq!(doc["sello"], fixture["sello"], "{name}: {doc}");
        }
        assert!(v["campos_impresos"].as_array().unwrap().is_empty() && v["perfil_impreso"] == json!({}), "{name}: XML is not paper");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} cases");
}

/// The buyer's journey: declared values, receipts in two uploads, precedence and
/// discrepancies, the same receipts again, GET, refinement after verification.
#[tokio::test]
async fn verified_values_take_precedence_and_differences_are_reported() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app, &declared()).await;
    let first = ["quincenal-40-infonavit-1.xml", "quincenal-40-infonavit-2.xml", "quincenal-40-infonavit-3.xml"];
    let data = ok_json(upload(&app, &id, &named(&first)).await, 200).await;
    let verified = expected_profile(&first)["perfil"].clone();
    let v = &data["verificacion"];

    // Income, income type and seniority come from the receipts; the payroll debts exceed the
    // declared 1,000 so they apply too; the state stays the declared one.
    for field in ["ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "deudas_mensuales"] {
        assert_eq!(data["perfil"][field], verified[field], "{field}");
    }
    assert_eq!(data["perfil"]["estado"], "CMX");
    assert_eq!(verified["estado"], "JAL");
    assert_eq!(data["perfil"]["ahorro"], 250000);
    assert_eq!(v["campos"], json!(["ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "deudas_mensuales"]));
    assert_eq!(v["perfil_declarado"], declared());
    let discrepancies: Vec<(String, bool)> = v["discrepancias"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["campo"].as_str().unwrap().to_owned(), d["aplicado"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        discrepancies,
        [("estado", false), ("ingreso_mensual", true), ("tipo_ingreso", true), ("antiguedad_meses", true), ("deudas_mensuales", true)]
            .map(|(c, a)| (c.to_owned(), a))
    );
    let income = &v["discrepancias"][1];
    assert_eq!((income["declarado"].clone(), income["verificado"].clone()), (json!(35000), verified["ingreso_mensual"].clone()));
    assert_eq!(data["platform_score"], score_of(&app, &data["perfil"]).await);
    assert_eq!(data["fase"], 2);
    assert!(data["recibidos"].as_array().unwrap().iter().all(|r| r["nuevo"] == true));
    assert_eq!(data["recibidos"][0]["archivo"], first[0]);

    // Facts and hashes are stored, never the file.
    let stored = stored_documents(&app, &id).await;
    assert_eq!(stored.len(), 3);
    for ((uuid, sha, facts), name) in stored.iter().zip(first) {
        let bytes = receipt(name);
        assert_eq!(*sha, hex::encode(Sha256::digest(&bytes)));
        let read = score_docs::read_cfdi_con(&bytes, &crate::helpers::test_ca()).unwrap();
        assert_eq!(uuid, &read.uuid);
        assert_eq!(serde_json::from_str::<Value>(facts).unwrap(), serde_json::to_value(&read).unwrap());
        assert!(!facts.contains("Sello") && !facts.contains("Certificado"), "only the facts");
    }

    // The same receipts again: nothing new, nothing changes.
    let again = ok_json(upload(&app, &id, &named(&first)).await, 200).await;
    assert!(again["recibidos"].as_array().unwrap().iter().all(|r| r["nuevo"] == false));
    assert_eq!(again["verificacion"]["documentos"], v["documentos"]);
    assert_eq!(again["verificacion"]["comprobacion"], v["comprobacion"]);
    assert_eq!(again["platform_score"], data["platform_score"]);
    assert_eq!(stored_documents(&app, &id).await.len(), 3);

    // The rest of the semester, one of them repeated: six receipts on file.
    let all = [first.as_slice(), &["quincenal-40-infonavit-4.xml", "quincenal-40-infonavit-5.xml", "quincenal-40-infonavit-6.xml", "quincenal-40-infonavit-1.xml"]].concat();
    let more = ok_json(upload(&app, &id, &named(&all[3..])).await, 200).await;
    let nuevos: Vec<bool> = more["recibidos"].as_array().unwrap().iter().map(|r| r["nuevo"].as_bool().unwrap()).collect();
    assert_eq!(nuevos, [true, true, true, false]);
    let six = expected_profile(&all[..6]);
    assert_eq!(more["verificacion"]["perfil_verificado"], six["perfil"]);
    assert_eq!(more["verificacion"]["comprobacion"], six["verificacion"]);
    assert_eq!(more["verificacion"]["documentos"].as_array().unwrap().len(), 6);

    // GET shows the same verification.
    let got = ok_json(app.get(&format!("/api/v1/perfil/{id}")).await, 200).await;
    assert_eq!(got["verificacion"], more["verificacion"]);
    assert_eq!(got["platform_score"], more["platform_score"]);

    // Phase 2 after verification: a new declared income is kept as declared and reported, the
    // verified one still scores; other fields change as usual.
    let refined = ok_json(
        app.post_json(&format!("/api/v1/fase2/validar/{id}"), &json!({"ingreso_mensual": 50000, "ahorro": 300000})).await,
        200,
    )
    .await;
    assert_eq!(refined["perfil"]["ingreso_mensual"], six["perfil"]["ingreso_mensual"]);
    assert_eq!(refined["perfil"]["ahorro"], 300000);
    assert_eq!(refined["verificacion"]["perfil_declarado"]["ingreso_mensual"], 50000);
    let income = refined["verificacion"]["discrepancias"].as_array().unwrap().iter().find(|d| d["campo"] == "ingreso_mensual").unwrap().clone();
    assert_eq!(income["declarado"], 50000);
    assert_eq!(refined["platform_score"], score_of(&app, &refined["perfil"]).await);
    // A declared value the model refuses is refused as before.
    let bad = app.post_json(&format!("/api/v1/fase2/validar/{id}"), &json!({"ingreso_mensual": -5})).await;
    assert_error(bad, 422, "NEGATIVE_AMOUNT").await;

    // Another worker's receipt is refused, naming it; nothing is stored.
    let other = upload(&app, &id, &named(&["semanal-33-fonacot-1.xml"])).await;
    let body = assert_error(other, 422, "DOCUMENT_MIXED_WORKERS").await;
    assert_eq!((body["field"].clone(), body["archivo"].clone()), (json!("recibos[0]"), json!("semanal-33-fonacot-1.xml")));
    assert_eq!(stored_documents(&app, &id).await.len(), 6);
}

/// Receipts apply over the declared profile as written: an amount with more digits than a
/// double holds stays that amount in the declared profile kept for later refinements, in the
/// profile scored and in what the calculator gives for it.
#[tokio::test]
async fn verification_keeps_the_digits_written() {
    let app = TestApp::spawn().await;
    let post = |path: String, body: String| {
        app.client.post(app.url(&path)).header("content-type", "application/json").body(body).send()
    };
    let declared = r#"{"estado":"CMX","ingreso_mensual":35000,"tipo_ingreso":"mixto","antiguedad_meses":12,"deudas_mensuales":1000,"ahorro":250000.0000000000000001}"#;
    let id = ok_json(post("/api/v1/fase1/perfil".into(), declared.into()).await.unwrap(), 201).await["id"].as_str().unwrap().to_owned();
    let first = ["quincenal-40-infonavit-1.xml", "quincenal-40-infonavit-2.xml"];
    let resp = upload(&app, &id, &named(&first)).await;
    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap();
    assert!(text.contains(r#""ahorro":250000.0000000000000001"#), "the scored profile: {text}");
    let stored: String = sqlx::query_scalar("SELECT declared_json FROM buyer_verifications WHERE profile_id = $1")
        .bind(&id)
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert!(stored.contains("250000.0000000000000001"), "{stored}");
    // The score is the calculator's for the profile as scored, digits included.
    type Raw = std::collections::BTreeMap<String, Box<serde_json::value::RawValue>>;
    let envelope: Raw = serde_json::from_str(&text).unwrap();
    let data: Raw = serde_json::from_str(envelope["data"].get()).unwrap();
    // The declared profile the verification shows keeps them too.
    let verificacion: Raw = serde_json::from_str(data["verificacion"].get()).unwrap();
    let shown = verificacion["perfil_declarado"].get();
    assert!(shown.contains("250000.0000000000000001"), "the declared profile: {shown}");
    let calculator: Value = post("/api/v1/score".into(), data["perfil"].get().to_owned()).await.unwrap().json().await.unwrap();
    let scored: Value = serde_json::from_str(data["platform_score"].get()).unwrap();
    assert_eq!(scored, calculator["data"]["platform_score"]);
    // A refinement merges over the declared digits.
    let refined = post(format!("/api/v1/fase2/validar/{id}"), r#"{"edad":41}"#.into()).await.unwrap().text().await.unwrap();
    assert!(refined.contains(r#""ahorro":250000.0000000000000001"#) && refined.contains(r#""edad":41"#), "{refined}");
}

/// A profile without receipts shows `verificacion: null`, and phase 2 works as before.
#[tokio::test]
async fn a_profile_without_receipts_has_no_verification() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app, &declared()).await;
    let got = ok_json(app.get(&format!("/api/v1/perfil/{id}")).await, 200).await;
    assert_eq!(got["verificacion"], Value::Null);
    let refined = ok_json(app.post_json(&format!("/api/v1/fase2/validar/{id}"), &json!({"ingreso_mensual": 41000})).await, 200).await;
    assert_eq!(refined["perfil"]["ingreso_mensual"], 41000);
    assert_eq!(refined["verificacion"], Value::Null);
}

/// Every refusal: its status, stable code, Spanish message and field, in the common envelope.
#[tokio::test]
async fn bad_uploads_are_refused_with_document_codes() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app, &declared()).await;
    let path = format!("/api/v1/fase2/documentos/{id}");

    for (file, code) in [
        ("rechazo-billion-laughs.xml", "DOCUMENT_UNSAFE_XML"),
        ("rechazo-xxe.xml", "DOCUMENT_UNSAFE_XML"),
        ("rechazo-entidad-sin-dtd.xml", "DOCUMENT_UNSAFE_XML"),
        ("rechazo-xml-roto.xml", "DOCUMENT_INVALID_XML"),
        ("rechazo-factura.xml", "DOCUMENT_NOT_PAYROLL"),
        ("rechazo-no-cfdi.xml", "DOCUMENT_NOT_PAYROLL"),
        ("rechazo-cfdi-32-nomina-11.xml", "DOCUMENT_UNSUPPORTED_VERSION"),
    ] {
        let body = assert_error(upload(&app, &id, &named(&["quincenal-40-infonavit-1.xml", file])).await, 422, code).await;
        assert!(body["field"].as_str().unwrap().starts_with("recibos[1]"), "{file}: {body}");
        assert_eq!(body["archivo"], file, "{body}");
        assert!(body["message"].as_str().unwrap().starts_with("Recibo 2: "), "{body}");
    }

    // Limits: a file over 1 MiB, more than 12 files.
    let big = vec![(String::from("grande.xml"), vec![b' '; score_docs::MAX_BYTES + 1])];
    let body = assert_error(upload(&app, &id, &big).await, 413, "DOCUMENT_TOO_LARGE").await;
    assert_eq!(body["field"], "recibos[0]");
    let thirteen: Vec<(String, Vec<u8>)> = (0..13).map(|i| (format!("r{i}.xml"), receipt("quincenal-40-infonavit-1.xml"))).collect();
    assert_error(upload(&app, &id, &thirteen).await, 413, "DOCUMENT_TOO_LARGE").await;

    // The request itself.
    assert_error(app.post_json(&path, &json!({"recibos": []})).await, 415, "DOCUMENT_UPLOAD_INVALID").await;
    let empty = app.client.post(app.url(&path)).multipart(Form::new().text("nota", "hola")).send().await.unwrap();
    let body = assert_error(empty, 400, "UNKNOWN_FIELD").await;
    assert_eq!(body["field"], "nota");
    let none = app
        .client
        .post(app.url(&path))
        .header("content-type", "multipart/form-data; boundary=X")
        .body("--X--\r\n")
        .send()
        .await
        .unwrap();
    assert_error(none, 400, "DOCUMENT_REQUIRED").await;
    let broken = app
        .client
        .post(app.url(&path))
        .header("content-type", "multipart/form-data; boundary=X")
        .body("--X\r\nContent-Disposition: form-data; name=\"recibos\"\r\n\r\nsin final")
        .send()
        .await
        .unwrap();
    assert_error(broken, 400, "DOCUMENT_UPLOAD_INVALID").await;
    let unknown = upload(&app, "00000000-0000-4000-8000-000000000000", &named(&["quincenal-40-infonavit-1.xml"])).await;
    assert_error(unknown, 404, "PROFILE_NOT_FOUND").await;
    assert_error(upload(&app, "nope", &named(&["quincenal-40-infonavit-1.xml"])).await, 404, "PROFILE_NOT_FOUND").await;

    // Nothing of it was stored, and the profile is as declared.
    assert!(stored_documents(&app, &id).await.is_empty());
    let got = ok_json(app.get(&format!("/api/v1/perfil/{id}")).await, 200).await;
    assert_eq!(got["verificacion"], Value::Null);
    assert_eq!(got["perfil"]["ingreso_mensual"], 35000);
}
