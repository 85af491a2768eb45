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
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}
