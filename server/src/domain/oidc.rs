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

use openidconnect::{IssuerUrl, core::CoreProviderMetadata};
use tokio::sync::RwLock;

use crate::{
    config::OidcConfig,
    db::{self, Db},
    domain::{
        accounts::{self, CreateUserError, NewUser},
        users::{Role, UserRow},
    },
    domain::error::{DomainError, DomainResult, is_unique_violation},
    security::hash_token,
};

pub const FLOW_TTL_SECS: i64 = 600;

/// Provider configuration plus the cached discovery document.
#[derive(Debug)]
pub struct OidcState {
    pub config: Option<OidcConfig>,
    metadata: RwLock<Option<CoreProviderMetadata>>,
    pub http: reqwest::Client,
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

    pub fn config(&self) -> DomainResult<&OidcConfig> {
        self.config.as_ref().ok_or_else(|| {
            DomainError::not_found(
                "IDP_NOT_CONFIGURED",
                "El proveedor de identidad externo no está configurado",
            )
        })
    }

    /// Discovery document, fetched once and cached (retried on the next request if it fails).
    pub async fn metadata(&self) -> DomainResult<CoreProviderMetadata> {
        if let Some(m) = self.metadata.read().await.as_ref() {
            return Ok(m.clone());
        }
        let cfg = self.config()?;
        let issuer = IssuerUrl::new(cfg.issuer_url.clone()).map_err(DomainError::internal)?;
        let m = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "OIDC discovery failed");
                DomainError::service_unavailable(
                    "IDP_UNAVAILABLE",
                    "El proveedor de identidad no está disponible",
                )
            })?;
        *self.metadata.write().await = Some(m.clone());
        Ok(m)
    }
}


/// Stores a login flow started by the redirect (the hash of its `state`, the PKCE verifier and
/// the nonce), valid [`FLOW_TTL_SECS`], after removing the expired ones.
pub async fn save_flow(db: &Db, state_secret: &str, pkce_verifier: &str, nonce: &str) -> DomainResult<()> {
    let now = db::now();
    sqlx::query("DELETE FROM oidc_flows WHERE expires_at < $1")
        .bind(now)
        .execute(db)
        .await?;
    sqlx::query(
        "INSERT INTO oidc_flows (state_hash, pkce_verifier, nonce, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(hash_token(state_secret))
    .bind(pkce_verifier)
    .bind(nonce)
    .bind(now)
    .bind(now + FLOW_TTL_SECS)
    .execute(db)
    .await?;
    Ok(())
}

/// Takes the unexpired flow of `state` (single use: the row is deleted by the one caller that
/// gets it): its PKCE verifier and nonce.
pub async fn take_flow(db: &Db, state: &str) -> DomainResult<Option<(String, String)>> {
    Ok(sqlx::query_as(
        "DELETE FROM oidc_flows WHERE state_hash = $1 AND expires_at > $2 RETURNING pkce_verifier, nonce",
    )
    .bind(hash_token(state))
    .bind(db::now())
    .fetch_optional(db)
    .await?)
}

#[allow(clippy::too_many_arguments)]
pub async fn link_or_create(
    db: &Db,
    issuer: &str,
    subject: &str,
    email: Option<String>,
    email_verified: bool,
    given: Option<String>,
    family: Option<String>,
    full: Option<String>,
) -> DomainResult<Result<UserRow, &'static str>> {
    let linked: Option<(String,)> =
        sqlx::query_as("SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2")
            .bind(issuer)
            .bind(subject)
            .fetch_optional(db)
            .await?;
    if let Some((user_id,)) = linked {
        return Ok(UserRow::find_by_id(db, &user_id)
            .await?
            .ok_or("IDP_EXCHANGE_FAILED"));
    }
    // Without a provider-verified e-mail we neither link nor create.
    let Some(email) = email.filter(|e| email_verified && accounts::is_valid_email(e)) else {
        return Ok(Err("IDP_EMAIL_NOT_VERIFIED"));
    };
    let user = match UserRow::find_by_email(db, &email).await? {
        Some(existing) => {
            // The provider proved control of the address: a pending account becomes verified.
            if existing.status == "pending" {
                sqlx::query(
                    "UPDATE users SET status = 'active', email_verified = 1, updated_at = $1 WHERE id = $2 AND status = 'pending'",
                )
                .bind(db::now())
                .bind(&existing.id)
                .execute(db)
                .await?;
            }
            UserRow::find_by_id(db, &existing.id)
                .await?
                .ok_or_else(DomainError::internal_generic)?
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
            match accounts::create_user(db, &new).await {
                Ok(u) => u,
                // Created concurrently: use the existing row.
                Err(CreateUserError::EmailTaken) => UserRow::find_by_email(db, &email)
                    .await?
                    .ok_or_else(DomainError::internal_generic)?,
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
    .execute(db)
    .await;
    match res {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(Ok(user))
}

