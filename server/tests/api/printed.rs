//! Printed documents through `POST /api/v1/fase2/documentos/{id}` with the real Poppler and
//! Tesseract: receipts printed to a text PDF and to a photo, and bank statements, are answered
//! 202 and read off the request path; `GET /api/v1/perfil/{id}` shows each outcome; a print
//! whose checks pass is shown as read from paper, to confirm with its UUID, and never verifies
//! the profile; its XML does and wins; a misread or refused document is not attached; nothing of the file is kept; a full queue, a restart and bad files have their codes.
#![allow(clippy::unwrap_used)]

#[path = "../../../score-docs/tests/common/mod.rs"]
mod common;
#[path = "../../../score-ocr/tests/printing/mod.rs"]
mod printing;

use std::path::Path;
use std::time::Duration;

use reqwest::multipart::{Form, Part};
use score_docs::CfdiFacts;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestOptions, assert_error};

fn fixture(name: &str) -> (CfdiFacts, Vec<u8>) {
    let xml = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name)).unwrap();
    (score_docs::read_cfdi_con(&xml, &crate::helpers::test_ca()).unwrap(), xml)
}

/// A receipt's print as payroll software writes it: a PDF with a text layer.
fn printed_pdf(name: &str) -> Vec<u8> {
    printing::text_pdf(&common::print(&fixture(name).0), 1)
}

/// A month's statement of the `altiplano` bank as a PDF.
fn statement_pdf(month: u32) -> Vec<u8> {
    let text = common::statement("altiplano", month, common::d(10_000, 0), &common::month_movements(month, "COMPRA SUPERMERCADO"));
    printing::text_pdf(&text, 1)
}

async fn upload(app: &TestApp, id: &str, parts: Vec<(&str, &str, Vec<u8>)>) -> reqwest::Response {
    let form = parts.into_iter().fold(Form::new(), |form, (field, name, bytes)| {
        form.part(field.to_owned(), Part::bytes(bytes).file_name(name.to_owned()))
    });
    app.client.post(app.url(&format!("/api/v1/fase2/documentos/{id}"))).multipart(form).send().await.unwrap()
}

async fn data(resp: reqwest::Response, status: u16) -> Value {
    let got = resp.status().as_u16();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(got, status, "{body}");
    body["data"].clone()
}

async fn new_profile(app: &TestApp) -> String {
    let profile = json!({
        "estado": "JAL", "ingreso_mensual": 20000, "tipo_ingreso": "asalariado", "antiguedad_meses": 12, "edad": 40
    });
    data(app.post_json("/api/v1/fase1/perfil", &profile).await, 201).await["id"].as_str().unwrap().to_owned()
}

/// The profile once no document is being read (the pool works off the request path).
async fn profile_when_read(app: &TestApp, id: &str) -> Value {
    for _ in 0..600 {
        let profile = data(app.get(&format!("/api/v1/perfil/{id}")).await, 200).await;
        if profile["lecturas"].as_array().unwrap().iter().all(|l| l["estado"] != "leyendo") {
            return profile;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the documents of {id} were not read in 60 s");
}

fn reading<'a>(profile: &'a Value, archivo: &str) -> &'a Value {
    profile["lecturas"].as_array().unwrap().iter().find(|l| l["archivo"] == archivo).unwrap()
}

/// The fixture receipt whose worker has a real RFC (the SAT's sample `CACX7605101P8`): the
/// other fixtures' worker RFCs are made up and fail their check digits, so their prints are
/// read but never verify. Its facts and its sealed XML (the same UUID).
fn receipt_with_valid_rfcs() -> (CfdiFacts, Vec<u8>) {
    fixture("quincenal-40-rfc-valido.xml")
}

#[tokio::test]
async fn a_printed_receipt_is_read_from_paper_never_verified_and_its_xml_verifies() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app).await;
    let (facts, xml) = receipt_with_valid_rfcs();
    let uuid = facts.uuid.clone().unwrap();
    let pdf = printing::text_pdf(&common::print(&facts), 1);

    let accepted = data(upload(&app, &id, vec![("recibos", "recibo.pdf", pdf.clone())]).await, 202).await;
    assert_eq!(accepted["perfil_id"], id);
    assert_eq!(accepted["lecturas"][0]["estado"], "leyendo");
    assert_eq!(accepted["lecturas"][0]["tipo"], "recibo_nomina");
    assert!(accepted["verificacion"].is_null());

    let profile = profile_when_read(&app, &id).await;
    let read = reading(&profile, "recibo.pdf");
    assert_eq!(read["estado"], "leido", "{read}");
    assert_eq!(read["aplicado"], true, "{read}");
    assert_eq!(read["documento"]["fuente"], "pdf");
    assert_eq!(read["documento"]["verificado"], true);
    assert_eq!(read["documento"]["uuid"], uuid);
    // The print's seniority, the one its start date and period's end give (P282W).
    assert_eq!((&read["documento"]["antiguedad"], &facts.antiguedad), (&json!("P282W"), &Some("P282W".to_owned())), "{read}");
    let nota = read["nota"].as_str().unwrap();
    assert!(nota.contains("Leído de papel") && nota.contains(&uuid) && nota.contains("XML"), "{nota}");

    // Paper verifies nothing: what it says is shown as read from paper, to confirm, and the
    // declared profile stays.
    let verificacion = &profile["verificacion"];
    assert_eq!(verificacion["documentos"][0]["fuente"], "pdf", "{verificacion}");
    assert_eq!(verificacion["campos"], json!([]), "{verificacion}");
    assert_eq!(verificacion["perfil_verificado"], json!({}));
    let expected = score_docs::profile_from_cfdi(std::slice::from_ref(&facts), server::domain::documents::today_in_mexico()).unwrap();
    let expected = serde_json::to_value(&expected).unwrap();
    assert_eq!(verificacion["campos_impresos"], expected["verificacion"]["campos"], "{verificacion}");
    assert_eq!(verificacion["perfil_impreso"], expected["perfil"], "the print says what the XML proves");
    let to_confirm = &verificacion["comprobacion"]["por_confirmar"];
    assert_eq!(to_confirm.as_array().unwrap().len(), 1, "{to_confirm}");
    assert_eq!(to_confirm[0]["uuid"], uuid);
    assert_eq!((&to_confirm[0]["emisor_rfc"], &to_confirm[0]["receptor_rfc"]), (&json!(facts.emisor_rfc), &json!(facts.receptor_rfc)));
    assert!(to_confirm[0]["nota"].as_str().unwrap().contains("verificacfdi.facturaelectronica.sat.gob.mx"));
    assert_eq!(profile["perfil"]["ingreso_mensual"], 20000, "{profile}");
    assert_eq!(verificacion["discrepancias"], json!([]), "paper is not compared as if verified");

    // The XML of the same receipt replaces what was read from its print.
    let attached = data(upload(&app, &id, vec![("recibos", "recibo.xml", xml)]).await, 200).await;
    assert_eq!(attached["recibidos"][0]["nuevo"], true);
    let documentos = attached["verificacion"]["documentos"].as_array().unwrap();
    assert_eq!(documentos.len(), 1);
    assert_eq!(documentos[0]["fuente"], "xml");
    // The sealed XML verifies what its print only said.
    assert_eq!(attached["verificacion"]["comprobacion"]["campos"], expected["verificacion"]["campos"]);
    assert_eq!(attached["verificacion"]["campos_impresos"], json!([]));
    assert_eq!(attached["verificacion"]["perfil_impreso"], json!({}));
    assert_eq!(attached["verificacion"]["comprobacion"]["por_confirmar"], json!([]));
    assert_eq!(attached["perfil"]["ingreso_mensual"], expected["perfil"]["ingreso_mensual"]);

    // The print again: read and accepted, and the XML stays.
    data(upload(&app, &id, vec![("recibos", "otra-vez.pdf", pdf)]).await, 202).await;
    let again = profile_when_read(&app, &id).await;
    assert_eq!(reading(&again, "otra-vez.pdf")["aplicado"], true);
    let documentos = again["verificacion"]["documentos"].as_array().unwrap();
    assert_eq!((documentos.len(), &documentos[0]["fuente"]), (1, &json!("xml")));

    // A print of another worker is read and refused by the profile.
    data(upload(&app, &id, vec![("recibos", "otro.pdf", printed_pdf("subcontratacion-33-ordinaria.xml"))]).await, 202).await;
    let other = profile_when_read(&app, &id).await;
    let refused = reading(&other, "otro.pdf");
    // Its RFCs fail their check digits or it names another worker: either way never applied.
    assert_eq!(refused["aplicado"], false, "{refused}");
}

#[tokio::test]
async fn the_xml_replaces_its_print_and_a_print_never_replaces_the_xml() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app).await;
    let (facts, xml) = fixture("semanal-33-fonacot-1.xml");
    // A print whose employer RFC fails its check digit (a misread): read, never applied.
    let mut misread = facts.clone();
    misread.emisor_rfc = "EKU9003173C8".into();
    let misread = printing::text_pdf(&common::print(&misread), 1);
    data(upload(&app, &id, vec![("recibos", "recibo.pdf", misread.clone())]).await, 202).await;
    let profile = profile_when_read(&app, &id).await;
    let read = reading(&profile, "recibo.pdf");
    assert_eq!(read["estado"], "leido");
    assert_eq!(read["aplicado"], false);
    assert!(read["nota"].as_str().unwrap().contains("comprobaciones"), "{read}");
    assert_eq!(read["documento"]["comprobaciones"]["rfc_emisor_valido"], false);
    assert!(profile["verificacion"].is_null(), "an unverified print verifies nothing");

    // The XML and a print of it in one request: the XML is attached at once (its outcome in
    // `recibidos`), the print is read and changes nothing.
    let accepted =
        data(upload(&app, &id, vec![("recibos", "recibo.xml", xml), ("recibos", "recibo.pdf", misread)]).await, 202).await;
    assert_eq!(accepted["recibidos"][0]["nuevo"], true);
    assert_eq!(accepted["verificacion"]["documentos"][0]["fuente"], "xml");
    let profile = profile_when_read(&app, &id).await;
    let documentos = profile["verificacion"]["documentos"].as_array().unwrap();
    assert_eq!(documentos.len(), 1);
    assert_eq!(documentos[0]["fuente"], "xml");
    assert_eq!(documentos[0]["uuid"], facts.uuid.unwrap());
}

#[tokio::test]
async fn a_photo_is_read_by_tesseract_and_statements_show_the_income_they_support() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app).await;
    let photo = printing::render(&printed_pdf("mensual-40-pensionado-1.xml"), 300, "png");
    let statements: Vec<(&str, &str, Vec<u8>)> = vec![
        ("estados_cuenta", "marzo.pdf", statement_pdf(3)),
        ("estados_cuenta", "abril.pdf", statement_pdf(4)),
        ("estados_cuenta", "mayo.pdf", statement_pdf(5)),
    ];
    let mut parts = vec![("recibos", "foto.png", photo)];
    parts.extend(statements);
    let accepted = data(upload(&app, &id, parts).await, 202).await;
    assert_eq!(accepted["lecturas"].as_array().unwrap().len(), 4);
    assert_eq!(accepted["lecturas"][1]["tipo"], "estado_cuenta");

    let profile = profile_when_read(&app, &id).await;
    let photo = reading(&profile, "foto.png");
    assert_eq!(photo["estado"], "leido", "{photo}");
    assert_eq!(photo["documento"]["fuente"], "ocr");
    let (facts, _) = fixture("mensual-40-pensionado-1.xml");
    assert_eq!(photo["documento"]["neto"].to_string(), facts.neto.to_string(), "{photo}");
    let confianza = photo["documento"]["confianza"].as_f64().unwrap();
    assert!(confianza > 0.5 && confianza <= 1.0, "{confianza}");
    for month in ["marzo.pdf", "abril.pdf", "mayo.pdf"] {
        let read = reading(&profile, month);
        assert_eq!(read["estado"], "leido", "{read}");
        assert_eq!(read["documento"]["verificado"], true, "{read}");
        assert_eq!(read["aplicado"], false, "statements inform, they do not replace the declared income");
    }
    let income = &profile["ingreso_estados_cuenta"];
    let statements: Vec<score_docs::EstadoCuenta> = ["marzo.pdf", "abril.pdf", "mayo.pdf"]
        .iter()
        .map(|m| score_docs::EstadoCuenta::from_json(&reading(&profile, m)["documento"].to_string()).unwrap())
        .collect();
    let expected = score_docs::ingreso_independiente(&statements, score_docs::DEFAULT_EXPENSE_FACTOR);
    assert_eq!(*income, serde_json::from_str::<Value>(&expected.to_json()).unwrap());
    assert!(income["ingreso_mensual"].as_f64().unwrap() > 0.0, "{income}");
    assert_eq!(profile["perfil"]["ingreso_mensual"], 20000, "the declared income stays");
}

#[tokio::test]
async fn bad_files_get_their_codes_and_nothing_of_a_file_is_kept() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app).await;
    // A statement that is not a PDF or image is refused at once, naming the file.
    let body = assert_error(upload(&app, &id, vec![("estados_cuenta", "estado.txt", b"hola".to_vec())]).await, 422, "DOCUMENT_UNSUPPORTED_TYPE").await;
    assert_eq!(body["field"], "estados_cuenta[0]");
    assert_eq!(body["archivo"], "estado.txt");
    // Printed documents for an unknown profile: 404 before anything is queued.
    assert_error(upload(&app, "00000000-0000-4000-8000-000000000000", vec![("recibos", "r.pdf", printed_pdf("sin-timbre-40.xml"))]).await, 404, "PROFILE_NOT_FOUND").await;
    // A damaged PDF and a PNG header with 100,000 x 100,000 pixels: read off the path, refused
    // with their codes.
    let mut bomb = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bomb.extend_from_slice(&100_000u32.to_be_bytes());
    bomb.extend_from_slice(&100_000u32.to_be_bytes());
    bomb.extend_from_slice(&[8, 0, 0, 0, 0, 0, 0, 0, 0]);
    let parts = vec![("recibos", "roto.pdf", b"%PDF-1.4\n1 0 obj broken".to_vec()), ("recibos", "enorme.png", bomb)];
    data(upload(&app, &id, parts).await, 202).await;
    let profile = profile_when_read(&app, &id).await;
    assert_eq!(reading(&profile, "roto.pdf")["estado"], "rechazado");
    assert_eq!(reading(&profile, "roto.pdf")["error"]["codigo"], "DOCUMENT_UNREADABLE");
    assert_eq!(reading(&profile, "enorme.png")["error"]["codigo"], "DOCUMENT_TOO_LARGE");
    assert!(reading(&profile, "enorme.png")["error"]["mensaje"].as_str().unwrap().len() > 10);
    // What is stored of a document: its SHA-256 and what was read, never its bytes.
    let stored: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT sha256, documento_json FROM document_reads WHERE profile_id = $1").bind(&id).fetch_all(&app.db).await.unwrap();
    assert_eq!(stored.len(), 2);
    assert!(stored.iter().all(|(sha, doc)| sha.len() == 64 && doc.is_none()));
}

#[tokio::test]
async fn a_full_queue_refuses_the_upload_whole_and_a_restart_marks_unread_documents() {
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(|c| c.ocr_queue = 1)),
        ..TestOptions::default()
    })
    .await;
    let id = new_profile(&app).await;
    let two = vec![("recibos", "a.pdf", printed_pdf("sin-timbre-40.xml")), ("recibos", "b.pdf", printed_pdf("sin-timbre-40.xml"))];
    let resp = upload(&app, &id, two).await;
    assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("60"));
    assert_error(resp, 503, "DOCUMENT_QUEUE_FULL").await;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM document_reads").fetch_one(&app.db).await.unwrap();
    assert_eq!(count, 0, "a refused upload stores nothing");

    // A reading whose reader is gone is marked (here: a row that names no reader).
    sqlx::query("INSERT INTO document_reads (id, profile_id, sha256, estado, aplicado, created_at) VALUES ($1, $2, $3, 'leyendo', 0, 0)")
        .bind(uuid_like())
        .bind(&id)
        .bind("0".repeat(64))
        .execute(&app.db)
        .await
        .unwrap();
    // This instance's own sweep (every HEARTBEAT) may mark it first: either marks it once.
    let marked = server::domain::document_reads::interrupt_orphaned(&app.db, 30).await.unwrap();
    assert!(marked <= 1, "{marked}");
    let profile = data(app.get(&format!("/api/v1/perfil/{id}")).await, 200).await;
    assert_eq!(profile["lecturas"][0]["estado"], "rechazado");
    assert_eq!(profile["lecturas"][0]["error"]["codigo"], "DOCUMENT_READ_INTERRUPTED");
}

fn uuid_like() -> String {
    "11111111-2222-4333-8444-555555555555".to_owned()
}

/// Several instances on one database: each document records the instance reading it, and only
/// the documents of an instance silent for 30 s are interrupted, never those another live
/// instance is reading (a starting instance used to mark them all).
#[tokio::test]
async fn only_the_documents_of_a_silent_instance_are_interrupted() {
    let app = TestApp::spawn().await;
    let id = new_profile(&app).await;
    let (alive, gone) = (uuid::Uuid::new_v4().to_string(), uuid::Uuid::new_v4().to_string());
    server::domain::document_reads::heartbeat(&app.db, &alive).await.unwrap();
    sqlx::query("INSERT INTO server_instances (id, heartbeat_at) VALUES ($1, $2)")
        .bind(&gone)
        .bind(server::db::now() - 31)
        .execute(&app.db)
        .await
        .unwrap();
    for (reader, sha) in [(&alive, "a"), (&gone, "b")] {
        sqlx::query("INSERT INTO document_reads (id, profile_id, sha256, estado, aplicado, created_at, lector) VALUES ($1, $2, $3, 'leyendo', 0, 0, $4)")
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(&id)
            .bind(sha.repeat(64))
            .bind(reader)
            .execute(&app.db)
            .await
            .unwrap();
    }
    server::domain::document_reads::interrupt_orphaned(&app.db, 30).await.unwrap();
    let states: Vec<(String, String, Option<String>)> =
        sqlx::query_as("SELECT sha256, estado, error_code FROM document_reads WHERE profile_id = $1 ORDER BY sha256")
            .bind(&id)
            .fetch_all(&app.db)
            .await
            .unwrap();
    assert_eq!(states[0].1, "leyendo", "the live instance's document is still being read");
    assert_eq!((states[1].1.as_str(), states[1].2.as_deref()), ("rechazado", Some("DOCUMENT_READ_INTERRUPTED")));
}
