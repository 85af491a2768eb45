//! Matching and phase 3 of the credit-score API end to end (issue 7): which listings fit a
//! profile and in what order, the buyer's documented interest reaching the agent by e-mail and
//! in `GET /api/agent/leads`, no duplicate leads (also under concurrency), and every error path.
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use crate::{
    agents::{body, create_agent, futures_join, world},
    helpers::{PASSWORD, TestApp, TestOptions, assert_error},
};

/// A buyer in Mexico City with savings, so both sale and rent listings can match.
fn buyer(contact: bool) -> Value {
    let mut b = json!({
        "estado": "CMX", "ingreso_mensual": 48000, "tipo_ingreso": "asalariado",
        "antiguedad_meses": 40, "ahorro": 260000, "edad": 34, "personas_hogar": 3
    });
    if contact {
        b["nombre"] = json!("Sofía Ramírez");
        b["email"] = json!("sofia.ramirez@example.test");
        b["telefono"] = json!("+52 55 1234 5678");
    }
    b
}

async fn onboard(app: &TestApp, profile: &Value) -> String {
    let r = app.post_json("/api/v1/onboarding/perfil", profile).await;
    body(r, 201).await["data"]["id"].as_str().unwrap().to_string()
}

async fn listing(app: &TestApp, token: &str, title: &str, op: &str, price: f64, estado: &str, m2: f64) -> String {
    let b = json!({
        "title": title, "operation": op, "price": price, "estado": estado,
        "city": "Ciudad de México", "m2": m2, "bedrooms": 2, "bathrooms": 1
    });
    let r = app.post_json_auth("/api/properties", &b, token).await;
    body(r, 201).await["data"]["id"].as_str().unwrap().to_string()
}

async fn matching(app: &TestApp, id: &str, query: &str) -> Value {
    body(app.get(&format!("/api/v1/matching/{id}{query}")).await, 200).await["data"].clone()
}

fn titles(page: &Value) -> Vec<String> {
    page["propiedades"].as_array().unwrap().iter().map(|m| m["propiedad"]["title"].as_str().unwrap().to_string()).collect()
}

fn codes(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|r| r["codigo"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn matching_ranks_the_listings_a_buyer_can_reach_and_says_why() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    let profile = onboard(&app, &buyer(false)).await;

    // The ceilings come from the stored report.
    let empty = matching(&app, &profile, "").await;
    assert_eq!(empty["perfil_id"], json!(profile));
    assert_eq!(empty["pagination"]["total"], 0);
    let c = &empty["criterios"];
    let report = body(app.get(&format!("/api/v1/perfil/{profile}")).await, 200).await["data"]["platform_score"].clone();
    let cap = &report["capacidad_compra_estimada"];
    let (vr, credit, down, ltv) = (
        cap["valor_realista"].as_f64().unwrap(),
        cap["credito_max"].as_f64().unwrap(),
        cap["enganche_disponible"].as_f64().unwrap(),
        cap["ltv"].as_f64().unwrap(),
    );
    let ceiling = vr.min(credit + down).min(down / (1.0 - ltv));
    let sale_max = c["precio_max_venta"].as_f64().unwrap();
    assert!((sale_max - ceiling).abs() < 0.01, "{c}");
    assert!(sale_max > 0.0, "this buyer can buy: {c}");
    let rent_max = c["renta_max_mensual"].as_f64().unwrap();
    assert_eq!(rent_max, cap["pago_mensual_estimado"].as_f64().unwrap());
    assert_eq!(c["estado"], "CMX");
    assert_eq!(c["modelo_version"], "2.1");
    let core = c["m2_minimo_nucleo"].as_f64().unwrap();

    let t = &w.agent.token;
    listing(&app, t, "ideal", "sale", (sale_max * 0.8).floor(), "CMX", core + 20.0).await;
    listing(&app, t, "al limite y chica", "sale", (sale_max * 0.99).floor(), "CMX", (core / 2.0).floor()).await;
    listing(&app, t, "barata", "sale", (sale_max * 0.3).floor(), "CMX", core).await;
    listing(&app, t, "renta", "rent", (rent_max * 0.7).floor(), "Ciudad de México", core).await;
    listing(&app, t, "muy cara", "sale", (sale_max * 1.05).ceil(), "CMX", core).await;
    listing(&app, t, "renta cara", "rent", (rent_max * 1.2).ceil(), "CMX", core).await;
    listing(&app, t, "otro estado", "sale", (sale_max * 0.8).floor(), "JAL", core).await;
    // A listing whose agent is deleted keeps existing without agent: nobody to contact.
    let (gone, gone_body) = create_agent(&app, &w.owner, &w.office_a, "gone").await;
    let gone_email = gone_body["email"].as_str().unwrap().to_string();
    let gone_token = app.login(&gone_email, PASSWORD).await;
    let orphan = listing(&app, &gone_token, "sin agente", "sale", (sale_max * 0.8).floor(), "CMX", core).await;
    body(app.delete_auth(&format!("/api/agents/{gone}"), &w.owner.token).await, 200).await;

    let all = matching(&app, &profile, "").await;
    assert_eq!(all["pagination"]["total"], 4, "{all}");
    let got = titles(&all);
    assert_eq!(got, ["ideal", "renta", "al limite y chica", "barata"]);
    let fits: Vec<u64> = all["propiedades"].as_array().unwrap().iter().map(|m| m["ajuste"].as_u64().unwrap()).collect();
    assert!(fits.windows(2).all(|w| w[0] >= w[1]), "best fit first: {fits:?}");
    assert_eq!(fits[0], 100);

    let ideal = &all["propiedades"][0];
    assert_eq!(codes(&ideal["motivos"]), ["MISMO_ESTADO", "PRECIO_EN_CAPACIDAD", "ENGANCHE_CUBIERTO", "PAGO_EN_CAPACIDAD", "ESPACIO_SUFICIENTE"]);
    assert!(ideal["advertencias"].as_array().unwrap().is_empty());
    let f = &ideal["finanzas"];
    assert!(f["enganche_requerido"].as_f64().unwrap() <= down);
    assert!(f["pago_mensual_estimado"].as_f64().unwrap() <= cap["pago_mensual_estimado"].as_f64().unwrap());
    let price = ideal["propiedad"]["price"].as_f64().unwrap();
    assert!((f["enganche_requerido"].as_f64().unwrap() + f["credito_necesario"].as_f64().unwrap() - price).abs() < 0.02);
    let tight = all["propiedades"].as_array().unwrap().iter().find(|m| m["propiedad"]["title"] == "al limite y chica").unwrap();
    assert_eq!(codes(&tight["advertencias"]), ["ESPACIO_REDUCIDO", "CERCA_DEL_LIMITE"]);
    let rent = all["propiedades"].as_array().unwrap().iter().find(|m| m["propiedad"]["operation"] == "rent").unwrap();
    assert!(codes(&rent["motivos"]).contains(&"RENTA_EN_PRESUPUESTO"));
    assert_eq!(rent["finanzas"]["enganche_requerido"], Value::Null);

    // Filter and pages.
    assert_eq!(titles(&matching(&app, &profile, "?operation=rent").await), ["renta"]);
    assert_eq!(matching(&app, &profile, "?operation=sale").await["pagination"]["total"], 3);
    let p1 = matching(&app, &profile, "?limit=3").await;
    let p2 = matching(&app, &profile, "?limit=3&page=2").await;
    assert_eq!(p1["pagination"]["lastPage"], 2);
    assert_eq!([titles(&p1), titles(&p2)].concat(), got);

    // Errors.
    assert_error(app.get(&format!("/api/v1/matching/{profile}?operation=lease")).await, 400, "INVALID_QUERY").await;
    assert_error(app.get(&format!("/api/v1/matching/{profile}?limit=0")).await, 400, "INVALID_PAGINATION").await;
    assert_error(app.get(&format!("/api/v1/matching/{}", uuid::Uuid::new_v4())).await, 404, "PROFILE_NOT_FOUND").await;
    assert_error(app.get("/api/v1/matching/not-a-uuid").await, 404, "PROFILE_NOT_FOUND").await;

    // Phase 3 on the listing without agent has nobody to notify.
    let r = app
        .post_json(&format!("/api/v1/fase3/documentar/{profile}"), &json!({"propiedad_id": orphan, "email": "x@example.test"}))
        .await;
    assert_error(r, 409, "PROPERTY_WITHOUT_AGENT").await;
}

#[tokio::test]
async fn a_buyer_without_savings_matches_rentals_only() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    let mut b = buyer(false);
    b["ahorro"] = json!(0);
    b["tipo_ingreso"] = json!("independiente"); // no housing-fund sub-account either
    let profile = onboard(&app, &b).await;
    let c = matching(&app, &profile, "").await["criterios"].clone();
    assert_eq!(c["precio_max_venta"], 0.0);
    assert_eq!(c["limite_venta"], "ENGANCHE");
    let rent_max = c["renta_max_mensual"].as_f64().unwrap();
    listing(&app, &w.agent.token, "casa", "sale", 500_000.0, "CMX", 60.0).await;
    listing(&app, &w.agent.token, "depa", "rent", (rent_max * 0.7).floor(), "CMX", 60.0).await;
    assert_eq!(titles(&matching(&app, &profile, "").await), ["depa"]);
    assert_eq!(matching(&app, &profile, "?operation=sale").await["pagination"]["total"], 0);
}

#[tokio::test]
async fn phase_3_reaches_the_agent_once_and_shows_the_lead_only_to_that_agent() {
    let app = TestApp::spawn_with(TestOptions { smtp: true, ..Default::default() }).await;
    let w = world(&app).await;
    let property = listing(&app, &w.agent.token, "Departamento en Roma Norte", "sale", 1_200_000.0, "CMX", 70.0).await;
    let rental = listing(&app, &w.agent.token, "Loft en Narvarte", "rent", 9_000.0, "CMX", 50.0).await;
    let path = |id: &str| format!("/api/v1/fase3/documentar/{id}");

    // No contact data on file and none given: the agent could not answer.
    let anonymous = onboard(&app, &buyer(false)).await;
    let r = app.post_json(&path(&anonymous), &json!({"propiedad_id": property})).await;
    let e = assert_error(r, 422, "CONTACT_REQUIRED").await;
    assert_eq!(e["field"], "email");
    let r = app.post_json(&path(&anonymous), &json!({"propiedad_id": property, "email": "a@example.test", "preferencia_contacto": "whatsapp"})).await;
    assert_eq!(assert_error(r, 422, "VALIDATION_ERROR").await["field"], "preferencia_contacto");
    assert_eq!(body(app.get(&format!("/api/v1/perfil/{anonymous}")).await, 200).await["data"]["fase"], 2, "errors change nothing");

    // Errors of the body and of the ids.
    let profile = onboard(&app, &buyer(true)).await;
    for (b, status, code, field) in [
        (json!({}), 400, "MISSING_FIELD", json!("propiedad_id")),
        (json!({"propiedad_id": 7}), 400, "INVALID_TYPE", json!("propiedad_id")),
        (json!({"propiedad_id": property, "color": "azul"}), 400, "UNKNOWN_FIELD", json!("color")),
        (json!({"propiedad_id": property, "preferencia_contacto": "fax"}), 422, "VALIDATION_ERROR", json!("preferencia_contacto")),
        (json!({"propiedad_id": property, "mensaje": "x".repeat(1001)}), 422, "VALIDATION_ERROR", json!("mensaje")),
        (json!({"propiedad_id": property, "email": "no-es-correo"}), 422, "VALIDATION_ERROR", json!("email")),
        (json!([1]), 400, "INVALID_TYPE", Value::Null),
    ] {
        let e = assert_error(app.post_json(&path(&profile), &b).await, status, code).await;
        assert_eq!(e["field"], field, "{b}");
    }
    let r = app.post_json(&path(&profile), &json!({"propiedad_id": uuid::Uuid::new_v4().to_string()})).await;
    assert_error(r, 404, "PROPERTY_NOT_FOUND").await;
    let r = app.post_json(&path(&uuid::Uuid::new_v4().to_string()), &json!({"propiedad_id": property})).await;
    assert_error(r, 404, "PROFILE_NOT_FOUND").await;

    // The first interest creates the lead and e-mails the agent, without the buyer's contact data.
    let msg = "¿Sigue disponible? Me interesa visitarlo el sábado.";
    let r = app.post_json(&path(&profile), &json!({"propiedad_id": property, "mensaje": msg})).await;
    let first = body(r, 201).await["data"].clone();
    assert_eq!(first["fase"], 3);
    assert_eq!(first["lead"]["nuevo"], true);
    assert_eq!(first["lead"]["preferencia_contacto"], "email");
    assert_eq!(first["agente"]["id"], json!(w.agent_id));
    assert!(!first.to_string().contains("sofia.ramirez"), "no contact data echoed: {first}");
    let mail = app.wait_for_email(&w.agent.email, "Nuevo interesado").await;
    assert!(mail.subject.contains("Departamento en Roma Norte"));
    assert!(mail.text.contains("Sofía") && mail.text.contains(msg) && mail.text.contains("/agent/leads"), "{}", mail.text);
    assert!(!mail.text.contains("sofia.ramirez") && !mail.text.contains("1234 5678"), "{}", mail.text);

    // Repeating it updates the same lead and sends nothing.
    let r = app.post_json(&path(&profile), &json!({"propiedad_id": property, "preferencia_contacto": "whatsapp"})).await;
    let again = body(r, 200).await["data"].clone();
    assert_eq!(again["lead"]["id"], first["lead"]["id"]);
    assert_eq!(again["lead"]["nuevo"], false);
    assert_eq!(again["lead"]["preferencia_contacto"], "whatsapp");
    assert_eq!(again["lead"]["mensaje"], msg, "an absent message keeps the first one");

    // Concurrent interest in another listing: exactly one lead, one 201.
    let futs = (0..8).map(|_| {
        let (app, p, b) = (&app, path(&profile), json!({"propiedad_id": rental}));
        async move { app.post_json(&p, &b).await.status().as_u16() }
    });
    let mut statuses = futures_join(futs).await;
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 200, 200, 200, 200, 200, 200, 201]);
    app.wait_for_email(&w.agent.email, "Loft en Narvarte").await;

    let view = body(app.get(&format!("/api/v1/perfil/{profile}")).await, 200).await["data"].clone();
    assert_eq!(view["fase"], 3);

    // The agent sees both leads with the buyer's contact data and pre-qualification.
    let leads = body(app.get_auth("/api/agent/leads", &w.agent.token).await, 200).await["data"].clone();
    assert_eq!(leads["pagination"]["total"], 2, "{leads}");
    let lead = leads["leads"].as_array().unwrap().iter().find(|l| l["property"]["id"] == json!(property)).unwrap();
    assert_eq!(lead["id"], first["lead"]["id"]);
    assert_eq!(lead["buyer"]["email"], "sofia.ramirez@example.test");
    assert_eq!(lead["buyer"]["phone"], "+52 55 1234 5678");
    assert_eq!(lead["buyer"]["name"], "Sofía Ramírez");
    assert_eq!(lead["buyer"]["profileId"], json!(profile));
    assert_eq!(lead["contactPreference"], "whatsapp");
    assert_eq!(lead["message"], msg);
    assert!(lead["buyer"]["score"].as_u64().unwrap() > 0);
    assert!(lead["buyer"]["valorRealista"].as_f64().unwrap() > 0.0);
    let only = body(app.get_auth(&format!("/api/agent/leads?propertyId={rental}"), &w.agent.token).await, 200).await["data"].clone();
    assert_eq!(only["pagination"]["total"], 1);
    assert_eq!(only["leads"][0]["property"]["title"], "Loft en Narvarte");

    // Another agent sees none of them; other roles and anonymous callers are refused.
    let (_, other) = create_agent(&app, &w.owner, &w.office_a, "other").await;
    let other_token = app.login(other["email"].as_str().unwrap(), PASSWORD).await;
    let none = body(app.get_auth("/api/agent/leads", &other_token).await, 200).await["data"].clone();
    assert_eq!(none["pagination"]["total"], 0);
    for token in [&w.buyer.token, &w.owner.token, &w.admin.token] {
        assert_error(app.get_auth("/api/agent/leads", token).await, 403, "FORBIDDEN").await;
    }
    assert_error(app.get("/api/agent/leads").await, 401, "TOKEN_MISSING").await;
    assert_error(app.get_auth("/api/agent/leads?limit=500", &w.agent.token).await, 400, "INVALID_PAGINATION").await;

    // One e-mail per lead, however often the buyer repeats.
    app.wait_for_mail_queue_empty().await;
    let welcome_and_leads = app.count_emails_to(&w.agent.email);
    assert_eq!(welcome_and_leads, 3, "welcome + two leads");
}

#[tokio::test]
async fn an_inactive_agent_gets_no_leads() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    let property = listing(&app, &w.agent.token, "Casa en Coyoacán", "sale", 900_000.0, "CMX", 80.0).await;
    body(app.put_json_auth(&format!("/api/agents/{}", w.agent_id), &json!({"isActive": false}), &w.owner.token).await, 200).await;
    let profile = onboard(&app, &buyer(true)).await;
    let r = app.post_json(&format!("/api/v1/fase3/documentar/{profile}"), &json!({"propiedad_id": property})).await;
    assert_error(r, 409, "AGENT_INACTIVE").await;
    assert_eq!(matching(&app, &profile, "").await["pagination"]["total"], 0, "inactive agents' listings do not match");
}
