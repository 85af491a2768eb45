//! OpenID Connect login against the real npm `oidc-provider` on loopback
//! (server/tests/oidc/provider.mjs, dev interactions: login form, then consent).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use server::domain::users::Role;

use crate::helpers::{PASSWORD, TestApp, TestOptions, assert_error};

fn location(r: &reqwest::Response, base: &str) -> String {
    let loc = r
        .headers()
        .get("location")
        .unwrap_or_else(|| panic!("no Location; status {}", r.status()))
        .to_str()
        .unwrap();
    if loc.starts_with("http") {
        loc.to_string()
    } else {
        format!("{base}{loc}")
    }
}

fn query_param(url: &str, key: &str) -> Option<String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}

/// Drives the browser side: our /redirect, the provider's login and consent pages, until the
/// provider redirects back to our callback. Returns the callback URL (not yet requested).
async fn authorize_at_provider(
    app: &TestApp,
    browser: &reqwest::Client,
    login: &str,
    abort: bool,
) -> String {
    let op = app.oidc.as_ref().unwrap();
    let r = browser
        .get(app.url("/api/auth/idp/redirect"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 302);
    let set_cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"),
        "{set_cookie}"
    );
    let mut url = location(&r, &op.issuer);
    assert!(url.starts_with(&format!("{}/auth?", op.issuer)), "{url}");
    assert_eq!(
        query_param(&url, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert!(query_param(&url, "code_challenge").is_some());
    assert!(query_param(&url, "state").is_some());
    assert!(query_param(&url, "nonce").is_some());
    assert!(query_param(&url, "scope").unwrap().contains("openid"));

    let callback_prefix = app.url("/api/auth/idp/callback");
    let mut logged_in = false;
    for _ in 0..12 {
        if url.starts_with(&callback_prefix) {
            return url;
        }
        let r = browser.get(&url).send().await.unwrap();
        if r.status().is_redirection() {
            url = location(&r, &op.issuer);
            continue;
        }
        assert_eq!(r.status(), 200, "unexpected page at {url}");
        // An interaction page: /interaction/<uid>.
        let path = url::Url::parse(&url).unwrap().path().to_string();
        assert!(path.starts_with("/interaction/"), "{url}");
        if abort {
            let r = browser
                .get(format!("{}{path}/abort", op.issuer))
                .send()
                .await
                .unwrap();
            url = location(&r, &op.issuer);
            continue;
        }
        let form: Vec<(&str, &str)> = if logged_in {
            vec![("prompt", "consent")]
        } else {
            vec![
                ("prompt", "login"),
                ("login", login),
                ("password", "irrelevant"),
            ]
        };
        logged_in = true;
        let r = browser
            .post(format!("{}{path}", op.issuer))
            .form(&form)
            .send()
            .await
            .unwrap();
        assert!(
            r.status().is_redirection(),
            "interaction POST gave {}",
            r.status()
        );
        url = location(&r, &op.issuer);
    }
    panic!("the provider never redirected back to the callback");
}

/// A fresh browser: its own cookie jar, no redirects followed.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .build()
        .unwrap()
}

/// Full login in a fresh browser: returns the frontend URL the callback redirected to.
async fn idp_login(app: &TestApp, login: &str) -> String {
    let b = browser();
    let callback = authorize_at_provider(app, &b, login, false).await;
    assert!(query_param(&callback, "code").is_some());
    let r = b.get(&callback).send().await.unwrap();
    assert_eq!(r.status(), 302);
    let front = location(&r, "");
    assert!(
        front.starts_with(&format!("{}/auth/idp/callback?", app.config.frontend_url)),
        "{front}"
    );
    // No JWT in the URL: one parameter, an opaque one-time code or an error code, never a token
    // (a JWT has dots; a random code may well contain "eyJ", so that is not the test).
    let pairs: Vec<_> = url::Url::parse(&front).unwrap().query_pairs().into_owned().collect();
    assert_eq!(pairs.len(), 1, "{front}");
    assert!(["code", "error"].contains(&pairs[0].0.as_str()), "{front}");
    assert!(!pairs[0].1.contains('.'), "{front}");
    front
}

async fn exchange(app: &TestApp, code: &str) -> reqwest::Response {
    app.post_json("/api/auth/idp/exchange", &json!({"code": code}))
        .await
}

#[tokio::test]
async fn idp_login_creates_then_reuses_the_account() {
    let app = TestApp::spawn_with(TestOptions {
        oidc: true,
        ..Default::default()
    })
    .await;
    let front = idp_login(&app, "carla").await;
    let code = query_param(&front, "code").expect("login code");
    let r = exchange(&app, &code).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    let token = body["data"]["token"].as_str().unwrap().to_string();
    assert_eq!(body["data"]["user"]["email"], "carla@example.test");
    assert_eq!(body["data"]["user"]["role"], "comprador");
    assert_eq!(body["data"]["user"]["firstName"], "Test");
    let me: Value = app
        .get_auth("/api/auth/me", &token)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["data"]["emailVerified"], true);
    let id = me["data"]["id"].as_str().unwrap().to_string();

    // The code is single use.
    assert_error(exchange(&app, &code).await, 400, "IDP_CODE_INVALID").await;
    assert_error(exchange(&app, "made-up").await, 400, "IDP_CODE_INVALID").await;

    // Logging in again with the same subject reaches the same account.
    let front = idp_login(&app, "carla").await;
    let body: Value = exchange(&app, &query_param(&front, "code").unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["data"]["user"]["id"], id);
    let links: Vec<(String,)> =
        sqlx::query_as("SELECT subject FROM user_identities WHERE user_id = $1")
            .bind(&id)
            .fetch_all(&app.db)
            .await
            .unwrap();
    assert_eq!(links.len(), 1);

    // An IdP-only account has no password: password login fails with the generic 401.
    let r = app
        .post_json(
            "/api/auth/login",
            &json!({"email": "carla@example.test", "password": PASSWORD}),
        )
        .await;
    assert_error(r, 401, "INVALID_CREDENTIALS").await;
}

#[tokio::test]
async fn idp_links_an_existing_account_by_verified_email() {
    let app = TestApp::spawn_with(TestOptions {
        oidc: true,
        ..Default::default()
    })
    .await;
    let local = app
        .create_user_with("dora@example.test", PASSWORD, Role::Broker, true)
        .await;
    let front = idp_login(&app, "x--dora@example.test").await;
    let body: Value = exchange(&app, &query_param(&front, "code").unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["data"]["user"]["id"], local.id);
    assert_eq!(body["data"]["user"]["role"], "broker");
}

#[tokio::test]
async fn idp_refuses_unverified_email_and_bad_state() {
    let app = TestApp::spawn_with(TestOptions {
        oidc: true,
        ..Default::default()
    })
    .await;
    // Unverified e-mail at the provider: no account is created or linked.
    let front = idp_login(&app, "unverified-eve").await;
    assert_eq!(
        query_param(&front, "error").as_deref(),
        Some("IDP_EMAIL_NOT_VERIFIED")
    );
    assert!(query_param(&front, "code").is_none());
    let n: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(n.0, 0);

    // The callback from another browser (no state cookie) is refused.
    let b = browser();
    let callback = authorize_at_provider(&app, &b, "frank", false).await;
    let stranger = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = stranger.get(&callback).send().await.unwrap();
    assert_eq!(r.status(), 302);
    assert_eq!(
        query_param(&location(&r, ""), "error").as_deref(),
        Some("IDP_STATE_INVALID")
    );
    // A tampered state is refused.
    let mut tampered = url::Url::parse(&callback).unwrap();
    let pairs: Vec<(String, String)> = tampered
        .query_pairs()
        .map(|(k, v)| {
            let forged = k == "state";
            (
                k.into_owned(),
                if forged {
                    "forged".to_string()
                } else {
                    v.into_owned()
                },
            )
        })
        .collect();
    tampered.query_pairs_mut().clear().extend_pairs(pairs);
    let r = b.get(tampered.as_str()).send().await.unwrap();
    assert_eq!(
        query_param(&location(&r, ""), "error").as_deref(),
        Some("IDP_STATE_INVALID")
    );

    // The flow is single use: replaying a completed callback fails.
    let b = browser();
    let callback = authorize_at_provider(&app, &b, "gina", false).await;
    let r = b.get(&callback).send().await.unwrap();
    let front = location(&r, "");
    assert!(query_param(&front, "code").is_some(), "{front}");
    let r = b.get(&callback).send().await.unwrap();
    assert_eq!(
        query_param(&location(&r, ""), "error").as_deref(),
        Some("IDP_STATE_INVALID")
    );

    // The user cancels at the provider.
    let b = browser();
    let callback = authorize_at_provider(&app, &b, "hugo", true).await;
    assert_eq!(
        query_param(&callback, "error").as_deref(),
        Some("access_denied")
    );
    let r = b.get(&callback).send().await.unwrap();
    assert_eq!(
        query_param(&location(&r, ""), "error").as_deref(),
        Some("IDP_DENIED")
    );
}

#[tokio::test]
async fn idp_endpoints_without_configuration() {
    let app = TestApp::spawn().await;
    assert_error(
        app.get("/api/auth/idp/redirect").await,
        404,
        "IDP_NOT_CONFIGURED",
    )
    .await;
    assert_error(
        app.get("/api/auth/idp/callback?code=a&state=b").await,
        404,
        "IDP_NOT_CONFIGURED",
    )
    .await;
    assert_error(exchange(&app, "whatever").await, 400, "IDP_CODE_INVALID").await;
}

#[tokio::test]
async fn idp_claims_from_userinfo_when_the_id_token_has_no_email() {
    let app = TestApp::spawn_with(TestOptions {
        oidc: true,
        oidc_userinfo_only: true,
        ..Default::default()
    })
    .await;
    let front = idp_login(&app, "ines").await;
    let code = query_param(&front, "code").unwrap_or_else(|| panic!("{front}"));
    let body: Value = exchange(&app, &code).await.json().await.unwrap();
    assert_eq!(body["data"]["user"]["email"], "ines@example.test");
    let front = idp_login(&app, "unverified-jon").await;
    assert_eq!(query_param(&front, "error").as_deref(), Some("IDP_EMAIL_NOT_VERIFIED"));
}
