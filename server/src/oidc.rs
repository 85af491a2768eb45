//! External identity provider: OpenID Connect authorization-code flow with PKCE, state and
//! nonce (openidconnect crate).
//!
//! 1. `GET /api/auth/idp/redirect` stores `(sha256(state), pkce_verifier, nonce)` in
//!    `oidc_flows` (10 minutes), sets an HttpOnly cookie with the state (binds the flow to the
//!    browser) and answers 302 to the provider.
//! 2. `GET /api/auth/idp/callback?code&state` checks the cookie against `state`, consumes the
//!    flow row with one `DELETE ... RETURNING` (single use), exchanges the code with the PKCE
//!    verifier, verifies the ID token (signature, issuer, audience, expiry, nonce) and finds or
//!    creates the account: by `(issuer, subject)`; otherwise by e-mail only when the provider
//!    says `email_verified: true`; otherwise a new active `comprador` account (again only with a
//!    verified e-mail). It then answers 302 to `FRONTEND_URL + FRONTEND_IDP_CALLBACK_PATH` with
//!    `?code=<one-time login code>` (or `?error=<CODE>`). No JWT ever appears in a URL.
//! 3. The frontend sends that code to `POST /api/auth/idp/exchange` and receives the same
//!    `{status, data: {token, user}}` as a password login. The code is 256-bit, single use,
//!    valid `IDP_LOGIN_CODE_TTL_SECONDS` (120 s).

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, PkceCodeChallenge,
    OAuth2TokenResponse, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata},
};
use serde::Deserialize;
use tokio::sync::RwLock;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    accounts::{self, CreateUserError, LoginData, NewUser, TokenKind},
    config::OidcConfig,
    db,
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery, ClientIp},
    models::{Role, UserRow, normalize_email},
    routes::auth::DataResponse,
    security::hash_token,
    state::AppState,
};

const FLOW_TTL_SECS: i64 = 600;
const STATE_COOKIE: &str = "idp_state";

/// Provider configuration plus the cached discovery document.
#[derive(Debug)]
pub struct OidcState {
    pub config: Option<OidcConfig>,
    metadata: RwLock<Option<CoreProviderMetadata>>,
    http: reqwest::Client,
}

impl OidcState {
    pub fn new(config: Option<OidcConfig>) -> Result<Self, String> {
        // No redirects (SSRF), bounded time.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(std::time::Duration::from_secs(10))
            .build()
            .map_err(|e| format!("http client: {e}"))?;
        Ok(Self {
            config,
            metadata: RwLock::new(None),
            http,
        })
    }

    fn config(&self) -> ApiResult<&OidcConfig> {
        self.config.as_ref().ok_or_else(|| {
            ApiError::not_found(
                "IDP_NOT_CONFIGURED",
                "El proveedor de identidad externo no está configurado",
            )
        })
    }

    /// Discovery document, fetched once and cached (retried on the next request if it fails).
    async fn metadata(&self) -> ApiResult<CoreProviderMetadata> {
        if let Some(m) = self.metadata.read().await.as_ref() {
            return Ok(m.clone());
        }
        let cfg = self.config()?;
        let issuer = IssuerUrl::new(cfg.issuer_url.clone()).map_err(ApiError::internal)?;
        let m = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "OIDC discovery failed");
                ApiError::service_unavailable(
                    "IDP_UNAVAILABLE",
                    "El proveedor de identidad no está disponible",
                )
            })?;
        *self.metadata.write().await = Some(m.clone());
        Ok(m)
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(idp_redirect))
        .routes(routes!(idp_callback))
        .routes(routes!(idp_exchange))
}

fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

fn state_cookie(value: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{STATE_COOKIE}={value}; Path=/api/auth/idp; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("idp_state=; Max-Age=0"))
}

fn redirect(location: &str) -> Response {
    let mut resp = StatusCode::FOUND.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    resp
}

/// Start the login with the external identity provider: 302 to its authorization page.
#[utoipa::path(get, path = "/api/auth/idp/redirect", tag = "auth",
    responses(
        (status = 302, description = "Redirect to the provider's authorization endpoint (PKCE S256, state, nonce); sets the HttpOnly `idp_state` cookie"),
        (status = 404, description = "`IDP_NOT_CONFIGURED`", body = ErrorBody),
        (status = 503, description = "`IDP_UNAVAILABLE`: discovery failed", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn idp_redirect(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
) -> ApiResult<Response> {
    state.limiter.check_scope("idp", &ip, None)?;
    let cfg = state.oidc.config()?.clone();
    let metadata = state.oidc.metadata().await?;
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(cfg.client_id.clone()),
        Some(ClientSecret::new(cfg.client_secret.clone())),
    )
    .set_redirect_uri(RedirectUrl::new(cfg.redirect_url.clone()).map_err(ApiError::internal)?);
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, csrf, nonce) = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .add_scope(Scope::new("email".into()))
        .add_scope(Scope::new("profile".into()))
        .set_pkce_challenge(challenge)
        .url();
    let now = db::now();
    sqlx::query("DELETE FROM oidc_flows WHERE expires_at < $1")
        .bind(now)
        .execute(&state.db)
        .await?;
    sqlx::query(
        "INSERT INTO oidc_flows (state_hash, pkce_verifier, nonce, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(hash_token(csrf.secret()))
    .bind(verifier.secret())
    .bind(nonce.secret())
    .bind(now)
    .bind(now + FLOW_TTL_SECS)
    .execute(&state.db)
    .await?;
    let mut resp = redirect(url.as_str());
    let secure = cfg.redirect_url.starts_with("https://");
    resp.headers_mut().append(
        header::SET_COOKIE,
        state_cookie(csrf.secret(), FLOW_TTL_SECS, secure),
    );
    Ok(resp)
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CallbackQuery {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// Provider callback: links or creates the account, then 302 to the frontend with a one-time
/// login `code` (or an `error` code). The frontend exchanges the code at
/// `POST /api/auth/idp/exchange`.
#[utoipa::path(get, path = "/api/auth/idp/callback", tag = "auth",
    params(CallbackQuery),
    responses(
        (status = 302, description = "Redirect to `FRONTEND_URL` + `FRONTEND_IDP_CALLBACK_PATH` with `?code=<one-time login code>` or `?error=IDP_STATE_INVALID|IDP_DENIED|IDP_EXCHANGE_FAILED|IDP_EMAIL_NOT_VERIFIED`"),
        (status = 404, description = "`IDP_NOT_CONFIGURED`", body = ErrorBody),
    ))]
pub async fn idp_callback(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<CallbackQuery>,
) -> ApiResult<Response> {
    state.limiter.check_scope("idp", &ip, None)?;
    let cfg = state.oidc.config()?.clone();
    let front = |key: &str, value: &str| {
        let mut resp = redirect(&state.config.frontend_link(
            &state.config.frontend_idp_callback_path,
            key,
            value,
        ));
        resp.headers_mut().append(
            header::SET_COOKIE,
            state_cookie("", 0, cfg.redirect_url.starts_with("https://")),
        );
        resp
    };
    let fail = |code: &str| {
        tracing::warn!(error_code = code, "IdP login failed");
        Ok(front("error", code))
    };
    let Some(returned_state) = q.state.filter(|s| !s.is_empty() && s.len() <= 256) else {
        return fail("IDP_STATE_INVALID");
    };
    // The state must match the cookie set on this browser by /redirect.
    match cookie_value(&headers, STATE_COOKIE) {
        Some(c) if !c.is_empty() && hash_token(&c) == hash_token(&returned_state) => {}
        _ => return fail("IDP_STATE_INVALID"),
    }
    // Single use: the flow row is deleted by the one caller that gets it.
    let flow: Option<(String, String)> = sqlx::query_as(
        "DELETE FROM oidc_flows WHERE state_hash = $1 AND expires_at > $2 RETURNING pkce_verifier, nonce",
    )
    .bind(hash_token(&returned_state))
    .bind(db::now())
    .fetch_optional(&state.db)
    .await?;
    let Some((pkce_verifier, nonce)) = flow else {
        return fail("IDP_STATE_INVALID");
    };
    if q.error.is_some() {
        return fail("IDP_DENIED");
    }
    let Some(code) = q.code.filter(|c| !c.is_empty()) else {
        return fail("IDP_DENIED");
    };
    let metadata = state.oidc.metadata().await?;
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(cfg.client_id.clone()),
        Some(ClientSecret::new(cfg.client_secret.clone())),
    )
    .set_redirect_uri(RedirectUrl::new(cfg.redirect_url.clone()).map_err(ApiError::internal)?);
    let request = match client.exchange_code(AuthorizationCode::new(code)) {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "OIDC token endpoint missing");
            return fail("IDP_EXCHANGE_FAILED");
        }
    };
    let token_response = match request
        .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier))
        .request_async(&state.oidc.http)
        .await
    {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(error = %e, "OIDC code exchange failed");
            return fail("IDP_EXCHANGE_FAILED");
        }
    };
    let Some(id_token) = token_response.id_token() else {
        return fail("IDP_EXCHANGE_FAILED");
    };
    let verifier = client.id_token_verifier();
    let claims = match id_token.claims(&verifier, &Nonce::new(nonce)) {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "ID token rejected");
            return fail("IDP_EXCHANGE_FAILED");
        }
    };
    let issuer = claims.issuer().as_str().to_string();
    let subject = claims.subject().as_str().to_string();
    let text = |n: Option<&str>| n.map(str::to_string);
    let mut email = claims.email().map(|e| normalize_email(e.as_str()));
    let mut email_verified = claims.email_verified() == Some(true);
    let mut given = text(claims.given_name().and_then(|n| n.get(None)).map(|n| n.as_str()));
    let mut family = text(claims.family_name().and_then(|n| n.get(None)).map(|n| n.as_str()));
    let mut full = text(claims.name().and_then(|n| n.get(None)).map(|n| n.as_str()));
    // Providers that keep the e-mail out of the ID token serve it from the UserInfo endpoint
    // (the answer must be for the same subject).
    if email.is_none()
        && let Ok(request) =
            client.user_info(token_response.access_token().clone(), Some(claims.subject().clone()))
    {
        let info: Result<openidconnect::core::CoreUserInfoClaims, _> =
            request.request_async(&state.oidc.http).await;
        match info {
            Ok(info) => {
                email = info.email().map(|e| normalize_email(e.as_str()));
                email_verified = info.email_verified() == Some(true);
                given = given.or_else(|| text(info.given_name().and_then(|n| n.get(None)).map(|n| n.as_str())));
                family = family.or_else(|| text(info.family_name().and_then(|n| n.get(None)).map(|n| n.as_str())));
                full = full.or_else(|| text(info.name().and_then(|n| n.get(None)).map(|n| n.as_str())));
            }
            Err(e) => tracing::warn!(error = %e, "OIDC UserInfo request failed"),
        }
    }

    let user = match link_or_create(
        &state,
        &issuer,
        &subject,
        email,
        email_verified,
        given,
        family,
        full,
    )
    .await?
    {
        Ok(u) => u,
        Err(code) => return fail(code),
    };
    if user.status != "active" {
        return fail("ACCOUNT_DISABLED");
    }
    let login_code = accounts::issue_one_time_token(
        &state.db,
        &user.id,
        TokenKind::IdpLogin,
        state.config.idp_login_code_ttl,
    )
    .await?;
    tracing::info!(user_id = %user.id, "IdP login succeeded");
    Ok(front("code", &login_code))
}

#[allow(clippy::too_many_arguments)]
async fn link_or_create(
    state: &AppState,
    issuer: &str,
    subject: &str,
    email: Option<String>,
    email_verified: bool,
    given: Option<String>,
    family: Option<String>,
    full: Option<String>,
) -> ApiResult<Result<UserRow, &'static str>> {
    let linked: Option<(String,)> =
        sqlx::query_as("SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2")
            .bind(issuer)
            .bind(subject)
            .fetch_optional(&state.db)
            .await?;
    if let Some((user_id,)) = linked {
        return Ok(UserRow::find_by_id(&state.db, &user_id)
            .await?
            .ok_or("IDP_EXCHANGE_FAILED"));
    }
    // Without a provider-verified e-mail we neither link nor create.
    let Some(email) = email.filter(|e| email_verified && accounts::is_valid_email(e)) else {
        return Ok(Err("IDP_EMAIL_NOT_VERIFIED"));
    };
    let user = match UserRow::find_by_email(&state.db, &email).await? {
        Some(existing) => {
            // The provider proved control of the address: a pending account becomes verified.
            if existing.status == "pending" {
                sqlx::query(
                    "UPDATE users SET status = 'active', email_verified = 1, updated_at = $1 WHERE id = $2 AND status = 'pending'",
                )
                .bind(db::now())
                .bind(&existing.id)
                .execute(&state.db)
                .await?;
            }
            UserRow::find_by_id(&state.db, &existing.id)
                .await?
                .ok_or_else(ApiError::internal_generic)?
        }
        None => {
            let (first, last) = match (given, family, full) {
                (Some(g), f, _) => (g, f.unwrap_or_default()),
                (None, f, Some(n)) => {
                    let mut parts = n.splitn(2, ' ');
                    let first = parts.next().unwrap_or_default().to_string();
                    (
                        first,
                        f.or_else(|| parts.next().map(str::to_string))
                            .unwrap_or_default(),
                    )
                }
                (None, f, None) => (
                    email.split('@').next().unwrap_or_default().to_string(),
                    f.unwrap_or_default(),
                ),
            };
            let new = NewUser {
                email: email.clone(),
                password_hash: None,
                first_name: first.chars().take(100).collect(),
                last_name: last.chars().take(100).collect(),
                phone: None,
                company_name: None,
                role: Role::Comprador,
                verified: true,
            };
            match accounts::create_user(&state.db, &new).await {
                Ok(u) => u,
                // Created concurrently: use the existing row.
                Err(CreateUserError::EmailTaken) => UserRow::find_by_email(&state.db, &email)
                    .await?
                    .ok_or_else(ApiError::internal_generic)?,
                Err(CreateUserError::Db(e)) => return Err(e.into()),
            }
        }
    };
    let res = sqlx::query(
        "INSERT INTO user_identities (issuer, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(issuer)
    .bind(subject)
    .bind(&user.id)
    .bind(&email)
    .bind(db::now())
    .execute(&state.db)
    .await;
    match res {
        Ok(_) => {}
        Err(e) if crate::error::is_unique_violation(&e) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(Ok(user))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ExchangeRequest {
    /// The one-time `code` the callback put in the frontend URL.
    pub code: String,
}

/// Exchange the one-time login code of the IdP callback for an access token.
#[utoipa::path(post, path = "/api/auth/idp/exchange", tag = "auth",
    request_body = ExchangeRequest,
    responses(
        (status = 200, description = "Logged in (same body as /api/auth/login)", body = DataResponse<LoginData>),
        (status = 400, description = "`IDP_CODE_INVALID`: unknown, used or expired code", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn idp_exchange(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<ExchangeRequest>,
) -> ApiResult<Response> {
    state.limiter.check_scope("idp", &ip, None)?;
    let invalid =
        || ApiError::bad_request("IDP_CODE_INVALID", "Código de acceso inválido o expirado");
    if req.code.is_empty() || req.code.len() > 256 {
        return Err(invalid());
    }
    let Some(user_id) =
        accounts::consume_one_time_token(&state.db, &req.code, TokenKind::IdpLogin).await?
    else {
        return Err(invalid());
    };
    let user = UserRow::find_by_id(&state.db, &user_id)
        .await?
        .ok_or_else(invalid)?;
    if user.status != "active" {
        return Err(invalid());
    }
    let data = accounts::start_session(&state, &user, "idp").await?;
    Ok((StatusCode::OK, axum::Json(DataResponse::new(data))).into_response())
}
