//! Pagination and filters on a seeded data set of 10,000 agents (the `seed` subcommand's code).
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;

use serde_json::Value;
use server::seed::{self, CATEGORIES, CITIES, SeedOptions};

use crate::helpers::TestApp;

async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

fn total(v: &Value) -> i64 {
    v["data"]["pagination"]["total"].as_i64().unwrap()
}

#[tokio::test]
async fn ten_thousand_agents_paginate_and_filter() {
    let app = TestApp::spawn().await;
    let started = std::time::Instant::now();
    let s = seed::run(&app.db, "not-a-real-hash", &SeedOptions { agents: 10_000, seed: 7, ..Default::default() })
        .await
        .unwrap();
    eprintln!("seeded 10,000 agents in {:?}: {s:?}", started.elapsed());
    assert_eq!(s.agents, 10_000);
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM agent_profiles").fetch_one(&app.db).await.unwrap();
    assert_eq!(n, 10_000);
    let active = s.active_agents as i64;

    // The whole list: defaults, last page, limit 100.
    let v = get(&app, "/api/agents").await;
    assert_eq!(total(&v), active);
    assert_eq!(v["data"]["agents"].as_array().unwrap().len(), 10);
    assert_eq!(v["data"]["pagination"]["lastPage"], (active + 9) / 10);
    let last = (active + 99) / 100;
    let v = get(&app, &format!("/api/agents?limit=100&page={last}")).await;
    assert_eq!(v["data"]["agents"].as_array().unwrap().len() as i64, active - (last - 1) * 100);
    // Ordered by rating, highest first.
    let ratings: Vec<f64> = get(&app, "/api/agents?limit=100").await["data"]["agents"]
        .as_array().unwrap().iter().map(|a| a["rating"].as_f64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]));

    // Cities partition the active agents; accents and case do not matter.
    let mut sum = 0;
    for (city, _) in CITIES {
        let plain = server::db::sql::fold(city);
        let a = total(&get(&app, &format!("/api/agents?limit=1&city={}", url_encode(city))).await);
        let b = total(&get(&app, &format!("/api/agents?limit=1&city={}", url_encode(&plain.to_uppercase()))).await);
        assert_eq!(a, b, "{city}");
        sum += a;
    }
    assert_eq!(sum, active);
    let sum: i64 = {
        let mut t = 0;
        for c in CATEGORIES {
            t += total(&get(&app, &format!("/api/agents?limit=1&category={}", url_encode(&c.to_lowercase()))).await);
        }
        t
    };
    assert_eq!(sum, active);

    // Walk every page of one filter: no duplicates, nothing missing, every item matches.
    let q = "city=merida&category=residencial";
    let first = get(&app, &format!("/api/agents?{q}&limit=7")).await;
    let want = total(&first);
    assert!(want > 0);
    let mut seen = HashSet::new();
    for page in 1..=first["data"]["pagination"]["lastPage"].as_i64().unwrap() {
        let v = get(&app, &format!("/api/agents?{q}&limit=7&page={page}")).await;
        for a in v["data"]["agents"].as_array().unwrap() {
            assert_eq!(a["city"], "Mérida");
            assert_eq!(a["category"], "Residencial");
            assert_eq!(a["isActive"], true);
            assert!(seen.insert(a["id"].as_str().unwrap().to_string()));
        }
    }
    assert_eq!(seen.len() as i64, want);

    // Search: accent-insensitive on names; every hit contains the term.
    let a = get(&app, "/api/agents?search=NU%C3%91EZ&limit=100").await;
    let b = get(&app, "/api/agents?search=nunez&limit=100").await;
    assert_eq!(total(&a), total(&b));
    assert!(total(&a) > 0);
    for ag in a["data"]["agents"].as_array().unwrap() {
        let hay = server::db::sql::fold(&format!("{} {}", ag["name"].as_str().unwrap(), ag["company"].as_str().unwrap_or("")));
        assert!(hay.contains("nunez"), "{hay}");
    }

    // Properties: states partition them; price and operation filters agree with the DB.
    let all = total(&get(&app, "/api/properties?limit=1").await);
    assert_eq!(all, s.properties as i64);
    let mut sum = 0;
    for st in score_core::State::all() {
        sum += total(&get(&app, &format!("/api/properties?limit=1&estado={}", st.info().iso)).await);
    }
    assert_eq!(sum, all);
    let (db_n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM properties WHERE operation = 'rent' AND estado = 'JAL' AND price <= 20000")
        .fetch_one(&app.db).await.unwrap();
    assert_eq!(total(&get(&app, "/api/properties?limit=1&operation=rent&estado=jalisco&maxPrice=20000").await), db_n);

    // An agent with several properties: detail pages and counts agree.
    let (id, cnt): (String, i64) = sqlx::query_as(
        "SELECT agent_id, COUNT(*) AS c FROM properties GROUP BY agent_id ORDER BY c DESC, agent_id LIMIT 1",
    )
    .fetch_one(&app.db).await.unwrap();
    let d = get(&app, &format!("/api/agents/{id}?limit=2")).await;
    let pc = &d["data"]["propertiesCount"];
    assert_eq!(pc["total"], cnt);
    assert_eq!(pc["forSale"].as_i64().unwrap() + pc["forRent"].as_i64().unwrap(), cnt);
    assert_eq!(d["data"]["pagination"]["lastPage"], (cnt + 1) / 2);
    let sale = get(&app, &format!("/api/agents/{id}?type=sale&limit=100")).await;
    assert_eq!(sale["data"]["properties"].as_array().unwrap().len() as i64, pc["forSale"].as_i64().unwrap());
    assert_eq!(d["data"]["agent"]["reviewsCount"].as_i64().unwrap(), d["data"]["reviews"].as_array().unwrap().len() as i64);
}

fn url_encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
