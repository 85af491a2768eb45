//! Login with an external OpenID Connect provider: redirect, callback and the exchange of the
//! one-time login code (the flow is described in [`crate::domain::oidc`]).

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, Nonce, PkceCodeChallenge,
    OAuth2TokenResponse, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
    core::{CoreAuthenticationFlow, CoreClient},
};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        accounts::{self, LoginData, TokenKind},
        oidc::{self, FLOW_TTL_SECS},
        users::{UserRow, normalize_email},
    },
    http::{
        ApiJson, ApiQuery, ClientIp, DataResponse, ErrorBody,
        error::{ApiError, ApiResult},
    },
    security::hash_token,
    state::AppState,
};

const STATE_COOKIE: &str = "idp_state";

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
    state.limiter.check_scope("idp", &ip, None).await?;
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
    oidc::save_flow(&state.db, csrf.secret(), verifier.secret(), nonce.secret()).await?;
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
    state.limiter.check_scope("idp", &ip, None).await?;
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
    let flow = oidc::take_flow(&state.db, &returned_state).await?;
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

    let user = match oidc::link_or_create(
        &state.db,
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

#[derive(Debug, Deserialize, ToSchema)]
pub struct ExchangeRequest {
    /// The one-time `code` the callback put in the frontend URL.
    pub code: String,
}

/// Exchange the one-time login code of the IdP callback for an access token.
#[utoipa::path(post, path = "/api/auth/idp/exchange", tag = "auth",
    request_body(content = ExchangeRequest, example = crate::routes::examples::idp_exchange),
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
    state.limiter.check_scope("idp", &ip, None).await?;
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
    let data = accounts::start_session(&state.db, &state.jwt, state.config.access_token_ttl, &user, "idp").await?;
    Ok((StatusCode::OK, axum::Json(DataResponse::new(data))).into_response())
}
