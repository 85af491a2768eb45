//! Partners (issue 21): API keys created and revoked by administrators or the CLI, stored
//! hashed, sent as `X-API-Key`, each with its own rate limit on the score endpoints, and the
//! batch calculator `POST /api/v1/score/lote` (up to 1,000 profiles, errors in place).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use server::domain::users::Role;

use crate::helpers::{TestApp, assert_error};

async fn create_key(app: &TestApp, admin: &str, limit: i64) -> (String, String) {
    let r = app
        .post_json_auth("/api/admin/api-keys", &json!({"name": "Portal Casas del Norte", "rateLimitPerMinute": limit}), admin)
        .await;
    assert_eq!(r.status(), 201);
    let body: Value = r.json().await.unwrap();
    (body["data"]["id"].as_str().unwrap().to_string(), body["data"]["key"].as_str().unwrap().to_string())
}

async fn post_with_key(app: &TestApp, path: &str, body: &Value, key: &str) -> reqwest::Response {
    app.client.post(app.url(path)).header("x-api-key", key).json(body).send().await.unwrap()
}

fn profile() -> Value {
    json!({"estado": "Jalisco", "ingreso_mensual": 42000, "tipo_ingreso": "asalariado",
           "antiguedad_meses": 30, "ahorro": 150000, "edad": 33, "personas_hogar": 3})
}

#[tokio::test]
async fn administrators_create_list_and_revoke_keys_stored_hashed() {
    let app = TestApp::spawn().await;
    let admin = app.create_user(Role::Admin).await;
    let office = app.create_user(Role::AgencyAdmin).await;
    assert_error(app.post_json_auth("/api/admin/api-keys", &json!({"name": "X"}), &office.token).await, 403, "FORBIDDEN").await;
    assert_error(app.get("/api/admin/api-keys").await, 401, "TOKEN_MISSING").await;
    assert_error(app.post_json_auth("/api/admin/api-keys", &json!({"name": ""}), &admin.token).await, 422, "VALIDATION_ERROR").await;
    assert_error(
        app.post_json_auth("/api/admin/api-keys", &json!({"name": "X", "rateLimitPerMinute": 0}), &admin.token).await,
        422,
        "VALIDATION_ERROR",
    )
    .await;

    let (id, key) = create_key(&app, &admin.token, 600).await;
    assert!(key.starts_with("psk_") && key.len() == 47, "{key}");
    // Only the digest is stored; the list shows the prefix, never the key.
    let (hash, prefix): (String, String) = sqlx::query_as("SELECT key_hash, key_prefix FROM api_keys WHERE id = $1")
        .bind(&id)
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(hash, server::security::hash_token(&key));
    assert!(key.starts_with(&prefix));
    let list = app.get_auth("/api/admin/api-keys", &admin.token).await.text().await.unwrap();
    assert!(list.contains(&id) && list.contains(&prefix) && !list.contains(&key), "{list}");

    assert_eq!(post_with_key(&app, "/api/v1/score", &profile(), &key).await.status(), 200);
    assert_error(post_with_key(&app, "/api/v1/score", &profile(), "psk_not-a-key").await, 401, "API_KEY_INVALID").await;
    assert_eq!(app.delete_auth(&format!("/api/admin/api-keys/{id}"), &admin.token).await.status(), 200);
    assert_error(post_with_key(&app, "/api/v1/score", &profile(), &key).await, 401, "API_KEY_INVALID").await;
    assert_error(app.delete_auth(&format!("/api/admin/api-keys/{}", uuid::Uuid::new_v4()), &admin.token).await, 404, "API_KEY_NOT_FOUND").await;
    assert_error(app.delete_auth("/api/admin/api-keys/a%00b", &admin.token).await, 404, "NOT_FOUND").await;
}

#[tokio::test]
async fn each_key_has_its_own_rate_limit() {
    let app = TestApp::spawn().await;
    let admin = app.create_user(Role::Admin).await;
    let (_, small) = create_key(&app, &admin.token, 3).await;
    let (_, other) = create_key(&app, &admin.token, 3).await;
    for _ in 0..3 {
        assert_eq!(post_with_key(&app, "/api/v1/score", &profile(), &small).await.status(), 200);
    }
    let r = post_with_key(&app, "/api/v1/score", &profile(), &small).await;
    assert!(r.headers().get("retry-after").is_some());
    assert_error(r, 429, "RATE_LIMITED").await;
    // The phases count too, and a spent key leaves other keys and anonymous callers alone.
    assert_error(post_with_key(&app, "/api/v1/onboarding/perfil", &profile(), &small).await, 429, "RATE_LIMITED").await;
    assert_eq!(post_with_key(&app, "/api/v1/score", &profile(), &other).await.status(), 200);
    assert_eq!(app.post_json("/api/v1/score", &profile()).await.status(), 200);
    // A batch counts each profile: two more fit in `other`'s minute, three do not.
    let three = json!({"perfiles": [profile(), profile(), profile()]});
    assert_error(post_with_key(&app, "/api/v1/score/lote", &three, &other).await, 429, "RATE_LIMITED").await;
    let two = json!({"perfiles": [profile(), profile()]});
    assert_eq!(post_with_key(&app, "/api/v1/score/lote", &two, &other).await.status(), 200);
    // A batch larger than the whole minute could never pass: 422, not 429.
    let four = json!({"perfiles": [profile(), profile(), profile(), profile()]});
    assert_error(post_with_key(&app, "/api/v1/score/lote", &four, &small).await, 422, "BATCH_OVER_RATE_LIMIT").await;
}

#[tokio::test]
async fn a_batch_of_1000_profiles_gives_each_report_or_error_in_place() {
    let app = TestApp::spawn().await;
    let admin = app.create_user(Role::Admin).await;
    let (_, key) = create_key(&app, &admin.token, 5000).await;
    // Every fixture with a JSON input, repeated up to 1,000 profiles: reports and errors mixed.
    let cases: Vec<Value> = crate::score::fixtures().into_iter().filter_map(|(_, c)| c.get("input").cloned()).collect();
    let profiles: Vec<Value> = cases.iter().cycle().take(1000).cloned().collect();
    let r = post_with_key(&app, "/api/v1/score/lote", &json!({"perfiles": profiles}), &key).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    let data = &body["data"];
    let results = data["resultados"].as_array().unwrap();
    assert_eq!((data["total"].as_u64(), results.len()), (Some(1000), 1000));
    let errors = results.iter().filter(|r| r.get("error").is_some()).count();
    assert!(errors > 0 && errors < 1000, "fixtures hold both reports and errors");
    assert_eq!(data["errores"].as_u64(), Some(errors as u64));
    assert_eq!(data["puntuados"].as_u64(), Some(1000 - errors as u64));
    // Each result is exactly what the single calculator answers for that profile.
    for (i, profile) in cases.iter().enumerate() {
        let single: Value = post_with_key(&app, "/api/v1/score", profile, &key).await.json().await.unwrap();
        let item = &results[i];
        assert_eq!(item["indice"], json!(i));
        match single["data"].get("platform_score") {
            Some(report) => assert_eq!(&item["platform_score"], report, "profile {i}"),
            None => {
                assert_eq!(item["error"]["code"], single["code"], "profile {i}");
                assert_eq!(item["error"]["field"], single.get("field").cloned().unwrap_or(Value::Null), "profile {i}");
                assert_eq!(item["error"]["message"], single["message"], "profile {i}");
                assert_eq!(item["error"]["errores"], single["errores"], "profile {i}: every mistake, in order");
                assert!(item["error"]["errores"].as_array().is_some_and(|e| !e.is_empty()), "profile {i}");
            }
        }
    }
    // Limits of the batch itself.
    let too_many: Vec<Value> = (0..1001).map(|_| profile()).collect();
    assert_error(post_with_key(&app, "/api/v1/score/lote", &json!({"perfiles": too_many}), &key).await, 422, "VALIDATION_ERROR").await;
    assert_error(post_with_key(&app, "/api/v1/score/lote", &json!({"perfiles": []}), &key).await, 422, "VALIDATION_ERROR").await;
    assert_error(post_with_key(&app, "/api/v1/score/lote", &json!({"perfil": [profile()]}), &key).await, 422, "VALIDATION_ERROR").await;
    // Anonymous callers may batch within their per-IP limit.
    assert_eq!(app.post_json("/api/v1/score/lote", &json!({"perfiles": [profile()]})).await.status(), 200);
}

#[tokio::test]
async fn the_cli_creates_and_revokes_keys() {
    let app = TestApp::spawn().await;
    let cli = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
            .args(args)
            .env_clear()
            .env("DATABASE_URL", &app.config.database_url)
            .env("DATA_DIR", &app.config.data_dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let created = cli(&["api-key", "create", "--name", "Banco del Bajío", "--limit", "50"]);
    let key = created.split_whitespace().find(|w| w.starts_with("psk_")).unwrap().to_string();
    let id = created.split_whitespace().nth(2).unwrap().to_string();
    assert_eq!(post_with_key(&app, "/api/v1/score", &profile(), &key).await.status(), 200);
    let listed = cli(&["api-key", "list"]);
    assert!(listed.contains(&id) && listed.contains("Banco del Bajío") && !listed.contains(&key), "{listed}");
    cli(&["api-key", "revoke", &id]);
    assert_error(post_with_key(&app, "/api/v1/score", &profile(), &key).await, 401, "API_KEY_INVALID").await;
}

#[tokio::test]
async fn the_batch_reads_the_digits_written_as_the_single_calculator_does() {
    let app = TestApp::spawn().await;
    let admin = app.create_user(Role::Admin).await;
    let (_, key) = create_key(&app, &admin.token, 100).await;
    // The co-borrower's 29,999.99999999999999999 is less than the household's 30,000 as
    // written (its nearest double is 30,000, which would be refused as not less).
    let profile = r#"{"estado":"JAL","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":60,
        "coacreditado":{"ingreso_mensual":29999.99999999999999999,"tipo_ingreso":"mixto","antiguedad_meses":12}}"#;
    let post = |path: &'static str, body: String| {
        app.client.post(app.url(path)).header("x-api-key", &key).header("content-type", "application/json").body(body).send()
    };
    let single: Value = post("/api/v1/score", profile.to_owned()).await.unwrap().json().await.unwrap();
    assert_eq!(single["status"], "success", "{single}");
    let batch: Value = post("/api/v1/score/lote", format!(r#"{{"perfiles":[{profile}]}}"#)).await.unwrap().json().await.unwrap();
    assert_eq!(batch["data"]["resultados"][0]["platform_score"], single["data"]["platform_score"], "{batch}");
}
