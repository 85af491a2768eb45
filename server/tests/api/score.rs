//! The credit-score API (spec 4.3) end to end: every golden case of `fixtures/` through the
//! stateless calculator and onboarding, the buyer journey, every error path, rate limiting and
//! reading results of an older model version.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use serde_json::{Value, json};

use crate::helpers::{TestApp, TestOptions, assert_error};

pub(crate) fn fixtures() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cases");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap())
        })
        .collect()
}

fn journey_profile() -> Value {
    json!({
        "estado": "Jalisco", "ingreso_mensual": 42000, "tipo_ingreso": "asalariado",
        "antiguedad_meses": 30, "ahorro": 150000, "edad": 33, "personas_hogar": 3,
        "nombre": "Ana Pérez", "email": "Ana.Perez@Example.test", "telefono": "+52 33 1234 5678"
    })
}

async fn post_raw(app: &TestApp, path: &str, body: &str) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

/// Every fixture gives exactly its report (or its error code, field and every mistake) through
/// `POST /api/v1/score` and `POST /api/v1/onboarding/perfil`.
#[tokio::test]
async fn every_fixture_through_the_calculator_and_onboarding() {
    let app = TestApp::spawn().await;
    let cases = fixtures();
    assert!(cases.len() >= 80);
    for (name, case) in cases {
        for path in ["/api/v1/score", "/api/v1/onboarding/perfil"] {
            let resp = match (case.get("input"), case.get("input_text")) {
                (Some(input), _) => app.post_json(path, input).await,
                (_, Some(text)) => post_raw(&app, path, text.as_str().unwrap()).await,
                _ => panic!("{name}: no input"),
            };
            if let Some(expected) = case.get("expected") {
                let status = resp.status().as_u16();
                let body: Value = resp.json().await.unwrap();
                let want = if path.ends_with("/score") { 200 } else { 201 };
                assert_eq!(status, want, "{name} {path}: {body}");
                assert_eq!(body["status"], "success");
                assert_eq!(&body["data"]["platform_score"], expected, "{name} {path}");
            } else {
                let code = case["error"]["code"].as_str().unwrap();
                let status = if ["INVALID_JSON", "INVALID_TYPE", "MISSING_FIELD", "UNKNOWN_FIELD"].contains(&code) { 400 } else { 422 };
                let body = assert_error(resp, status, code).await;
                if case.get("input").is_some() {
                    assert_eq!(body["field"], case["error"]["field"], "{name} {path}: {body}");
                    // Every mistake at once, as score-core lists them (the four-mistake case too).
                    assert_eq!(body["errores"], case["error"]["errores"], "{name} {path}: {body}");
                }
            }
        }
    }
    // Nothing failed validation into the store; every valid case made one profile.
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM buyer_profiles").fetch_one(&app.db).await.unwrap();
    let valid = fixtures().iter().filter(|(_, c)| c.get("expected").is_some()).count();
    assert_eq!(stored, valid as i64);
}

#[tokio::test]
async fn buyer_journey_phase_1_phase_2_and_profile() {
    let app = TestApp::spawn().await;

    // Phase 1: 201 with an unguessable id only.
    let resp = app.post_json("/api/v1/fase1/perfil", &journey_profile()).await;
    assert_eq!(resp.status(), 201);
    let body: Value = resp.json().await.unwrap();
    let id = body["data"]["id"].as_str().unwrap().to_string();
    let uuid = uuid::Uuid::parse_str(&id).unwrap();
    assert_eq!(uuid.get_version_num(), 4, "random UUID");
    assert_eq!(body["data"]["fase"], 1);
    assert_eq!(body["data"]["modelo_version"], "2.1");
    assert!(body["data"].get("platform_score").is_none());

    // The profile: phase 1, the score of score-core, contact data not echoed.
    let resp = app.get(&format!("/api/v1/perfil/{id}")).await;
    assert_eq!(resp.status(), 200);
    let profile: Value = resp.json().await.unwrap();
    let data = &profile["data"];
    assert_eq!(data["fase"], 1);
    assert_eq!(data["perfil"]["estado"], "JAL", "canonical state code");
    let mut input = journey_profile();
    for k in ["nombre", "email", "telefono"] {
        input.as_object_mut().unwrap().remove(k);
    }
    let direct = serde_json::to_value(score_core::score_value(&input).unwrap()).unwrap();
    assert_eq!(data["platform_score"], direct);
    assert_eq!(data["contacto"], json!({"nombre": "Ana Pérez", "email_registrado": true, "telefono_registrado": true}));
    let text = profile.to_string();
    assert!(!text.contains("Example.test") && !text.to_lowercase().contains("ana.perez@"), "e-mail not echoed");
    assert!(!text.contains("1234 5678"), "phone not echoed");
    let first_score = data["platform_score"]["score"].as_u64().unwrap();

    // Phase 2: declare debts (DTI 0.25) -> the score drops; phase 2; created_at kept.
    let resp = app.post_json(&format!("/api/v1/fase2/validar/{id}"), &json!({"deudas_mensuales": 10500})).await;
    assert_eq!(resp.status(), 200);
    let refined: Value = resp.json().await.unwrap();
    let r = &refined["data"];
    assert_eq!(r["fase"], 2);
    assert_eq!(r["perfil"]["deudas_mensuales"], 10500);
    assert!(r["platform_score"]["score"].as_u64().unwrap() < first_score);
    assert_eq!(r["created_at"], data["created_at"]);

    // Phase 2 again: null makes debts undeclared (neutral) again; income raised.
    let resp = app
        .post_json(&format!("/api/v1/fase2/validar/{id}"), &json!({"deudas_mensuales": null, "ingreso_mensual": 60000}))
        .await;
    let again: Value = resp.json().await.unwrap();
    assert!(again["data"]["perfil"].get("deudas_mensuales").is_none());
    assert!(again["data"]["platform_score"]["score"].as_u64().unwrap() > first_score);
    assert!(
        again["data"]["platform_score"]["recomendaciones_detalle"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["codigo"] == "DEUDAS_NO_DECLARADAS")
    );

    // GET shows the latest result.
    let latest: Value = app.get(&format!("/api/v1/perfil/{id}")).await.json().await.unwrap();
    assert_eq!(latest["data"]["platform_score"], again["data"]["platform_score"]);
}

/// The buyer endpoints read a profile's numbers as written, as the calculator does, and store
/// and show them so: a co-borrower's 29,999.99999999999999999 is less than the household's
/// 30,000 (as a double it is 30,000, refused as not less), and debts of 0.10000000000000001
/// stay that amount through phase 1, phase 2 and `GET`.
#[tokio::test]
async fn buyer_endpoints_read_and_keep_the_digits_written() {
    let app = TestApp::spawn().await;
    let profile = r#"{"estado":"JAL","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":60,
        "deudas_mensuales":0.10000000000000001,
        "coacreditado":{"ingreso_mensual":29999.99999999999999999,"tipo_ingreso":"mixto","antiguedad_meses":12}"#;
    let calculator = |body: String| {
        let app = &app;
        async move {
            let resp: Value = post_raw(app, "/api/v1/score", &body).await.json().await.unwrap();
            assert_eq!(resp["status"], "success", "{resp}");
            resp["data"]["platform_score"].clone()
        }
    };
    let expected = calculator(format!("{profile}}}")).await;
    for path in ["/api/v1/fase1/perfil", "/api/v1/onboarding/perfil"] {
        let resp = post_raw(&app, path, &format!(r#"{profile},"nombre":"Ana Pérez"}}"#)).await;
        assert_eq!(resp.status(), 201, "{path}");
        let body: Value = resp.json().await.unwrap();
        let id = body["data"]["id"].as_str().unwrap().to_owned();
        let stored: String =
            sqlx::query_scalar("SELECT profile_json FROM buyer_profiles WHERE id = $1").bind(&id).fetch_one(&app.db).await.unwrap();
        assert!(stored.contains("0.10000000000000001") && stored.contains("29999.99999999999999999"), "{stored}");
        let shown = app.get(&format!("/api/v1/perfil/{id}")).await.text().await.unwrap();
        assert!(shown.contains(r#""deudas_mensuales":0.10000000000000001"#), "{shown}");
        let shown: Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(shown["data"]["platform_score"], expected, "{path}");
        assert_eq!(shown["data"]["contacto"]["nombre"], "Ana Pérez");

        // Phase 2 merges changes written with their own digits over the stored ones.
        let changes = r#"{"ahorro":150000.0000000000000001,"edad":40}"#;
        let refined = post_raw(&app, &format!("/api/v1/fase2/validar/{id}"), changes).await;
        assert_eq!(refined.status(), 200);
        let refined = refined.text().await.unwrap();
        assert!(refined.contains("150000.0000000000000001") && refined.contains("0.10000000000000001"), "{refined}");
        let refined: Value = serde_json::from_str(&refined).unwrap();
        let merged = format!(r#"{profile},"ahorro":150000.0000000000000001,"edad":40}}"#);
        assert_eq!(refined["data"]["platform_score"], calculator(merged).await, "{path}");
    }
    // What the calculator refuses as written is refused as written: below a centavo.
    let below = r#"{"estado":"JAL","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":60,"deudas_mensuales":0.0099999999999999999999}"#;
    let body = assert_error(post_raw(&app, "/api/v1/onboarding/perfil", below).await, 422, "VALUE_OUT_OF_RANGE").await;
    assert_eq!(body["field"], "deudas_mensuales");
}

#[tokio::test]
async fn every_error_path_uses_the_envelope_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let created: Value = app.post_json("/api/v1/onboarding/perfil", &journey_profile()).await.json().await.unwrap();
    let id = created["data"]["id"].as_str().unwrap().to_string();
    let before: Value = app.get(&format!("/api/v1/perfil/{id}")).await.json().await.unwrap();
    let fase2 = format!("/api/v1/fase2/validar/{id}");

    // Unknown and malformed ids.
    assert_error(app.get(&format!("/api/v1/perfil/{}", uuid::Uuid::new_v4())).await, 404, "PROFILE_NOT_FOUND").await;
    assert_error(app.get("/api/v1/perfil/not-a-uuid").await, 404, "PROFILE_NOT_FOUND").await;
    assert_error(app.post_json("/api/v1/fase2/validar/nope", &json!({"ahorro": 1})).await, 404, "PROFILE_NOT_FOUND").await;

    // Bad refinements: the stored profile is untouched.
    let body = assert_error(app.post_json(&fase2, &json!({"ingreso_mensual": -5})).await, 422, "NEGATIVE_AMOUNT").await;
    assert_eq!(body["field"], "ingreso_mensual");
    assert_error(app.post_json(&fase2, &json!({"estado": "Atlantis"})).await, 422, "UNKNOWN_STATE").await;
    assert_error(app.post_json(&fase2, &json!({"ingreso": 5})).await, 400, "UNKNOWN_FIELD").await;
    assert_error(app.post_json(&fase2, &json!({"ahorro": "mucho"})).await, 400, "INVALID_TYPE").await;
    assert_error(app.post_json(&fase2, &json!({"estado": null})).await, 400, "MISSING_FIELD").await;
    assert_error(app.post_json(&fase2, &json!([1, 2])).await, 400, "INVALID_TYPE").await;
    assert_error(app.post_json(&fase2, &json!({"edad": 30.5})).await, 422, "NOT_AN_INTEGER").await;
    assert_error(post_raw(&app, &fase2, "{\"ahorro\": ").await, 400, "INVALID_JSON").await;
    let body = assert_error(app.post_json(&fase2, &json!({"email": "no-es-correo"})).await, 422, "VALIDATION_ERROR").await;
    assert_eq!(body["field"], "email");
    assert_error(app.post_json(&fase2, &json!({"telefono": "12"})).await, 422, "VALIDATION_ERROR").await;
    assert_error(app.post_json(&fase2, &json!({"nombre": 7})).await, 422, "VALIDATION_ERROR").await;
    let after: Value = app.get(&format!("/api/v1/perfil/{id}")).await.json().await.unwrap();
    assert_eq!(before, after, "failed refinements change nothing");

    // Phase 1 and the calculator reject the same inputs; contact fields are not profile fields
    // for the stateless calculator.
    assert_error(app.post_json("/api/v1/fase1/perfil", &json!({"estado": "CMX"})).await, 400, "MISSING_FIELD").await;
    let mut with_contact = journey_profile();
    with_contact["ingreso_mensual"] = json!(0);
    assert_error(app.post_json("/api/v1/fase1/perfil", &with_contact).await, 422, "VALUE_OUT_OF_RANGE").await;
    assert_error(app.post_json("/api/v1/score", &journey_profile()).await, 400, "UNKNOWN_FIELD").await;
    assert_error(post_raw(&app, "/api/v1/score", "{\"estado\": ").await, 400, "INVALID_JSON").await;
    let not_utf8 = app.client.post(app.url("/api/v1/score")).header("content-type", "application/json").body(vec![0xff, 0xfe]).send().await.unwrap();
    assert_error(not_utf8, 400, "INVALID_JSON").await;
    let as_text = app.client.post(app.url("/api/v1/score")).header("content-type", "text/plain").body("{}").send().await.unwrap();
    assert_error(as_text, 415, "UNSUPPORTED_MEDIA_TYPE").await;
    let vendor_json = app.client.post(app.url("/api/v1/score")).header("content-type", "application/vnd.api+json; charset=utf-8").body("{}").send().await.unwrap();
    assert_error(vendor_json, 400, "MISSING_FIELD").await;

    // Wrong method and unknown route under /api/v1.
    assert_error(app.get("/api/v1/score").await, 405, "METHOD_NOT_ALLOWED").await;
    assert_error(app.get("/api/v1/nada").await, 404, "ROUTE_NOT_FOUND").await;
}

#[tokio::test]
async fn score_endpoints_are_rate_limited_per_ip() {
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(|c| c.score_rate_limit_per_minute = 3)),
        ..TestOptions::default()
    })
    .await;
    let profile = json!({"estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado", "antiguedad_meses": 36});
    for _ in 0..3 {
        assert_eq!(app.post_json("/api/v1/score", &profile).await.status(), 200);
    }
    let resp = app.post_json("/api/v1/score", &profile).await;
    let retry_after: u64 = resp.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after));
    assert_error(resp, 429, "RATE_LIMITED").await;
    // The limit covers every score endpoint for that client.
    assert_error(app.get(&format!("/api/v1/perfil/{}", uuid::Uuid::new_v4())).await, 429, "RATE_LIMITED").await;
}

/// A result stored by an older model version is returned as it was stored, with its version.
#[tokio::test]
async fn results_of_an_older_model_version_stay_readable() {
    let app = TestApp::spawn().await;
    let id = uuid::Uuid::new_v4().to_string();
    let old_report = json!({"score": 512, "nivel": "medio", "recomendaciones": ["Texto de la versión 2.0"], "valor_vivienda_max": 1000000});
    sqlx::query(
        "INSERT INTO buyer_profiles (id, profile_json, report_json, model_version, score, nivel, estado, phase, created_at, updated_at) \
         VALUES ($1, $2, $3, '2.0', 512, 'medio', 'CMX', 2, 1700000000, 1700000000)",
    )
    .bind(&id)
    .bind(json!({"estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado", "antiguedad_meses": 36}).to_string())
    .bind(old_report.to_string())
    .execute(&app.db)
    .await
    .unwrap();
    let body: Value = app.get(&format!("/api/v1/perfil/{id}")).await.json().await.unwrap();
    assert_eq!(body["data"]["modelo_version"], "2.0");
    assert_eq!(body["data"]["platform_score"], old_report);
    assert_eq!(body["data"]["created_at"], "2023-11-14T22:13:20Z");
    // Refining it rescores with the current model.
    let refined: Value = app.post_json(&format!("/api/v1/fase2/validar/{id}"), &json!({"ahorro": 1})).await.json().await.unwrap();
    assert_eq!(refined["data"]["modelo_version"], "2.1");
    assert_eq!(refined["data"]["platform_score"]["modelo_version"], "2.1");
}
