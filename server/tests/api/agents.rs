//! The agents area end to end (issue 6): offices and co-admins, agent creation by the three
//! endpoints, assignment (rule 3), update and delete permissions, reviews, my-agency, and the
//! authorization matrix of every write endpoint against every kind of caller.
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use server::domain::users::Role;

use crate::helpers::{PASSWORD, TestApp, TestUser, assert_error};

/// The cast of the authorization matrix: office A (owner + co-admin + one agent), office B
/// (another owner), a buyer and the platform admin.
pub struct World {
    pub admin: TestUser,
    pub owner: TestUser,
    pub coadmin: TestUser,
    pub other: TestUser,
    pub buyer: TestUser,
    pub agent: TestUser,
    pub agent_id: String,
    pub office_a: String,
    pub office_b: String,
}

pub async fn body(r: reqwest::Response, status: u16) -> Value {
    let got = r.status().as_u16();
    let b: Value = r.json().await.unwrap();
    assert_eq!(got, status, "{b}");
    b
}

pub async fn create_office(app: &TestApp, owner: &TestUser, name: &str) -> String {
    let r = app
        .post_json_auth("/api/agencies", &json!({"name": name, "city": "Guadalajara"}), &owner.token)
        .await;
    body(r, 201).await["data"]["id"].as_str().unwrap().to_string()
}

pub fn agent_body(tag: &str) -> Value {
    json!({
        "firstName": "Lucía", "lastName": format!("Peña {tag}"),
        "email": format!("agent-{tag}-{}@example.test", uuid::Uuid::new_v4().simple()),
        "password": PASSWORD, "phone": "+52 33 1111 2222",
        "city": "Querétaro", "category": "Residencial", "company": "Casas del Bajío",
        "bio": "Diez años en el mercado.", "phone1": "3311112222", "officePhone": "3322223333",
        "website": "https://lucia.example.test", "memberSince": "2015-03-01",
        "socialMedia": {"instagram": "https://instagram.com/lucia", "linkedin": "https://linkedin.com/in/lucia"}
    })
}

/// Creates an agent in `office` through `POST /api/agencies/{id}/agents`; returns (agent id, body sent).
pub async fn create_agent(app: &TestApp, by: &TestUser, office: &str, tag: &str) -> (String, Value) {
    let b = agent_body(tag);
    let r = app.post_json_auth(&format!("/api/agencies/{office}/agents"), &b, &by.token).await;
    let out = body(r, 201).await;
    (out["data"]["id"].as_str().unwrap().to_string(), b)
}

pub async fn world(app: &TestApp) -> World {
    let admin = app.create_user(Role::Admin).await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let coadmin = app.create_user(Role::AgencyAdmin).await;
    let other = app.create_user(Role::AgencyAdmin).await;
    let buyer = app.create_user(Role::Comprador).await;
    let office_a = create_office(app, &owner, "Oficina A").await;
    let office_b = create_office(app, &other, "Oficina B").await;
    let r = app
        .post_json_auth(&format!("/api/agencies/{office_a}/admins"), &json!({"userId": coadmin.id}), &owner.token)
        .await;
    body(r, 201).await;
    let (agent_id, b) = create_agent(app, &owner, &office_a, "a").await;
    let email = b["email"].as_str().unwrap().to_string();
    let token = app.login(&email, PASSWORD).await;
    let r: Value = app.get_auth("/api/auth/me", &token).await.json().await.unwrap();
    let agent = TestUser {
        id: r["data"]["id"].as_str().unwrap().to_string(),
        email,
        password: PASSWORD.into(),
        role: Role::Agent,
        token,
    };
    World { admin, owner, coadmin, other, buyer, agent, agent_id, office_a, office_b }
}

async fn send(app: &TestApp, method: &str, path: &str, b: Option<&Value>, token: Option<&str>) -> reqwest::Response {
    let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = app.client.request(m, app.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = b {
        req = req.json(b);
    }
    req.send().await.unwrap()
}

/// Asserts the status of a call; errors must carry the envelope.
async fn expect(app: &TestApp, who: &str, method: &str, path: &str, b: Option<&Value>, token: Option<&str>, status: u16) -> Value {
    let r = send(app, method, path, b, token).await;
    let got = r.status().as_u16();
    let v: Value = r.json().await.unwrap_or(Value::Null);
    assert_eq!(got, status, "{who}: {method} {path} -> {v}");
    if status >= 400 {
        assert_eq!(v["success"], false, "{v}");
        assert!(v["code"].is_string(), "{v}");
    }
    v
}

#[tokio::test]
async fn authorization_matrix_of_every_write_endpoint() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    let a = &w.office_a;
    let b = &w.office_b;
    let anon: Option<&str> = None;
    let (adm, own, co, oth, buy, ag) = (
        Some(w.admin.token.as_str()),
        Some(w.owner.token.as_str()),
        Some(w.coadmin.token.as_str()),
        Some(w.other.token.as_str()),
        Some(w.buyer.token.as_str()),
        Some(w.agent.token.as_str()),
    );

    // POST /api/agencies: agency_admin or admin (a fresh agency_admin, so the cast keeps
    // exactly its offices).
    let office = json!({"name": "Nueva"});
    let fresh = app.create_user(Role::AgencyAdmin).await;
    let fresh = Some(fresh.token.as_str());
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("agency_admin", fresh, 201), ("admin", adm, 201)] {
        expect(&app, who, "POST", "/api/agencies", Some(&office), t, s).await;
    }
    // PUT /api/agencies/{A}: managers of A and the platform admin.
    let p = format!("/api/agencies/{a}");
    let upd = json!({"city": "Zapopan"});
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("other", oth, 403), ("owner", own, 200), ("co", co, 200), ("admin", adm, 200)] {
        expect(&app, who, "PUT", &p, Some(&upd), t, s).await;
    }
    // POST /api/agencies/{A}/admins: owner or platform admin only.
    let p = format!("/api/agencies/{a}/admins");
    let x1 = app.create_user(Role::AgencyAdmin).await;
    let x2 = app.create_user(Role::AgencyAdmin).await;
    let add1 = json!({"userId": x1.id});
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("co", co, 403), ("other", oth, 403), ("owner", own, 201)] {
        expect(&app, who, "POST", &p, Some(&add1), t, s).await;
    }
    expect(&app, "admin", "POST", &p, Some(&json!({"userId": x2.id})), adm, 201).await;
    expect(&app, "owner again", "POST", &p, Some(&add1), own, 409).await;
    expect(&app, "buyer as co-admin", "POST", &p, Some(&json!({"userId": w.buyer.id})), own, 422).await;
    // DELETE /api/agencies/{A}/admins/{user}: owner, platform admin, or the co-admin themself.
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("other", oth, 403), ("co (not self)", co, 403), ("owner", own, 200)] {
        expect(&app, who, "DELETE", &format!("{p}/{}", x1.id), None, t, s).await;
    }
    expect(&app, "admin", "DELETE", &format!("{p}/{}", x2.id), None, adm, 200).await;
    expect(&app, "gone", "DELETE", &format!("{p}/{}", x2.id), None, adm, 404).await;

    // The three creation endpoints.
    let mut n = 0;
    let mut next = || {
        n += 1;
        agent_body(&format!("m{n}"))
    };
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("admin", adm, 403), ("owner", own, 201), ("co", co, 201), ("other", oth, 201)] {
        let v = expect(&app, who, "POST", "/api/agencies/current/agents", Some(&next()), t, s).await;
        if s == 201 {
            let want = if who == "other" { b } else { a };
            assert_eq!(v["data"]["agencyId"], json!(want), "{who}: {v}");
        }
    }
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("other", oth, 403), ("owner", own, 201), ("co", co, 201), ("admin", adm, 201)] {
        let mut bd = next();
        bd["agencyId"] = json!(a);
        expect(&app, who, "POST", "/api/agents", Some(&bd), t, s).await;
    }
    let p = format!("/api/agencies/{a}/agents");
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("other", oth, 403), ("owner", own, 201), ("co", co, 201), ("admin", adm, 201)] {
        expect(&app, who, "POST", &p, Some(&next()), t, s).await;
    }

    // PUT /api/agents/{id}/assign-agency from A to B: only who manages both (platform admin).
    let p = format!("/api/agents/{}/assign-agency", w.agent_id);
    let to_b = json!({"agencyId": b});
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("owner", own, 403), ("co", co, 403), ("other", oth, 403), ("admin", adm, 200)] {
        expect(&app, who, "PUT", &p, Some(&to_b), t, s).await;
    }
    expect(&app, "admin back", "PUT", &p, Some(&json!({"agencyId": a})), adm, 200).await;

    // PUT /api/agents/{id}: managers of A, the platform admin, the agent itself (not isActive).
    let p = format!("/api/agents/{}", w.agent_id);
    let upd = json!({"bio": "Actualizada"});
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("other", oth, 403), ("agent", ag, 200), ("owner", own, 200), ("co", co, 200), ("admin", adm, 200)] {
        expect(&app, who, "PUT", &p, Some(&upd), t, s).await;
    }
    expect(&app, "agent isActive", "PUT", &p, Some(&json!({"isActive": false})), ag, 403).await;
    expect(&app, "agent externalId", "PUT", &p, Some(&json!({"externalId": "X"})), ag, 403).await;
    expect(&app, "owner isActive", "PUT", &p, Some(&json!({"isActive": true})), own, 200).await;

    // Properties: the agent, managers of its office, the platform admin.
    let prop = json!({"title": "Casa", "operation": "sale", "price": 2500000, "estado": "Jalisco", "city": "Guadalajara", "m2": 120, "agentId": w.agent_id});
    let mut props = Vec::new();
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("other", oth, 403), ("agent", ag, 201), ("owner", own, 201), ("co", co, 201), ("admin", adm, 201)] {
        let v = expect(&app, who, "POST", "/api/properties", Some(&prop), t, s).await;
        if s == 201 {
            props.push(v["data"]["id"].as_str().unwrap().to_string());
        }
    }
    let pp = format!("/api/properties/{}", props[0]);
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("other", oth, 403), ("agent", ag, 200), ("owner", own, 200), ("co", co, 200), ("admin", adm, 200)] {
        expect(&app, who, "PUT", &pp, Some(&json!({"price": 2400000})), t, s).await;
    }
    for (who, t) in [("anon", anon), ("buyer", buy), ("other", oth)] {
        expect(&app, who, "DELETE", &pp, None, t, if t.is_none() { 401 } else { 403 }).await;
    }
    for (i, (who, t)) in [("agent", ag), ("owner", own), ("co", co), ("admin", adm)].into_iter().enumerate() {
        expect(&app, who, "DELETE", &format!("/api/properties/{}", props[i]), None, t, 200).await;
    }

    // Reviews: any authenticated user but the agent itself.
    let p = format!("/api/agents/{}/reviews", w.agent_id);
    let rv = json!({"rating": 4, "comment": "Bien"});
    expect(&app, "anon", "POST", &p, Some(&rv), anon, 401).await;
    let v = expect(&app, "agent", "POST", &p, Some(&rv), ag, 403).await;
    assert_eq!(v["code"], "SELF_REVIEW");
    for (who, t) in [("buyer", buy), ("other", oth), ("owner", own), ("admin", adm)] {
        expect(&app, who, "POST", &p, Some(&rv), t, 201).await;
    }

    // GET /api/agencies/current/agents and GET /api/agent/my-agency.
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("owner", own, 200), ("co", co, 200), ("other", oth, 200), ("admin", adm, 200)] {
        expect(&app, who, "GET", "/api/agencies/current/agents", None, t, s).await;
    }
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("owner", own, 403), ("agent", ag, 200)] {
        expect(&app, who, "GET", "/api/agent/my-agency", None, t, s).await;
    }

    // DELETE /api/agents/{id}: managers of the office and the platform admin; not the agent.
    let p = format!("/api/agents/{}", w.agent_id);
    for (who, t, s) in [("anon", anon, 401), ("buyer", buy, 403), ("agent", ag, 403), ("other", oth, 403)] {
        expect(&app, who, "DELETE", &p, None, t, s).await;
    }
    for (who, t) in [("owner", own), ("co", co), ("admin", adm)] {
        let (id, _) = create_agent(&app, &w.owner, a, who).await;
        expect(&app, who, "DELETE", &format!("/api/agents/{id}"), None, t, 200).await;
        expect(&app, who, "GET", &format!("/api/agents/{id}"), None, None, 404).await;
    }
}

#[tokio::test]
async fn creation_returns_the_spec_shape_logs_in_at_once_and_sends_a_welcome_email() {
    let app = TestApp::spawn().await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let office = create_office(&app, &owner, "Casas del Bajío").await;
    let mut b = agent_body("shape");
    b["externalId"] = json!("EXT-001");
    let r = app.post_json_auth("/api/agencies/current/agents", &b, &owner.token).await;
    let v = body(r, 201).await;
    assert_eq!(v["status"], "success");
    assert!(v["message"].as_str().unwrap().len() > 3);
    let d = &v["data"];
    for k in ["id", "userId", "agencyId", "externalId", "city", "category", "isActive", "user", "agency"] {
        assert!(d.get(k).is_some(), "missing {k}: {d}");
    }
    assert_eq!(d["agencyId"], json!(office));
    assert_eq!(d["externalId"], "EXT-001");
    assert_eq!(d["isActive"], true);
    assert_eq!(d["user"]["role"], "agent");
    assert_eq!(d["user"]["email"], b["email"]);
    assert_eq!(d["agency"], json!({"id": office, "name": "Casas del Bajío"}));
    assert!(d["user"].get("password").is_none());
    // Log in at once, and the welcome e-mail arrives.
    let email = b["email"].as_str().unwrap();
    let token = app.login(email, PASSWORD).await;
    let mine = body(app.get_auth("/api/agent/my-agency", &token).await, 200).await;
    assert_eq!(mine["status"], "success");
    assert_eq!(mine["data"]["id"], json!(office));
    assert_eq!(mine["data"]["name"], "Casas del Bajío");
    let mail = app.wait_for_email(email, "Bienvenido").await;
    assert!(mail.text.contains("Casas del Bajío"), "{}", mail.text);
    assert!(!mail.text.contains(PASSWORD));

    // Detail: the agent object of spec 2.2.
    let id = d["id"].as_str().unwrap();
    let det = body(app.get(&format!("/api/agents/{id}")).await, 200).await;
    assert_eq!(det["success"], true);
    let a = &det["data"]["agent"];
    for k in ["id", "externalId", "city", "category", "company", "bio", "rating", "reviewsCount", "website", "socialMedia", "isActive", "user", "agency"] {
        assert!(a.get(k).is_some(), "missing {k}: {a}");
    }
    assert_eq!(a["user"]["firstName"], "Lucía");
    assert_eq!(a["user"]["email"], b["email"]);
    assert_eq!(a["agency"]["id"], json!(office));
    assert_eq!(a["socialMedia"]["instagram"], "https://instagram.com/lucia");
    assert_eq!(a["memberSince"], "2015-03-01");
    assert_eq!(det["data"]["propertiesCount"], json!({"total": 0, "forSale": 0, "forRent": 0}));
    assert_eq!(det["data"]["reviews"], json!([]));

    // The user and the profile exist together or not at all.
    let (users,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE role = 'agent'").fetch_one(&app.db).await.unwrap();
    let (profiles,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM agent_profiles").fetch_one(&app.db).await.unwrap();
    assert_eq!((users, profiles), (1, 1));
    // A repeated externalId fails and leaves no user behind (one transaction).
    let mut b2 = agent_body("dup");
    b2["externalId"] = json!("EXT-001");
    let r = app.post_json_auth("/api/agencies/current/agents", &b2, &owner.token).await;
    assert_error(r, 400, "EXTERNAL_ID_ALREADY_EXISTS").await;
    let r = app.post_json_auth("/api/agencies/current/agents", &b, &owner.token).await;
    assert_error(r, 400, "EMAIL_ALREADY_EXISTS").await;
    // Any registered e-mail, whatever its role, and in any case.
    let mut b3 = agent_body("buyer");
    b3["email"] = json!(owner.email.to_uppercase());
    let r = app.post_json_auth("/api/agencies/current/agents", &b3, &owner.token).await;
    assert_error(r, 400, "EMAIL_ALREADY_EXISTS").await;
    let (users2,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE role = 'agent'").fetch_one(&app.db).await.unwrap();
    assert_eq!(users2, 1);
    // Validation.
    let mut bad = agent_body("bad");
    bad["password"] = json!("short");
    let r = app.post_json_auth("/api/agencies/current/agents", &bad, &owner.token).await;
    assert_eq!(r.status(), 422);
    let mut bad = agent_body("bad2");
    bad["memberSince"] = json!("2015-02-30");
    let r = app.post_json_auth("/api/agencies/current/agents", &bad, &owner.token).await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    // externalId changes by update, and must stay unique.
    let (id2, _) = create_agent(&app, &owner, &office, "second").await;
    let r = app.put_json_auth(&format!("/api/agents/{id2}"), &json!({"externalId": "EXT-001"}), &owner.token).await;
    assert_error(r, 400, "EXTERNAL_ID_ALREADY_EXISTS").await;
    let r = app.put_json_auth(&format!("/api/agents/{id2}"), &json!({"externalId": "EXT-002", "firstName": "Ramón"}), &owner.token).await;
    let v = body(r, 200).await;
    assert_eq!(v["data"]["externalId"], "EXT-002");
    assert_eq!(v["data"]["user"]["firstName"], "Ramón");
    let r = app.put_json_auth(&format!("/api/agents/{id2}"), &json!({"agencyId": null}), &owner.token).await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
}

#[tokio::test]
async fn current_office_resolution() {
    let app = TestApp::spawn().await;
    let lonely = app.create_user(Role::AgencyAdmin).await;
    let r = app.post_json_auth("/api/agencies/current/agents", &agent_body("x"), &lonely.token).await;
    assert_error(r, 403, "NO_AGENCY").await;
    let multi = app.create_user(Role::AgencyAdmin).await;
    let o1 = create_office(&app, &multi, "Uno").await;
    let o2 = create_office(&app, &multi, "Dos").await;
    let r = app.post_json_auth("/api/agencies/current/agents", &agent_body("y"), &multi.token).await;
    let v = assert_error(r, 409, "AGENCY_AMBIGUOUS").await;
    let mut got: Vec<String> = serde_json::from_value(v["agencyIds"].clone()).unwrap();
    got.sort();
    let mut want = vec![o1.clone(), o2.clone()];
    want.sort();
    assert_eq!(got, want);
    // Listing `current` means every managed office.
    create_agent(&app, &multi, &o1, "one").await;
    create_agent(&app, &multi, &o2, "two").await;
    let v = body(app.get_auth("/api/agencies/current/agents", &multi.token).await, 200).await;
    assert_eq!(v["data"]["pagination"]["total"], 2);
    assert_eq!(v["data"]["agents"][0]["propertiesCount"], 0);
    let v = body(app.get_auth("/api/agencies/current/agents", &lonely.token).await, 200).await;
    assert_eq!(v["data"]["pagination"]["total"], 0);
}

#[tokio::test]
async fn assignment_follows_rule_3() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    let admin = &w.admin;
    // The co-admin also co-administers office C: moving A -> C is allowed for them, A -> B not.
    let owner_c = app.create_user(Role::AgencyAdmin).await;
    let c = create_office(&app, &owner_c, "Oficina C").await;
    body(app.post_json_auth(&format!("/api/agencies/{c}/admins"), &json!({"userId": w.coadmin.id}), &owner_c.token).await, 201).await;
    let p = format!("/api/agents/{}/assign-agency", w.agent_id);
    let r = app.put_json_auth(&p, &json!({"agencyId": w.office_b}), &w.coadmin.token).await;
    assert_error(r, 403, "FORBIDDEN").await;
    let v = body(app.put_json_auth(&p, &json!({"agencyId": c}), &w.coadmin.token).await, 200).await;
    assert_eq!(v["success"], true);
    assert_eq!(v["data"]["agencyId"], json!(c));
    assert_eq!(v["data"]["agency"]["name"], "Oficina C");
    // The owner of A no longer manages the agent (it is in C).
    let r = app.put_json_auth(&p, &json!({"agencyId": w.office_a}), &w.owner.token).await;
    assert_error(r, 403, "FORBIDDEN").await;
    let r = app.put_json_auth(&format!("/api/agents/{}", w.agent_id), &json!({"bio": "x"}), &w.owner.token).await;
    assert_error(r, 403, "FORBIDDEN").await;
    // Unassign (null) by a manager of C, then any manager may claim it for their office.
    let v = body(app.put_json_auth(&p, &json!({"agencyId": null}), &owner_c.token).await, 200).await;
    assert_eq!(v["data"]["agencyId"], Value::Null);
    assert_eq!(v["data"]["agency"], Value::Null);
    let r = app.put_json_auth(&p, &json!({}), &owner_c.token).await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    // Unassigned: only the platform admin manages it.
    let r = app.put_json_auth(&format!("/api/agents/{}", w.agent_id), &json!({"bio": "x"}), &owner_c.token).await;
    assert_error(r, 403, "FORBIDDEN").await;
    let r = app.get_auth("/api/agent/my-agency", &w.agent.token).await;
    assert_error(r, 404, "NO_AGENCY").await;
    body(app.put_json_auth(&p, &json!({"agencyId": w.office_b}), &w.other.token).await, 200).await;
    let r = app.put_json_auth(&p, &json!({"agencyId": "00000000-0000-0000-0000-000000000000"}), &admin.token).await;
    assert_error(r, 404, "AGENCY_NOT_FOUND").await;
    let r = app.put_json_auth("/api/agents/nope/assign-agency", &json!({"agencyId": null}), &admin.token).await;
    assert_error(r, 404, "AGENT_NOT_FOUND").await;
    let v = body(app.get_auth("/api/agent/my-agency", &w.agent.token).await, 200).await;
    assert_eq!(v["data"]["id"], json!(w.office_b));
    // POST /api/agents with an office the caller does not manage: 403; without: unassigned.
    let mut b = agent_body("r2");
    b["agencyId"] = json!(w.office_b);
    assert_error(app.post_json_auth("/api/agents", &b, &w.owner.token).await, 403, "FORBIDDEN").await;
    let v = body(app.post_json_auth("/api/agents", &agent_body("r3"), &w.owner.token).await, 201).await;
    assert_eq!(v["data"]["agencyId"], Value::Null);
    assert_eq!(v["data"]["agency"], Value::Null);
}

#[tokio::test]
async fn delete_keeps_properties_and_recomputes_ratings() {
    let app = TestApp::spawn().await;
    let w = world(&app).await;
    let (other_agent, ob) = create_agent(&app, &w.owner, &w.office_a, "rev").await;
    let other_token = app.login(ob["email"].as_str().unwrap(), PASSWORD).await;
    for op in ["sale", "rent", "sale"] {
        let prop = json!({"title": "Depto", "operation": op, "price": 15000, "estado": "CMX", "city": "Ciudad de México", "m2": 60});
        body(app.post_json_auth("/api/properties", &prop, &w.agent.token).await, 201).await;
    }
    // Reviews: one per user, the second updates; rating is the average.
    let rp = format!("/api/agents/{}/reviews", w.agent_id);
    body(app.post_json_auth(&rp, &json!({"rating": 5}), &w.buyer.token).await, 201).await;
    let v = body(app.post_json_auth(&rp, &json!({"rating": 2, "comment": "Regular"}), &w.buyer.token).await, 200).await;
    assert_eq!(v["data"]["agent"]["reviewsCount"], 1);
    assert_eq!(v["data"]["agent"]["rating"], 2.0);
    let v = body(app.post_json_auth(&rp, &json!({"rating": 5}), &other_token).await, 201).await;
    assert_eq!(v["data"]["agent"]["reviewsCount"], 2);
    assert_eq!(v["data"]["agent"]["rating"], 3.5);
    assert_error(app.post_json_auth(&rp, &json!({"rating": 6}), &w.buyer.token).await, 422, "VALIDATION_ERROR").await;
    assert_error(app.post_json_auth(&rp, &json!({"rating": 0}), &w.buyer.token).await, 422, "VALIDATION_ERROR").await;
    // The reviewed agent reviews the other agent, then is deleted.
    body(app.post_json_auth(&format!("/api/agents/{other_agent}/reviews"), &json!({"rating": 1}), &w.agent.token).await, 201).await;
    let det = body(app.get(&format!("/api/agents/{}?type=sale", w.agent_id)).await, 200).await;
    assert_eq!(det["data"]["propertiesCount"], json!({"total": 3, "forSale": 2, "forRent": 1}));
    assert_eq!(det["data"]["properties"].as_array().unwrap().len(), 2);
    assert_eq!(det["data"]["pagination"]["total"], 2);
    assert_eq!(det["data"]["reviews"].as_array().unwrap().len(), 2);
    assert_eq!(det["data"]["agent"]["rating"], 3.5);
    assert_eq!(det["data"]["agent"]["reviewsCount"], 2);
    let v = body(app.delete_auth(&format!("/api/agents/{}", w.agent_id), &w.coadmin.token).await, 200).await;
    assert_eq!(v["data"]["propertiesKept"], 3);
    let (kept,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM properties WHERE agent_id IS NULL").fetch_one(&app.db).await.unwrap();
    assert_eq!(kept, 3);
    let list = body(app.get("/api/properties?operation=sale").await, 200).await;
    assert_eq!(list["data"]["pagination"]["total"], 2);
    assert_eq!(list["data"]["properties"][0]["agentId"], Value::Null);
    // The deleted agent's account is gone (token rejected), and its review of the other
    // agent no longer counts.
    assert_eq!(app.get_auth("/api/auth/me", &w.agent.token).await.status(), 401);
    let det = body(app.get(&format!("/api/agents/{other_agent}")).await, 200).await;
    assert_eq!(det["data"]["agent"]["reviewsCount"], 0);
    assert_eq!(det["data"]["agent"]["rating"], 0.0);
    // Orphan properties: platform admin only.
    let pid = list["data"]["properties"][0]["id"].as_str().unwrap();
    assert_error(app.put_json_auth(&format!("/api/properties/{pid}"), &json!({"price": 1}), &w.owner.token).await, 403, "FORBIDDEN").await;
    let v = body(app.put_json_auth(&format!("/api/properties/{pid}"), &json!({"agentId": other_agent}), &w.admin.token).await, 200).await;
    assert_eq!(v["data"]["agentId"], json!(other_agent));
}

#[tokio::test]
async fn concurrent_duplicate_creations_exactly_one_succeeds() {
    let app = TestApp::spawn().await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let office = create_office(&app, &owner, "Concurrente").await;
    let path = format!("/api/agencies/{office}/agents");
    for round in 0..3 {
        // Same externalId, different e-mails.
        let ext = format!("EXT-RACE-{round}");
        let futs = (0..8).map(|i| {
            let mut b = agent_body(&format!("race{round}-{i}"));
            b["externalId"] = json!(ext);
            let (app, path, token) = (&app, path.clone(), owner.token.clone());
            async move { app.post_json_auth(&path, &b, &token).await }
        });
        let results = futures_join(futs).await;
        let mut ok = 0;
        for r in results {
            match r.status().as_u16() {
                201 => ok += 1,
                _ => {
                    assert_error(r, 400, "EXTERNAL_ID_ALREADY_EXISTS").await;
                }
            }
        }
        assert_eq!(ok, 1, "externalId round {round}");
        // Same e-mail, no externalId.
        let email = format!("same-{round}@example.test");
        let futs = (0..8).map(|i| {
            let mut b = agent_body(&format!("mail{round}-{i}"));
            b["email"] = json!(email);
            let (app, path, token) = (&app, path.clone(), owner.token.clone());
            async move { app.post_json_auth(&path, &b, &token).await }
        });
        let mut ok = 0;
        for r in futures_join(futs).await {
            match r.status().as_u16() {
                201 => ok += 1,
                _ => {
                    assert_error(r, 400, "EMAIL_ALREADY_EXISTS").await;
                }
            }
        }
        assert_eq!(ok, 1, "e-mail round {round}");
    }
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM agent_profiles").fetch_one(&app.db).await.unwrap();
    let (u,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE role = 'agent'").fetch_one(&app.db).await.unwrap();
    assert_eq!((n, u), (6, 6));
}

/// Runs the futures concurrently on the current task.
pub async fn futures_join<F, T>(futs: impl IntoIterator<Item = F>) -> Vec<T>
where
    F: std::future::Future<Output = T>,
{
    let mut set = Vec::new();
    for f in futs {
        set.push(Box::pin(f));
    }
    let mut out: Vec<Option<T>> = (0..set.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (i, f) in set.iter_mut().enumerate() {
            if out[i].is_none() {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => out[i] = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending { std::task::Poll::Pending } else { std::task::Poll::Ready(()) }
    })
    .await;
    out.into_iter().map(Option::unwrap).collect()
}

#[tokio::test]
async fn list_filters_pagination_and_property_filters() {
    let app = TestApp::spawn().await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let office = create_office(&app, &owner, "Filtros").await;
    let specs = [
        ("Ángel", "Núñez", "Querétaro", "Residencial", "Inmobiliaria Peñón"),
        ("Beatriz", "López", "Monterrey", "Comercial", "Casas Norte"),
        ("Carlos", "Ibáñez", "QUERETARO", "comercial", "Bienes del Centro"),
        ("Dolores", "Pérez", "Mérida", "Industrial", "Naves Yucatán"),
        ("Ernesto", "Salas", "Querétaro", "Residencial", "Peñón Homes"),
    ];
    let mut ids = Vec::new();
    for (i, (f, l, c, cat, comp)) in specs.iter().enumerate() {
        let mut b = agent_body(&format!("f{i}"));
        b["firstName"] = json!(f);
        b["lastName"] = json!(l);
        b["city"] = json!(c);
        b["category"] = json!(cat);
        b["company"] = json!(comp);
        let v = body(app.post_json_auth(&format!("/api/agencies/{office}/agents"), &b, &owner.token).await, 201).await;
        ids.push(v["data"]["id"].as_str().unwrap().to_string());
    }
    // One inactive agent: out of the public list, detail still public.
    body(app.put_json_auth(&format!("/api/agents/{}", ids[4]), &json!({"isActive": false}), &owner.token).await, 200).await;
    let total = |v: &Value| v["data"]["pagination"]["total"].as_i64().unwrap();
    let v = body(app.get("/api/agents").await, 200).await;
    assert_eq!(v["success"], true);
    assert_eq!(total(&v), 4);
    assert_eq!(v["data"]["pagination"], json!({"total": 4, "perPage": 10, "currentPage": 1, "lastPage": 1}));
    let item = &v["data"]["agents"][0];
    for k in ["id", "name", "email", "phone", "image", "externalId", "city", "company", "category", "rating", "propertiesCount", "isActive", "userId", "type"] {
        assert!(item.get(k).is_some(), "missing {k}: {item}");
    }
    assert_eq!(item["type"], "agency");
    assert_eq!(v["data"]["agencies"].as_array().unwrap().len(), 1);
    assert_eq!(v["data"]["agencies"][0]["id"], json!(office));
    for (q, n) in [
        ("city=queretaro", 2),
        ("city=QUER%C3%89TARO", 2),
        ("city=merida", 1),
        ("category=COMERCIAL", 2),
        ("city=Quer%C3%A9taro&category=residencial", 1),
        ("search=penon", 1),
        ("search=NU%C3%91EZ", 1),
        ("search=ibanez", 1),
        ("search=casas", 1),
        ("search=zzz", 0),
        ("search=%25", 0),
        ("search=", 4),
    ] {
        let v = body(app.get(&format!("/api/agents?{q}")).await, 200).await;
        assert_eq!(total(&v), n, "{q}: {v}");
    }
    assert_eq!(body(app.get(&format!("/api/agents/{}", ids[4])).await, 200).await["data"]["agent"]["isActive"], false);
    // Pagination.
    let v = body(app.get("/api/agents?limit=3&page=2").await, 200).await;
    assert_eq!(v["data"]["pagination"], json!({"total": 4, "perPage": 3, "currentPage": 2, "lastPage": 2}));
    assert_eq!(v["data"]["agents"].as_array().unwrap().len(), 1);
    let v = body(app.get("/api/agents?page=9").await, 200).await;
    assert_eq!(v["data"]["agents"], json!([]));
    for q in ["limit=101", "limit=0", "page=0", "page=-1"] {
        assert_error(app.get(&format!("/api/agents?{q}")).await, 400, "INVALID_PAGINATION").await;
    }
    assert_error(app.get("/api/agents?limit=abc").await, 400, "INVALID_QUERY").await;
    assert_error(app.get(&format!("/api/agents/{}?type=lease", ids[0])).await, 400, "INVALID_QUERY").await;
    body(app.get("/api/agents?limit=100").await, 200).await;

    // Properties and their filters.
    let t = |title: &str, op: &str, price: f64, estado: &str, city: &str, m2: f64, agent: &str| {
        json!({"title": title, "operation": op, "price": price, "estado": estado, "city": city, "m2": m2, "bedrooms": 2, "bathrooms": 1, "images": ["https://img.example.test/1.jpg"], "agentId": agent})
    };
    let rows = [
        t("A", "sale", 2_000_000.0, "Querétaro", "Querétaro", 90.0, &ids[0]),
        t("B", "sale", 5_000_000.0, "QUE", "Querétaro", 200.0, &ids[0]),
        t("C", "rent", 15_000.0, "MX-QUE", "Querétaro", 70.0, &ids[2]),
        t("D", "sale", 3_500_000.0, "19", "Monterrey", 150.0, &ids[1]),
        t("E", "rent", 9_000.0, "yucatan", "Mérida", 55.0, &ids[3]),
    ];
    for r in &rows {
        let v = body(app.post_json_auth("/api/properties", r, &owner.token).await, 201).await;
        assert!(["QUE", "NLE", "YUC"].contains(&v["data"]["estado"].as_str().unwrap()), "{v}");
    }
    let total_p = |v: &Value| v["data"]["pagination"]["total"].as_i64().unwrap();
    for (q, n) in [
        ("", 5),
        ("operation=sale", 3),
        ("operation=rent", 2),
        ("estado=QUE", 3),
        ("estado=quer%C3%A9taro", 3),
        ("estado=Nuevo%20Le%C3%B3n", 1),
        ("city=merida", 1),
        ("minPrice=3000000", 2),
        ("maxPrice=15000", 2),
        ("minPrice=10000&maxPrice=3500000", 3),
        ("minM2=100", 2),
        ("maxM2=70&operation=rent", 2),
        ("estado=QUE&operation=sale&minM2=100", 1),
        (&format!("agentId={}", ids[0]), 2),
    ] {
        let v = body(app.get(&format!("/api/properties?{q}")).await, 200).await;
        assert_eq!(total_p(&v), n, "{q}: {v}");
    }
    assert_error(app.get("/api/properties?estado=Atlantis").await, 400, "INVALID_QUERY").await;
    assert_error(app.get("/api/properties?operation=lease").await, 400, "INVALID_QUERY").await;
    assert_error(app.get("/api/properties?minPrice=abc").await, 400, "INVALID_QUERY").await;
    let mut bad = rows[0].clone();
    bad["estado"] = json!("Atlantis");
    let v = assert_error(app.post_json_auth("/api/properties", &bad, &owner.token).await, 422, "VALIDATION_ERROR").await;
    assert_eq!(v["field"], "estado");
    let mut bad = rows[0].clone();
    bad["price"] = json!(-1);
    assert_error(app.post_json_auth("/api/properties", &bad, &owner.token).await, 422, "VALIDATION_ERROR").await;
    let v = body(app.get("/api/properties?estado=QUE&limit=2").await, 200).await;
    assert_eq!(v["data"]["pagination"]["lastPage"], 2);
    let p = &v["data"]["properties"][0];
    for k in ["id", "title", "description", "operation", "price", "estado", "city", "m2", "bedrooms", "bathrooms", "images", "agentId", "createdAt"] {
        assert!(p.get(k).is_some(), "missing {k}: {p}");
    }
    // propertiesCount in the list.
    let v = body(app.get("/api/agents?search=angel").await, 200).await;
    assert_eq!(v["data"]["agents"][0]["propertiesCount"], 2);
}

#[tokio::test]
async fn renaming_through_the_profile_keeps_search_in_step() {
    let app = TestApp::spawn().await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let office = create_office(&app, &owner, "Renombrar").await;
    let (_, b) = create_agent(&app, &owner, &office, "ren").await;
    let token = app.login(b["email"].as_str().unwrap(), PASSWORD).await;
    assert_eq!(body(app.get("/api/agents?search=zoe").await, 200).await["data"]["pagination"]["total"], 0);
    body(app.put_json_auth("/api/auth/profile", &json!({"firstName": "Zoé"}), &token).await, 200).await;
    assert_eq!(body(app.get("/api/agents?search=zoe").await, 200).await["data"]["pagination"]["total"], 1);
}

#[tokio::test]
async fn the_managed_agents_list_names_every_managed_office_even_one_without_agents() {
    let app = TestApp::spawn().await;
    let owner = app.create_user(Role::AgencyAdmin).await;
    let stranger = app.create_user(Role::AgencyAdmin).await;
    let empty = create_office(&app, &owner, "Oficina Nueva").await;
    let theirs = create_office(&app, &stranger, "Oficina Ajena").await;
    let v = body(app.get_auth("/api/agencies/current/agents", &owner.token).await, 200).await;
    assert_eq!(v["data"]["agents"], json!([]));
    assert_eq!(v["data"]["agencies"], json!([]));
    let managed: Vec<&str> =
        v["data"]["managedAgencies"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(managed, vec![empty.as_str()], "only the caller's office, agents or not");
    assert!(!managed.contains(&theirs.as_str()));
}
