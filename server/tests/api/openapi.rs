//! Every route of the router is in /openapi.json, and every documented operation is served.
#![allow(clippy::unwrap_used)]

use serde_json::Value;

use crate::helpers::TestApp;

/// Every operation the server must expose (method, path). Areas add theirs here.
const EXPECTED: &[(&str, &str)] = &[
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/metrics"),
    ("post", "/api/auth/register"),
    ("post", "/api/auth/login"),
    ("get", "/api/auth/me"),
    ("put", "/api/auth/profile"),
    ("post", "/api/auth/logout"),
    ("get", "/api/auth/verify-email"),
    ("post", "/api/auth/resend-verification"),
    ("post", "/api/auth/forgot-password"),
    ("post", "/api/auth/reset-password"),
    ("get", "/api/auth/idp/redirect"),
    ("get", "/api/auth/idp/callback"),
    ("post", "/api/auth/idp/exchange"),
    ("post", "/api/v1/score"),
    ("post", "/api/v1/fase1/perfil"),
    ("post", "/api/v1/fase2/validar/{id}"),
    ("post", "/api/v1/fase2/documentos/{id}"),
    ("get", "/api/v1/ca-sat"),
    ("post", "/api/v1/onboarding/perfil"),
    ("get", "/api/v1/perfil/{id}"),
    ("get", "/api/v1/matching/{id}"),
    ("post", "/api/v1/fase3/documentar/{id}"),
    ("get", "/api/agent/leads"),
    ("get", "/api/agents"),
    ("post", "/api/agents"),
    ("get", "/api/agents/{id}"),
    ("put", "/api/agents/{id}"),
    ("delete", "/api/agents/{id}"),
    ("put", "/api/agents/{id}/assign-agency"),
    ("post", "/api/agents/{id}/reviews"),
    ("get", "/api/agent/my-agency"),
    ("get", "/api/agencies"),
    ("post", "/api/agencies"),
    ("get", "/api/agencies/{id}"),
    ("put", "/api/agencies/{id}"),
    ("post", "/api/agencies/{id}/admins"),
    ("delete", "/api/agencies/{id}/admins/{userId}"),
    ("post", "/api/agencies/{id}/agents"),
    ("get", "/api/agencies/current/agents"),
    ("post", "/api/agencies/current/agents"),
    ("get", "/api/properties"),
    ("post", "/api/properties"),
    ("get", "/api/properties/{id}"),
    ("put", "/api/properties/{id}"),
    ("delete", "/api/properties/{id}"),
];

const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

#[tokio::test]
async fn router_and_openapi_document_agree() {
    let app = TestApp::spawn().await;
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths = doc["paths"].as_object().unwrap();
    let mut documented = Vec::new();
    for (path, item) in paths {
        for m in METHODS {
            if let Some(op) = item.get(m) {
                assert!(op.get("responses").is_some(), "{m} {path} has no responses");
                documented.push((m.to_string(), path.clone()));
            }
        }
    }
    for (m, p) in EXPECTED {
        assert!(
            documented.contains(&(m.to_string(), p.to_string())),
            "{m} {p} is missing from /openapi.json"
        );
    }
    // Every documented operation is routed: it never gets the unknown-route or
    // wrong-method envelope.
    for (m, p) in &documented {
        let concrete = p
            .split('/')
            .map(|seg| {
                if seg.starts_with('{') {
                    "00000000-0000-0000-0000-000000000000"
                } else {
                    seg
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let method = reqwest::Method::from_bytes(m.to_uppercase().as_bytes()).unwrap();
        let r = app
            .client
            .request(method, app.url(&concrete))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let code = if r
            .headers()
            .get("content-type")
            .is_some_and(|c| c.to_str().unwrap().contains("json"))
        {
            r.json::<Value>()
                .await
                .ok()
                .and_then(|b| b["code"].as_str().map(str::to_string))
        } else {
            None
        };
        assert_ne!(
            code.as_deref(),
            Some("ROUTE_NOT_FOUND"),
            "{m} {p} documented but not routed"
        );
        assert_ne!(
            status, 405,
            "{m} {p} documented but the method is not routed"
        );
    }
    // And the wrong methods on documented paths get 405 with the envelope.
    for (path, item) in paths {
        if path.contains('{') {
            continue;
        }
        for m in METHODS {
            if item.get(m).is_none() {
                let method = reqwest::Method::from_bytes(m.to_uppercase().as_bytes()).unwrap();
                let r = app
                    .client
                    .request(method, app.url(path))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), 405, "{m} {path}");
            }
        }
    }
    // Error responses reference the shared envelope schema.
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    // A score error documents every mistake at once beside the first one's keys.
    let score_error = &doc["components"]["schemas"]["ScoreErrorBody"];
    assert!(score_error["properties"]["errores"].is_object(), "{score_error}");
    let calculator = &doc["paths"]["/api/v1/score"]["post"]["responses"]["422"];
    assert!(calculator.to_string().contains("ScoreErrorBody"), "{calculator}");
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}

/// The profile and the report are documented by score-core's own schemas (those of
/// `fixtures/*.schema.json`), `not` included, not by copies: the calculator's body, a batch's
/// profiles and results, and the phases' bodies point at them.
#[tokio::test]
async fn the_profile_and_the_report_are_score_cores_schemas() {
    let app = TestApp::spawn().await;
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    let without_ids = |mut schema: Value| {
        let map = schema.as_object_mut().unwrap();
        map.remove("$schema");
        map.remove("$id");
        schema
    };
    assert_eq!(schemas["Profile"], without_ids(score_core::schema::profile_schema()));
    let mut report = schemas["ScoreReport"].clone();
    let examples = report.as_object_mut().unwrap().remove("examples").expect("a report example");
    assert_eq!(report, without_ids(score_core::schema::report_schema()));
    assert!(examples[0]["score"].is_number(), "{examples}");
    assert!(schemas["Profile"].to_string().contains("\"not\""));
    let input = &schemas["ProfileInput"];
    for field in ["estado", "ingreso_mensual", "coacreditado", "nombre", "email", "telefono"] {
        assert!(input["properties"][field].is_object(), "ProfileInput lacks {field}");
    }
    assert_eq!(input["required"], schemas["Profile"]["required"]);
    let body = |path: &str| doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"].to_string();
    assert!(body("/api/v1/score").contains("#/components/schemas/Profile\""));
    assert!(body("/api/v1/fase1/perfil").contains("#/components/schemas/ProfileInput"));
    assert!(schemas["BatchRequest"].to_string().contains("#/components/schemas/Profile\""));
    assert!(schemas["BatchItem"].to_string().contains("#/components/schemas/ScoreReport"));
    assert!(schemas["ScoreData"].to_string().contains("#/components/schemas/ScoreReport"));
    for copy in ["ScoreProfile", "CoBorrowerProfile"] {
        assert!(schemas[copy].is_null(), "{copy} is a hand-written copy");
    }
}

/// Sends the documented request example of `method path` (with `ids` put in the path, values
/// of other objects put in place of the example's placeholders) and checks that the answer is
/// one of the operation's documented 2xx statuses. Returns the body.
struct Examples {
    doc: Value,
    sent: std::collections::BTreeSet<(String, String)>,
}

impl Examples {
    async fn send(
        &mut self,
        app: &TestApp,
        method: &str,
        path: &str,
        ids: &[&str],
        token: Option<&str>,
        replace: &[(&str, Value)],
    ) -> Value {
        let op = &self.doc["paths"][path][method];
        let mut body = op["requestBody"]["content"]["application/json"]["example"].clone();
        assert!(body.is_object(), "{method} {path} has no request example");
        for (key, value) in replace {
            assert!(body.get(*key).is_some(), "{method} {path}: the example has no {key}");
            body[*key] = value.clone();
        }
        let mut concrete = path.to_string();
        for id in ids {
            let start = concrete.find('{').unwrap();
            let end = concrete[start..].find('}').unwrap() + start;
            concrete.replace_range(start..=end, id);
        }
        let mut req = app
            .client
            .request(reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap(), app.url(&concrete))
            .json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16().to_string();
        let answer: Value = resp.json().await.unwrap_or(Value::Null);
        let documented: Vec<&String> = op["responses"].as_object().unwrap().keys().filter(|s| s.starts_with('2')).collect();
        assert!(documented.contains(&&status), "{method} {path} example answered {status} (documented {documented:?}): {answer}");
        self.sent.insert((method.to_string(), path.to_string()));
        answer
    }
}

/// Every request example of /openapi.json works: sent as documented (the test only fills in
/// ids of objects it created, a unique e-mail where one must be new, and one-time tokens), it
/// gets the documented success status. "Try it out" in /docs sends these same bodies.
#[tokio::test]
async fn every_documented_request_example_gets_its_documented_status() {
    use server::domain::{accounts, users::Role};
    let app = TestApp::spawn().await;
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    let mut ex = Examples { doc, sent: Default::default() };
    let unique = |who: &str| Value::from(format!("{who}-{}@example.test", uuid::Uuid::new_v4().simple()));
    let id = |v: &Value| v["data"]["id"].as_str().unwrap_or_else(|| panic!("no data.id in {v}")).to_string();

    // Accounts: the example person exists and is verified, so login works.
    let login = &ex.doc["paths"]["/api/auth/login"]["post"]["requestBody"]["content"]["application/json"]["example"];
    let (email, password) = (login["email"].as_str().unwrap().to_string(), login["password"].as_str().unwrap().to_string());
    let ana = app.create_user_with(&email, &password, Role::Comprador, true).await;
    ex.send(&app, "post", "/api/auth/register", &[], None, &[]).await;
    ex.send(&app, "post", "/api/auth/login", &[], None, &[]).await;
    ex.send(&app, "put", "/api/auth/profile", &[], Some(&ana.token), &[]).await;
    ex.send(&app, "post", "/api/auth/resend-verification", &[], None, &[]).await;
    ex.send(&app, "post", "/api/auth/forgot-password", &[], None, &[]).await;
    // Another account: forgot-password above renews Ana's reset token in the background.
    let other = app.create_user(Role::Comprador).await;
    let ttl = std::time::Duration::from_secs(600);
    let reset = accounts::issue_one_time_token(&app.db, &other.id, accounts::TokenKind::ResetPassword, ttl).await.unwrap();
    ex.send(&app, "post", "/api/auth/reset-password", &[], None, &[("token", reset.into())]).await;
    let code = accounts::issue_one_time_token(&app.db, &other.id, accounts::TokenKind::IdpLogin, ttl).await.unwrap();
    ex.send(&app, "post", "/api/auth/idp/exchange", &[], None, &[("code", code.into())]).await;

    // Offices and agents.
    let admin = app.create_user(Role::Admin).await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let co_admin = app.create_user(Role::AgencyAdmin).await;
    let buyer = app.create_user(Role::Comprador).await;
    let agency = id(&ex.send(&app, "post", "/api/agencies", &[], Some(&owner.token), &[]).await);
    ex.send(&app, "put", "/api/agencies/{id}", &[&agency], Some(&owner.token), &[]).await;
    ex.send(&app, "post", "/api/agencies/{id}/admins", &[&agency], Some(&owner.token), &[("userId", co_admin.id.clone().into())]).await;
    ex.send(&app, "post", "/api/agencies/{id}/agents", &[&agency], Some(&owner.token), &[("email", unique("office-agent"))]).await;
    ex.send(&app, "post", "/api/agencies/current/agents", &[], Some(&owner.token), &[("email", unique("current-agent"))]).await;
    let agent_email = unique("agent");
    let agent = id(&ex.send(&app, "post", "/api/agents", &[], Some(&admin.token), &[("email", agent_email.clone())]).await);
    ex.send(&app, "put", "/api/agents/{id}", &[&agent], Some(&admin.token), &[]).await;
    ex.send(&app, "put", "/api/agents/{id}/assign-agency", &[&agent], Some(&admin.token), &[("agencyId", agency.clone().into())]).await;
    ex.send(&app, "post", "/api/agents/{id}/reviews", &[&agent], Some(&buyer.token), &[]).await;

    // The agent lists a property with the password of the creation example.
    let created = &ex.doc["paths"]["/api/agents"]["post"]["requestBody"]["content"]["application/json"]["example"];
    let agent_token = app.login(agent_email.as_str().unwrap(), created["password"].as_str().unwrap()).await;
    let property = id(&ex.send(&app, "post", "/api/properties", &[], Some(&agent_token), &[]).await);
    ex.send(&app, "put", "/api/properties/{id}", &[&property], Some(&agent_token), &[]).await;

    // The credit-score journey, and a partner's key and batch.
    ex.send(&app, "post", "/api/v1/score", &[], None, &[]).await;
    let created = ex.send(&app, "post", "/api/admin/api-keys", &[], Some(&admin.token), &[]).await;
    assert!(created["data"]["key"].as_str().is_some_and(|k| k.starts_with("psk_")));
    ex.send(&app, "post", "/api/v1/score/lote", &[], None, &[]).await;
    ex.send(&app, "post", "/api/v1/onboarding/perfil", &[], None, &[]).await;
    let profile = id(&ex.send(&app, "post", "/api/v1/fase1/perfil", &[], None, &[]).await);
    ex.send(&app, "post", "/api/v1/fase2/validar/{id}", &[&profile], None, &[]).await;
    ex.send(&app, "post", "/api/v1/fase3/documentar/{id}", &[&profile], None, &[("propiedad_id", property.into())]).await;

    // Nothing documented with a JSON body was left out.
    let mut with_body = std::collections::BTreeSet::new();
    for (path, item) in ex.doc["paths"].as_object().unwrap() {
        for m in METHODS {
            if item.get(m).is_some_and(|op| op["requestBody"]["content"].get("application/json").is_some()) {
                with_body.insert((m.to_string(), path.clone()));
            }
        }
    }
    let missing: Vec<_> = with_body.difference(&ex.sent).collect();
    assert!(missing.is_empty(), "request examples not exercised here: {missing:?}");
}
