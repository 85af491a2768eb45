//! Passwords (Argon2id), one-time tokens and access tokens (JWT HS256 bound to a session).

use std::sync::{Arc, Mutex};

use argon2::{
    Algorithm, Argon2, Block, Params, PasswordHash, Version,
    password_hash::phc::{Output, ParamsString, Salt},
};
use jsonwebtoken::{DecodingKey, EncodingKey, Header, Validation, decode, encode};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::{
    config::{Argon2Config, Config},
    domain::error::DomainError,
};

/// Minimum and maximum password length in characters (no composition rules; ASVS V6.2).
pub const PASSWORD_MIN_CHARS: usize = 12;
pub const PASSWORD_MAX_CHARS: usize = 128;

/// Checks the password rules. Returns the Spanish message of the violated rule.
pub fn check_password_rules(password: &str) -> Result<(), DomainError> {
    let n = password.chars().count();
    if n < PASSWORD_MIN_CHARS {
        return Err(DomainError::validation(format!(
            "La contraseña debe tener al menos {PASSWORD_MIN_CHARS} caracteres"
        ))
        .with("field", "password"));
    }
    if n > PASSWORD_MAX_CHARS {
        return Err(DomainError::validation(format!(
            "La contraseña debe tener como máximo {PASSWORD_MAX_CHARS} caracteres"
        ))
        .with("field", "password"));
    }
    Ok(())
}

/// Argon2id hashing off the async runtime, behind a semaphore so hashing cannot exhaust the
/// blocking pool (ASVS V15.2.2).
#[derive(Clone, Debug)]
pub struct PasswordService {
    params: Params,
    permits: Arc<Semaphore>,
    /// Argon2 working memory (19 MiB each with the default parameters), reused from one hash to
    /// the next. Allocating it per hash made the allocator keep every freed buffer on the
    /// blocking threads' heaps: resident memory grew by hundreds of MiB under a login burst and
    /// never came back. The semaphore bounds how many buffers exist at once.
    memory: Arc<MemoryPool>,
    /// A hash of a random password, verified when the account does not exist so that the
    /// response time does not reveal whether an e-mail is registered.
    dummy_hash: Arc<String>,
}

/// Reused Argon2 block buffers.
#[derive(Debug, Default)]
struct MemoryPool(Mutex<Vec<Vec<Block>>>);

impl MemoryPool {
    /// A buffer of exactly `blocks` blocks (a pooled one when it has that size).
    fn take(&self, blocks: usize) -> Vec<Block> {
        let pooled = self.0.lock().ok().and_then(|mut p| p.pop());
        match pooled {
            Some(buf) if buf.len() == blocks => buf,
            _ => vec![Block::new(); blocks],
        }
    }

    fn give(&self, buf: Vec<Block>) {
        if let Ok(mut p) = self.0.lock() {
            p.push(buf);
        }
    }

    /// Runs Argon2 with pooled memory.
    fn run(&self, argon: &Argon2<'_>, params: &Params, pw: &[u8], salt: &[u8], out: &mut [u8]) -> bool {
        let mut blocks = self.take(params.block_count());
        let ok = argon
            .hash_password_into_with_memory(pw, salt, out, blocks.as_mut_slice())
            .is_ok();
        self.give(blocks);
        ok
    }
}

/// Hashes into a PHC string (`$argon2id$v=19$m=..,t=..,p=..$salt$hash`) with a 16-byte salt.
fn hash_pooled(pool: &MemoryPool, params: &Params, pw: &[u8]) -> Result<String, String> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    if !pool.run(&argon, params, pw, &salt, &mut out) {
        return Err("argon2 failed".into());
    }
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params).map_err(|e| e.to_string())?,
        salt: Some(Salt::new(&salt).map_err(|e| e.to_string())?),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(hash.to_string())
}

/// Verifies a PHC string (any Argon2 variant, version and parameters) with pooled memory; the
/// comparison of the outputs is constant-time (`Output`'s equality).
fn verify_pooled(pool: &MemoryPool, pw: &[u8], stored: &str) -> bool {
    let Ok(hash) = PasswordHash::new(stored) else {
        return false;
    };
    let (Ok(algorithm), Ok(params), Some(salt), Some(expected)) = (
        Algorithm::try_from(hash.algorithm.as_str()),
        Params::try_from(&hash),
        hash.salt.as_ref(),
        hash.hash.as_ref(),
    ) else {
        return false;
    };
    let version = match hash.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let argon = Argon2::new(algorithm, version, params.clone());
    let mut out = vec![0u8; expected.len()];
    pool.run(&argon, &params, pw, salt, &mut out) && Output::new(&out).is_ok_and(|o| &o == expected)
}

impl PasswordService {
    pub fn new(cfg: &Argon2Config, concurrency: usize) -> Result<Self, String> {
        let params = Params::new(cfg.memory_kib, cfg.iterations, cfg.parallelism, None)
            .map_err(|e| format!("invalid Argon2 parameters: {e}"))?;
        let memory = Arc::new(MemoryPool::default());
        let dummy = hash_pooled(&memory, &params, random_token().as_bytes())?;
        Ok(Self {
            params,
            permits: Arc::new(Semaphore::new(concurrency)),
            memory,
            dummy_hash: Arc::new(dummy),
        })
    }

    /// Hashes a password into a PHC string.
    pub async fn hash(&self, password: &str) -> Result<String, DomainError> {
        let _permit = self.permits.acquire().await.map_err(DomainError::internal)?;
        let (memory, params) = (self.memory.clone(), self.params.clone());
        let pw = password.to_owned();
        tokio::task::spawn_blocking(move || hash_pooled(&memory, &params, pw.as_bytes()))
            .await
            .map_err(DomainError::internal)?
            .map_err(|e| DomainError::internal(format!("argon2: {e}")))
    }

    /// Verifies a password against a stored hash; with `None` it verifies against the dummy
    /// hash (always false) so the work done is the same.
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> Result<bool, DomainError> {
        let _permit = self.permits.acquire().await.map_err(DomainError::internal)?;
        let memory = self.memory.clone();
        let pw = password.to_owned();
        let (hash, real) = match stored {
            Some(h) => (h.to_owned(), true),
            None => (self.dummy_hash.as_str().to_owned(), false),
        };
        let ok = tokio::task::spawn_blocking(move || verify_pooled(&memory, pw.as_bytes(), &hash))
            .await
            .map_err(DomainError::internal)?;
        Ok(ok && real)
    }
}

/// 256 bits from the OS CSPRNG, URL-safe base64 without padding (43 characters).
pub fn random_token() -> String {
    use base64::Engine;
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// SHA-256 of a token, hex: the only form in which one-time tokens are stored.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Claims of an access token.
#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// User id.
    pub sub: String,
    /// Session id (row of `sessions`); revoked sessions make the token invalid.
    pub sid: String,
    pub role: String,
    /// Token type; only `access` is accepted as a bearer token.
    pub typ: String,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    pub jti: String,
}

/// Signs and verifies access tokens. HS256 only (algorithm allow-list).
#[derive(Clone)]
pub struct JwtService {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    issuer: String,
    audience: String,
}

impl std::fmt::Debug for JwtService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtService")
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

impl JwtService {
    pub fn new(secret: &[u8], cfg: &Config) -> Self {
        let mut validation = Validation::new(jsonwebtoken::Algorithm::HS256);
        validation.algorithms = vec![jsonwebtoken::Algorithm::HS256];
        validation.set_issuer(&[cfg.jwt_issuer.as_str()]);
        validation.set_audience(&[cfg.jwt_audience.as_str()]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            issuer: cfg.jwt_issuer.clone(),
            audience: cfg.jwt_audience.clone(),
        }
    }

    pub fn issue(
        &self,
        user_id: &str,
        session_id: &str,
        role: &str,
        iat: i64,
        exp: i64,
    ) -> Result<String, DomainError> {
        let claims = Claims {
            sub: user_id.into(),
            sid: session_id.into(),
            role: role.into(),
            typ: "access".into(),
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            iat,
            exp,
            jti: crate::db::new_id(),
        };
        encode(
            &Header::new(jsonwebtoken::Algorithm::HS256),
            &claims,
            &self.encoding,
        )
        .map_err(|e| DomainError::internal(format!("jwt encode: {e}")))
    }

    /// Verifies signature, algorithm, `exp`, `iss`, `aud` and `typ`.
    pub fn verify(&self, token: &str) -> Option<Claims> {
        let data = decode::<Claims>(token, &self.decoding, &self.validation).ok()?;
        (data.claims.typ == "access").then_some(data.claims)
    }
}

/// Loads the JWT key: `JWT_SECRET`, or a random key generated once in `<data_dir>/jwt-secret`.
pub fn load_or_create_jwt_secret(cfg: &Config) -> std::io::Result<Vec<u8>> {
    if let Some(s) = &cfg.jwt_secret {
        return Ok(s.0.clone());
    }
    let path = cfg.data_dir.join("jwt-secret");
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim();
        if existing.len() >= 32 {
            return Ok(existing.as_bytes().to_vec());
        }
    }
    crate::files::create_private_dir(&cfg.data_dir)?;
    let secret = random_token();
    crate::files::write_private(&path, secret.as_bytes())?;
    tracing::warn!(path = %path.display(), "JWT_SECRET not set: generated a signing key and stored it in the data folder");
    Ok(secret.into_bytes())
}


#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_dummy_never_matches() {
        let cfg = Argon2Config {
            memory_kib: 1024,
            iterations: 1,
            parallelism: 1,
        };
        let svc = PasswordService::new(&cfg, 2).expect("service");
        let h = svc
            .hash("correct horse battery staple")
            .await
            .expect("hash");
        assert!(h.starts_with("$argon2id$v=19$m=1024,t=1,p=1$"));
        assert!(
            svc.verify("correct horse battery staple", Some(&h))
                .await
                .expect("verify")
        );
        assert!(!svc.verify("wrong", Some(&h)).await.expect("verify"));
        assert!(!svc.verify("anything", None).await.expect("verify"));
        // Hashes written by the stock argon2 hasher (stored before the pool) still verify.
        use argon2::password_hash::PasswordHasher;
        let params = Params::new(1024, 1, 1, None).expect("params");
        let stock = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password(b"old password 2025")
            .expect("stock hash")
            .to_string();
        assert!(svc.verify("old password 2025", Some(&stock)).await.expect("verify"));
        assert!(!svc.verify("old password 2024", Some(&stock)).await.expect("verify"));
        assert_eq!(svc.memory.0.lock().map(|p| p.len()).unwrap_or(0), 1, "one buffer reused");
    }

    #[test]
    fn default_argon2_parameters_are_owasp() {
        let d = Argon2Config::default();
        assert_eq!(
            (d.memory_kib, d.iterations, d.parallelism),
            (19 * 1024, 2, 1)
        );
    }

    #[test]
    fn tokens_are_256_bit_and_hashed() {
        let t = random_token();
        assert_eq!(t.len(), 43);
        assert_ne!(t, random_token());
        assert_eq!(hash_token(&t).len(), 64);
        assert_check_password();
    }

    fn assert_check_password() {
        assert!(check_password_rules(&"a".repeat(11)).is_err());
        assert!(check_password_rules(&"ñ".repeat(12)).is_ok());
        assert!(check_password_rules(&"a".repeat(128)).is_ok());
        assert!(check_password_rules(&"a".repeat(129)).is_err());
    }
}
