-- Buyer profiles of the credit-score API (issue 7). PostgreSQL flavour; keep in step with
-- migrations/sqlite. The profile and its report are stored as the JSON text score-core reads
-- and writes, with the model version that produced the report, so a profile scored by an
-- older model stays readable as it was.

CREATE TABLE buyer_profiles (
    id             TEXT PRIMARY KEY NOT NULL,      -- random UUID v4: the unguessable handle
    profile_json   TEXT NOT NULL,                  -- score-core canonical profile
    report_json    TEXT NOT NULL,                  -- platform_score as returned
    model_version  TEXT NOT NULL,
    score          BIGINT NOT NULL,
    nivel          TEXT NOT NULL,
    estado         TEXT NOT NULL,                  -- ISO 3166-2:MX code without MX-
    phase          BIGINT NOT NULL,               -- 1, 2 or 3
    contact_name   TEXT,
    contact_email  TEXT,
    contact_phone  TEXT,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX buyer_profiles_created ON buyer_profiles (created_at);
