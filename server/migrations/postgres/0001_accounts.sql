-- Accounts and authentication (issue 5). PostgreSQL flavour; keep in step with migrations/sqlite.
-- Timestamps are unix seconds (BIGINT); ids are hyphenated UUID text; flags are 0/1.

CREATE TABLE users (
    id             TEXT PRIMARY KEY NOT NULL,
    email          TEXT NOT NULL,               -- stored lower-cased
    password_hash  TEXT,                        -- NULL for accounts created through the IdP
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    phone          TEXT,
    company_name   TEXT,
    role           TEXT NOT NULL CHECK (role IN ('admin','agency_admin','agent','broker','developer','comprador')),
    status         TEXT NOT NULL CHECK (status IN ('pending','active','disabled')),
    email_verified BIGINT NOT NULL DEFAULT 0,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email);

-- Server-side sessions: every access token carries a session id checked on each request,
-- so logout and password reset revoke tokens at once.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method      TEXT NOT NULL,                  -- 'password' | 'idp'
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    revoked_at  BIGINT
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- One-time tokens (e-mail verification, password reset, IdP login code). Only the SHA-256 of
-- the token is stored. No foreign key on purpose: a token whose user is gone must answer
-- "Usuario no encontrado" (spec 7), and rows are purged after expiry.
CREATE TABLE one_time_tokens (
    token_hash  TEXT PRIMARY KEY NOT NULL,
    user_id     TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('verify_email','reset_password','idp_login')),
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX one_time_tokens_user_kind_idx ON one_time_tokens (user_id, kind);

-- External identities, keyed by (issuer, subject).
CREATE TABLE user_identities (
    issuer      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email       TEXT,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (issuer, subject)
);

-- Pending OpenID Connect authorisation requests (state hash -> PKCE verifier and nonce).
CREATE TABLE oidc_flows (
    state_hash     TEXT PRIMARY KEY NOT NULL,
    pkce_verifier  TEXT NOT NULL,
    nonce          TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    expires_at     BIGINT NOT NULL
);
