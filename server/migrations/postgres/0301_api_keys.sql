-- Partner API keys (issue 21): portals and banks call the score endpoints with
-- `X-API-Key: psk_...` and get their own rate limit instead of the per-IP one. PostgreSQL flavour; keep in step with migrations/sqlite.
-- Only the SHA-256 of a key is stored (keys are 256-bit random, so a plain digest is enough);
-- the key itself is shown once, when it is created. Revoked keys stay for the record.

CREATE TABLE api_keys (
    id                     TEXT PRIMARY KEY NOT NULL,
    name                   TEXT NOT NULL,            -- the partner, for people
    key_prefix             TEXT NOT NULL,            -- first characters, to tell keys apart
    key_hash               TEXT NOT NULL,
    rate_limit_per_minute  BIGINT NOT NULL,          -- profiles scored per minute
    created_by             TEXT,                     -- administrator's user id; NULL from the CLI
    created_at             BIGINT NOT NULL,
    revoked_at             BIGINT
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);
