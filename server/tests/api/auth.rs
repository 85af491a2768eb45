//! Accounts and authentication, end to end (spec 3, 4.1, 5, 7).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use server::domain::users::Role;

use crate::helpers::{PASSWORD, TestApp, TestOptions, assert_error};

const TERMS: &str = "Debes aceptar los Términos y Condiciones y el Aviso de Privacidad";

fn register_body(email: &str) -> Value {
    json!({
        "firstName": "Ana",
        "lastName": "García",
        "email": email,
        "password": PASSWORD,
        "phone": "+52 55 1234 5678",
        "role": "comprador",
        "acceptedTerms": true
    })
}

fn unique_email(prefix: &str) -> String {
    format!("{prefix}-{}@example.test", uuid::Uuid::new_v4().simple())
}

async fn register_and_get_token(app: &TestApp, email: &str) -> String {
    let r = app
        .post_json("/api/auth/register", &register_body(email))
        .await;
    assert_eq!(r.status(), 201);
    app.wait_for_email(email, "Verifica").await.token()
}

#[tokio::test]
async fn full_account_journey_over_smtp() {
    let app = TestApp::spawn_with(TestOptions {
        smtp: true,
        ..Default::default()
    })
    .await;
    let email = unique_email("ana");

    // Register: 201, listed fields at the top level, no token.
    let r = app
        .post_json("/api/auth/register", &register_body(&email.to_uppercase()))
        .await;
    assert_eq!(r.status(), 201);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    assert!(body["message"].as_str().unwrap().len() > 5);
    assert_eq!(body["requiresEmailVerification"], true);
    assert_eq!(body["emailSent"], true);
    assert_eq!(body["email"], email);
    assert_eq!(body["redirectToLogin"], true);
    assert!(body.get("token").is_none() && body.get("data").is_none());

    // Pending account cannot log in: 403 with requiresEmailVerification.
    let r = app
        .post_json(
            "/api/auth/login",
            &json!({"email": email, "password": PASSWORD}),
        )
        .await;
    let err = assert_error(r, 403, "EMAIL_NOT_VERIFIED").await;
    assert_eq!(err["requiresEmailVerification"], true);

    // The verification e-mail arrives over SMTP with a frontend link carrying ?token=.
    let mail = app.wait_for_email(&email, "Verifica tu correo").await;
    let link = mail.link();
    assert!(
        link.starts_with(&format!("{}/verify-email?token=", app.config.frontend_url)),
        "{link}"
    );
    assert!(mail.html.contains("Verificar mi correo"));
    let token = mail.token();
    assert_eq!(token.len(), 43, "256-bit token, base64url");

    // The same token works on GET /api/auth/verify-email.
    let r = app
        .get(&format!("/api/auth/verify-email?token={token}"))
        .await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    assert!(body["message"].is_string());
    let user = &body["user"];
    assert_eq!(user["email"], email);
    assert_eq!(user["firstName"], "Ana");
    assert_eq!(user["lastName"], "García");
    assert_eq!(user["role"], "comprador");
    assert_eq!(user["status"], "active");
    assert_eq!(user["emailVerified"], true);
    assert!(user["id"].is_string());

    // Login: {status, data: {token, user {id, firstName, lastName, email, role}}}.
    let r = app
        .post_json(
            "/api/auth/login",
            &json!({"email": email, "password": PASSWORD}),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    let token = body["data"]["token"].as_str().unwrap().to_string();
    assert_eq!(body["data"]["user"]["email"], email);
    assert_eq!(body["data"]["user"]["role"], "comprador");
    assert!(body["data"]["user"].get("password").is_none());

    // Me.
    let r = app.get_auth("/api/auth/me", &token).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    let me = &body["data"];
    for key in [
        "id",
        "firstName",
        "lastName",
        "email",
        "role",
        "phone",
        "createdAt",
    ] {
        assert!(me.get(key).is_some(), "me lacks {key}: {me}");
    }
    assert_eq!(me["phone"], "+52 55 1234 5678");
    assert!(me["createdAt"].as_str().unwrap().ends_with('Z'));
    assert!(me.get("passwordHash").is_none() && me.get("password_hash").is_none());

    // Profile update.
    let r = app
        .put_json_auth(
            "/api/auth/profile",
            &json!({"firstName": "Ana María", "companyName": "Casas SA"}),
            &token,
        )
        .await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["data"]["firstName"], "Ana María");
    assert_eq!(body["data"]["companyName"], "Casas SA");
    assert_eq!(body["data"]["lastName"], "García");

    // Logout revokes the token at once.
    let r = app
        .post_json_auth("/api/auth/logout", &json!({}), &token)
        .await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], "success");
    assert!(body["message"].is_string());
    assert_error(
        app.get_auth("/api/auth/me", &token).await,
        401,
        "TOKEN_INVALID",
    )
    .await;

    // Forgot / reset password.
    let session = app.login(&email, PASSWORD).await;
    let r = app
        .post_json("/api/auth/forgot-password", &json!({"email": email}))
        .await;
    assert_eq!(r.status(), 200);
    let mail = app.wait_for_email(&email, "Restablece").await;
    assert!(mail.link().starts_with(&format!(
        "{}/reset-password?token=",
        app.config.frontend_url
    )));
    let reset = mail.token();
    let new_password = "another long passphrase 42";
    let r = app
        .post_json(
            "/api/auth/reset-password",
            &json!({"token": reset, "password": new_password}),
        )
        .await;
    assert_eq!(r.status(), 200);
    // The reset revoked every session.
    assert_error(
        app.get_auth("/api/auth/me", &session).await,
        401,
        "TOKEN_INVALID",
    )
    .await;
    // Reusing the reset token fails.
    let r = app
        .post_json(
            "/api/auth/reset-password",
            &json!({"token": reset, "password": "yet another passphrase"}),
        )
        .await;
    assert_error(r, 400, "RESET_TOKEN_INVALID").await;
    // Old password no longer works, new one does.
    let r = app
        .post_json(
            "/api/auth/login",
            &json!({"email": email, "password": PASSWORD}),
        )
        .await;
    assert_error(r, 401, "INVALID_CREDENTIALS").await;
    let token = app.login(&email, new_password).await;
    assert_eq!(app.get_auth("/api/auth/me", &token).await.status(), 200);
}

#[tokio::test]
async fn register_requires_accepted_terms() {
    let app = TestApp::spawn().await;
    for terms in [None, Some(false)] {
        let mut body = register_body(&unique_email("t"));
        match terms {
            None => {
                body.as_object_mut().unwrap().remove("acceptedTerms");
            }
            Some(v) => body["acceptedTerms"] = json!(v),
        }
        let r = app.post_json("/api/auth/register", &body).await;
        let err = assert_error(r, 422, "TERMS_NOT_ACCEPTED").await;
        assert_eq!(err["message"], TERMS);
    }
}

#[tokio::test]
async fn register_validates_fields_and_refuses_admin_and_mass_assignment() {
    let app = TestApp::spawn().await;
    let mut body = register_body(&unique_email("r"));
    body["role"] = json!("admin");
    assert_error(
        app.post_json("/api/auth/register", &body).await,
        422,
        "INVALID_ROLE",
    )
    .await;
    body["role"] = json!("superuser");
    assert_error(
        app.post_json("/api/auth/register", &body).await,
        422,
        "INVALID_ROLE",
    )
    .await;
    body["role"] = json!("broker");
    body["password"] = json!("short");
    let err = assert_error(
        app.post_json("/api/auth/register", &body).await,
        422,
        "VALIDATION_ERROR",
    )
    .await;
    assert_eq!(err["field"], "password");
    body["password"] = json!("x".repeat(129));
    assert_error(
        app.post_json("/api/auth/register", &body).await,
        422,
        "VALIDATION_ERROR",
    )
    .await;
    body["password"] = json!(PASSWORD);
    body["email"] = json!("not-an-email");
    let err = assert_error(
        app.post_json("/api/auth/register", &body).await,
        422,
        "VALIDATION_ERROR",
    )
    .await;
    assert_eq!(err["field"], "email");
    body["email"] = json!(unique_email("r"));
    body["firstName"] = json!("  ");
    assert_error(
        app.post_json("/api/auth/register", &body).await,
        422,
        "VALIDATION_ERROR",
    )
    .await;

    // Client-sent status / verification / id are ignored: the account is pending.
    let email = unique_email("mass");
    let mut body = register_body(&email);
    body["status"] = json!("active");
    body["emailVerified"] = json!(true);
    body["id"] = json!("00000000-0000-0000-0000-000000000000");
    assert_eq!(
        app.post_json("/api/auth/register", &body).await.status(),
        201
    );
    let r = app
        .post_json(
            "/api/auth/login",
            &json!({"email": email, "password": PASSWORD}),
        )
        .await;
    assert_error(r, 403, "EMAIL_NOT_VERIFIED").await;
}

#[tokio::test]
async fn register_does_not_reveal_existing_accounts() {
    let app = TestApp::spawn().await;
    let existing = app.create_user(Role::Broker).await;
    let r1 = app
        .post_json("/api/auth/register", &register_body(&existing.email))
        .await;
    let s1 = r1.status();
    let b1: Value = r1.json().await.unwrap();
    let fresh = unique_email("fresh");
    let r2 = app
        .post_json("/api/auth/register", &register_body(&fresh))
        .await;
    let s2 = r2.status();
    let mut b2: Value = r2.json().await.unwrap();
    assert_eq!(s1, 201);
    assert_eq!(s1, s2);
    b2["email"] = json!(existing.email);
    assert_eq!(b1, b2);
    // The real owner gets a notice, and the existing password still works.
    app.wait_for_email(&existing.email, "Ya tienes una cuenta")
        .await;
    app.login(&existing.email, PASSWORD).await;
}

#[tokio::test]
async fn verify_email_errors_of_spec_7() {
    let app = TestApp::spawn().await;
    // 400 without token.
    let err = assert_error(
        app.get("/api/auth/verify-email").await,
        400,
        "VERIFICATION_TOKEN_REQUIRED",
    )
    .await;
    assert_eq!(err["message"], "Token de verificación requerido");
    let err = assert_error(
        app.get("/api/auth/verify-email?token=").await,
        400,
        "VERIFICATION_TOKEN_REQUIRED",
    )
    .await;
    assert_eq!(err["message"], "Token de verificación requerido");
    // 400 unknown token.
    let err = assert_error(
        app.get("/api/auth/verify-email?token=bogus").await,
        400,
        "VERIFICATION_TOKEN_INVALID",
    )
    .await;
    assert_eq!(err["message"], "Token de verificación inválido o expirado");

    // 400 used token.
    let email = unique_email("v");
    let token = register_and_get_token(&app, &email).await;
    assert_eq!(
        app.get(&format!("/api/auth/verify-email?token={token}"))
            .await
            .status(),
        200
    );
    let err = assert_error(
        app.get(&format!("/api/auth/verify-email?token={token}"))
            .await,
        400,
        "VERIFICATION_TOKEN_INVALID",
    )
    .await;
    assert_eq!(err["message"], "Token de verificación inválido o expirado");

    // 400 expired token.
    let email = unique_email("exp");
    let token = register_and_get_token(&app, &email).await;
    sqlx::query("UPDATE one_time_tokens SET expires_at = $1 WHERE token_hash = $2")
        .bind(server::db::now() - 1)
        .bind(server::security::hash_token(&token))
        .execute(&app.db)
        .await
        .unwrap();
    assert_error(
        app.get(&format!("/api/auth/verify-email?token={token}"))
            .await,
        400,
        "VERIFICATION_TOKEN_INVALID",
    )
    .await;

    // 404 when the token's user no longer exists.
    let email = unique_email("gone");
    let token = register_and_get_token(&app, &email).await;
    sqlx::query("DELETE FROM users WHERE email = $1")
        .bind(&email)
        .execute(&app.db)
        .await
        .unwrap();
    let err = assert_error(
        app.get(&format!("/api/auth/verify-email?token={token}"))
            .await,
        404,
        "USER_NOT_FOUND",
    )
    .await;
    assert_eq!(err["message"], "Usuario no encontrado");
}

#[tokio::test]
async fn verification_token_is_single_use_under_concurrency() {
    let app = TestApp::spawn().await;
    let email = unique_email("race");
    let token = register_and_get_token(&app, &email).await;
    let path = format!("/api/auth/verify-email?token={token}");
    let results = futures_join(&app, &path, 8).await;
    assert_eq!(
        results.iter().filter(|s| **s == 200).count(),
        1,
        "{results:?}"
    );
    assert_eq!(
        results.iter().filter(|s| **s == 400).count(),
        7,
        "{results:?}"
    );
}

async fn futures_join(app: &TestApp, path: &str, n: usize) -> Vec<u16> {
    let mut handles = Vec::new();
    for _ in 0..n {
        let client = app.client.clone();
        let url = app.url(path);
        handles.push(tokio::spawn(async move {
            client.get(url).send().await.unwrap().status().as_u16()
        }));
    }
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test]
async fn login_gives_the_same_401_for_unknown_user_and_wrong_password() {
    let app = TestApp::spawn().await;
    let user = app.create_user(Role::Agent).await;
    let r1 = app
        .post_json(
            "/api/auth/login",
            &json!({"email": "nobody@example.test", "password": PASSWORD}),
        )
        .await;
    let h1 = r1.headers().get("www-authenticate").cloned();
    let b1 = assert_error(r1, 401, "INVALID_CREDENTIALS").await;
    let r2 = app
        .post_json(
            "/api/auth/login",
            &json!({"email": user.email, "password": "wrong password here"}),
        )
        .await;
    let b2 = assert_error(r2, 401, "INVALID_CREDENTIALS").await;
    assert_eq!(b1, b2);
    assert!(h1.is_some());
    // A pending account with a wrong password gets 401, not the 403 that would reveal it.
    let pending = app
        .create_user_with(&unique_email("p"), PASSWORD, Role::Comprador, false)
        .await;
    let r = app
        .post_json(
            "/api/auth/login",
            &json!({"email": pending.email, "password": "wrong password here"}),
        )
        .await;
    assert_error(r, 401, "INVALID_CREDENTIALS").await;
    // E-mail is case-insensitive.
    app.login(&user.email.to_uppercase(), PASSWORD).await;
}

#[tokio::test]
async fn bearer_token_checks() {
    let app = TestApp::spawn().await;
    let user = app.create_user(Role::Developer).await;
    assert_error(app.get("/api/auth/me").await, 401, "TOKEN_MISSING").await;
    assert_error(
        app.get_auth("/api/auth/me", "garbage").await,
        401,
        "TOKEN_INVALID",
    )
    .await;
    let r = app
        .client
        .get(app.url("/api/auth/me"))
        .header("authorization", format!("Basic {}", user.token))
        .send()
        .await
        .unwrap();
    assert_error(r, 401, "TOKEN_INVALID").await;

    // Tokens signed with another key, expired, with alg none, or with another audience.
    use jsonwebtoken::{EncodingKey, Header, encode};
    let mut claims: Value = {
        let payload = user.token.split('.').nth(1).unwrap();
        use base64::Engine;
        serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(payload)
                .unwrap(),
        )
        .unwrap()
    };
    let forged = encode(
        &Header::default(),
        &claims,
        &EncodingKey::from_secret(b"another-secret-another-secret-0000"),
    )
    .unwrap();
    assert_error(
        app.get_auth("/api/auth/me", &forged).await,
        401,
        "TOKEN_INVALID",
    )
    .await;
    let key = EncodingKey::from_secret(&app.config.jwt_secret.as_ref().unwrap().0);
    let good = encode(&Header::default(), &claims, &key).unwrap();
    assert_eq!(app.get_auth("/api/auth/me", &good).await.status(), 200);
    let mut expired = claims.clone();
    expired["exp"] = json!(server::db::now() - 120);
    let t = encode(&Header::default(), &expired, &key).unwrap();
    assert_error(app.get_auth("/api/auth/me", &t).await, 401, "TOKEN_INVALID").await;
    let mut other_aud = claims.clone();
    other_aud["aud"] = json!("someone-else");
    let t = encode(&Header::default(), &other_aud, &key).unwrap();
    assert_error(app.get_auth("/api/auth/me", &t).await, 401, "TOKEN_INVALID").await;
    claims["typ"] = json!("refresh");
    let t = encode(&Header::default(), &claims, &key).unwrap();
    assert_error(app.get_auth("/api/auth/me", &t).await, 401, "TOKEN_INVALID").await;
    let none_token = {
        use base64::Engine;
        let e = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let parts: Vec<&str> = user.token.split('.').collect();
        format!(
            "{}.{}.",
            e.encode(br#"{"alg":"none","typ":"JWT"}"#),
            parts[1]
        )
    };
    assert_error(
        app.get_auth("/api/auth/me", &none_token).await,
        401,
        "TOKEN_INVALID",
    )
    .await;
    // Expired session row.
    sqlx::query("UPDATE sessions SET expires_at = $1 WHERE user_id = $2")
        .bind(server::db::now() - 1)
        .bind(&user.id)
        .execute(&app.db)
        .await
        .unwrap();
    assert_error(
        app.get_auth("/api/auth/me", &user.token).await,
        401,
        "TOKEN_INVALID",
    )
    .await;
}

#[tokio::test]
async fn logout_revokes_only_that_session() {
    let app = TestApp::spawn().await;
    let user = app.create_user(Role::AgencyAdmin).await;
    let second = app.login(&user.email, PASSWORD).await;
    assert_ne!(second, user.token);
    assert_eq!(
        app.post_json_auth("/api/auth/logout", &json!({}), &user.token)
            .await
            .status(),
        200
    );
    assert_error(
        app.get_auth("/api/auth/me", &user.token).await,
        401,
        "TOKEN_INVALID",
    )
    .await;
    assert_error(
        app.post_json_auth("/api/auth/logout", &json!({}), &user.token)
            .await,
        401,
        "TOKEN_INVALID",
    )
    .await;
    assert_eq!(app.get_auth("/api/auth/me", &second).await.status(), 200);
    assert_error(
        app.client
            .post(app.url("/api/auth/logout"))
            .send()
            .await
            .unwrap(),
        401,
        "TOKEN_MISSING",
    )
    .await;
}

#[tokio::test]
async fn profile_update_cannot_change_role_email_or_status() {
    let app = TestApp::spawn().await;
    let user = app.create_user(Role::Comprador).await;
    let r = app
        .put_json_auth(
            "/api/auth/profile",
            &json!({"role": "admin", "email": "x@example.test", "status": "disabled", "emailVerified": false, "phone": "555"}),
            &user.token,
        )
        .await;
    assert_eq!(r.status(), 200);
    let me: Value = app
        .get_auth("/api/auth/me", &user.token)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["data"]["role"], "comprador");
    assert_eq!(me["data"]["email"], user.email);
    assert_eq!(me["data"]["phone"], "555");
    assert_eq!(me["data"]["status"], "active");
    assert_eq!(me["data"]["emailVerified"], true);
    // Empty string clears optional fields; empty names are refused.
    let r = app
        .put_json_auth("/api/auth/profile", &json!({"phone": ""}), &user.token)
        .await;
    assert_eq!(
        r.json::<Value>().await.unwrap()["data"]["phone"],
        Value::Null
    );
    let r = app
        .put_json_auth("/api/auth/profile", &json!({"firstName": ""}), &user.token)
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    let r = app
        .client
        .put(app.url("/api/auth/profile"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_error(r, 401, "TOKEN_MISSING").await;
}

#[tokio::test]
async fn resend_and_forgot_do_not_reveal_accounts() {
    let app = TestApp::spawn().await;
    let pending_email = unique_email("pending");
    let first = register_and_get_token(&app, &pending_email).await;
    let active = app.create_user(Role::Broker).await;

    let mut bodies = Vec::new();
    for email in [
        pending_email.as_str(),
        active.email.as_str(),
        "ghost@example.test",
    ] {
        let r = app
            .post_json("/api/auth/resend-verification", &json!({"email": email}))
            .await;
        assert_eq!(r.status(), 200);
        bodies.push(r.json::<Value>().await.unwrap());
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "{bodies:?}");
    // Only the pending account got a new link; the old one stopped working.
    let second = app.wait_for_email(&pending_email, "Verifica").await.token();
    assert_ne!(first, second);
    assert_eq!(app.count_emails_to(&active.email), 0);
    assert_error(
        app.get(&format!("/api/auth/verify-email?token={first}"))
            .await,
        400,
        "VERIFICATION_TOKEN_INVALID",
    )
    .await;
    assert_eq!(
        app.get(&format!("/api/auth/verify-email?token={second}"))
            .await
            .status(),
        200
    );

    let mut bodies = Vec::new();
    for email in [active.email.as_str(), "ghost@example.test", "not an email"] {
        let r = app
            .post_json("/api/auth/forgot-password", &json!({"email": email}))
            .await;
        assert_eq!(r.status(), 200);
        bodies.push(r.json::<Value>().await.unwrap());
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "{bodies:?}");
    app.wait_for_email(&active.email, "Restablece").await;
    assert_eq!(app.count_emails_to("ghost@example.test"), 0);
}

#[tokio::test]
async fn reset_token_rules() {
    let app = TestApp::spawn().await;
    let user = app.create_user(Role::Agent).await;
    app.post_json("/api/auth/forgot-password", &json!({"email": user.email}))
        .await;
    let t1 = app.wait_for_email(&user.email, "Restablece").await.token();
    // A weak password is refused without consuming the token.
    let r = app
        .post_json(
            "/api/auth/reset-password",
            &json!({"token": t1, "password": "short"}),
        )
        .await;
    assert_error(r, 422, "VALIDATION_ERROR").await;
    // A newer request invalidates the older token.
    app.post_json("/api/auth/forgot-password", &json!({"email": user.email}))
        .await;
    let t2 = app.wait_for_email(&user.email, "Restablece").await.token();
    let r = app
        .post_json(
            "/api/auth/reset-password",
            &json!({"token": t1, "password": "a brand new passphrase"}),
        )
        .await;
    assert_error(r, 400, "RESET_TOKEN_INVALID").await;
    // Expired token.
    sqlx::query("UPDATE one_time_tokens SET expires_at = $1 WHERE token_hash = $2")
        .bind(server::db::now() - 1)
        .bind(server::security::hash_token(&t2))
        .execute(&app.db)
        .await
        .unwrap();
    let r = app
        .post_json(
            "/api/auth/reset-password",
            &json!({"token": t2, "password": "a brand new passphrase"}),
        )
        .await;
    assert_error(r, 400, "RESET_TOKEN_INVALID").await;
    // A verification token is not a reset token.
    let r = app
        .post_json(
            "/api/auth/reset-password",
            &json!({"token": "", "password": "a brand new passphrase"}),
        )
        .await;
    assert_error(r, 400, "RESET_TOKEN_INVALID").await;
    // Concurrent use of a fresh token: exactly one wins.
    app.post_json("/api/auth/forgot-password", &json!({"email": user.email}))
        .await;
    let t3 = app.wait_for_email(&user.email, "Restablece").await.token();
    let mut handles = Vec::new();
    for i in 0..6 {
        let client = app.client.clone();
        let url = app.url("/api/auth/reset-password");
        let body = json!({"token": t3, "password": format!("concurrent passphrase {i}")});
        handles.push(tokio::spawn(async move {
            client
                .post(url)
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    let mut codes = Vec::new();
    for h in handles {
        codes.push(h.await.unwrap());
    }
    assert_eq!(codes.iter().filter(|c| **c == 200).count(), 1, "{codes:?}");
    // Stored tokens are hashes only.
    let stored: Vec<(String,)> = sqlx::query_as("SELECT token_hash FROM one_time_tokens")
        .fetch_all(&app.db)
        .await
        .unwrap();
    assert!(stored.iter().all(|(h,)| h.len() == 64 && h != &t3));
}

#[tokio::test]
async fn rate_limits_per_ip_and_per_account() {
    let app = TestApp::spawn_with(TestOptions {
        configure: Some(Box::new(|c| {
            c.auth_rate_limit_per_minute = 3;
            c.trust_x_forwarded_for = true;
        })),
        ..Default::default()
    })
    .await;
    let body = json!({"email": "someone@example.test", "password": "wrong password here"});
    // Per IP.
    for _ in 0..3 {
        let r = app
            .client
            .post(app.url("/api/auth/login"))
            .header("x-forwarded-for", "203.0.113.1")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401);
    }
    let r = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-for", "203.0.113.1")
        .json(&json!({"email": "other@example.test", "password": "x"}))
        .send()
        .await
        .unwrap();
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry));
    let err = assert_error(r, 429, "RATE_LIMITED").await;
    assert!(err["retryAfter"].as_u64().is_some());
    // Per account: the same e-mail from new IPs is blocked after the budget.
    let r = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-for", "203.0.113.2")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_error(r, 429, "RATE_LIMITED").await;
    // Other endpoints have their own budget.
    for path in ["/api/auth/forgot-password", "/api/auth/resend-verification"] {
        for i in 0..3 {
            let r = app
                .client
                .post(app.url(path))
                .header("x-forwarded-for", format!("198.51.100.{i}"))
                .json(&json!({"email": "victim@example.test"}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
        }
        let r = app
            .client
            .post(app.url(path))
            .header("x-forwarded-for", "198.51.100.9")
            .json(&json!({"email": "victim@example.test"}))
            .send()
            .await
            .unwrap();
        assert_error(r, 429, "RATE_LIMITED").await;
    }
    for _ in 0..3 {
        let r = app
            .client
            .get(app.url("/api/auth/verify-email?token=x"))
            .header("x-forwarded-for", "192.0.2.1")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400);
    }
    let r = app
        .client
        .get(app.url("/api/auth/verify-email?token=x"))
        .header("x-forwarded-for", "192.0.2.1")
        .send()
        .await
        .unwrap();
    assert_error(r, 429, "RATE_LIMITED").await;
    for _ in 0..3 {
        let r = app
            .client
            .post(app.url("/api/auth/reset-password"))
            .header("x-forwarded-for", "192.0.2.2")
            .json(&json!({"token": "x", "password": "whatever passphrase"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400);
    }
    let r = app
        .client
        .post(app.url("/api/auth/reset-password"))
        .header("x-forwarded-for", "192.0.2.2")
        .json(&json!({"token": "x", "password": "whatever passphrase"}))
        .send()
        .await
        .unwrap();
    assert_error(r, 429, "RATE_LIMITED").await;
    for i in 0..3 {
        let r = app
            .client
            .post(app.url("/api/auth/register"))
            .header("x-forwarded-for", "192.0.2.3")
            .json(&register_body(&format!("rl{i}@example.test")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
    }
    let r = app
        .client
        .post(app.url("/api/auth/register"))
        .header("x-forwarded-for", "192.0.2.3")
        .json(&register_body("rl9@example.test"))
        .send()
        .await
        .unwrap();
    assert_error(r, 429, "RATE_LIMITED").await;
}

#[tokio::test]
async fn create_admin_subcommand() {
    let app = TestApp::spawn().await;
    let email = unique_email("admin");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["create-admin", "--email", &email, "--first-name", "Root"])
        .env("DATABASE_URL", &app.config.database_url)
        .env("DATA_DIR", app.config.data_dir.join("cli"))
        .env("ADMIN_PASSWORD", PASSWORD)
        .env("ARGON2_MEMORY_KIB", "1024")
        .env("ARGON2_ITERATIONS", "1")
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = app.login(&email, PASSWORD).await;
    let me: Value = app
        .get_auth("/api/auth/me", &token)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["data"]["role"], "admin");
    // A second run for the same address fails.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["create-admin", "--email", &email, "--password", PASSWORD])
        .env("DATABASE_URL", &app.config.database_url)
        .env("DATA_DIR", app.config.data_dir.join("cli"))
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    assert!(!out.status.success());
    // Weak password refused.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args([
            "create-admin",
            "--email",
            &unique_email("a2"),
            "--password",
            "short",
        ])
        .env("DATABASE_URL", &app.config.database_url)
        .env("DATA_DIR", app.config.data_dir.join("cli"))
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[tokio::test]
async fn auth_responses_are_not_cacheable() {
    let app = TestApp::spawn().await;
    let user = app.create_user(Role::Comprador).await;
    let r = app.get_auth("/api/auth/me", &user.token).await;
    assert_eq!(r.headers()["cache-control"], "no-store");
    let r = app.get("/api/auth/me").await;
    assert_eq!(r.headers()["cache-control"], "no-store");
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
}
