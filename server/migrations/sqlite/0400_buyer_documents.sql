-- Payroll receipts that verify a buyer profile (issue 18). SQLite flavour; keep in step with
-- migrations/postgres. Each receipt's facts as score-docs reads them (CfdiFacts JSON) and the
-- SHA-256 of its file: the file itself is never stored. A receipt is one per profile by its
-- SAT UUID (NULL when unstamped; such receipts are one per profile by their SHA-256).

CREATE TABLE buyer_documents (
    id                  TEXT PRIMARY KEY NOT NULL,
    profile_id          TEXT NOT NULL REFERENCES buyer_profiles (id) ON DELETE CASCADE,
    uuid                TEXT,                       -- tfd:TimbreFiscalDigital@UUID, upper-case
    sha256              TEXT NOT NULL,              -- hex, of the file as received
    facts_json          TEXT NOT NULL,              -- score_docs::CfdiFacts
    fecha_inicial_pago  TEXT NOT NULL,              -- YYYY-MM-DD, for period order
    fecha_final_pago    TEXT NOT NULL,
    created_at          INTEGER NOT NULL
);
CREATE UNIQUE INDEX buyer_documents_uuid ON buyer_documents (profile_id, uuid);
CREATE UNIQUE INDEX buyer_documents_sha256 ON buyer_documents (profile_id, sha256);

-- The profile as the buyer declared it (before verified values took precedence) and the last
-- verification shown by GET /api/v1/perfil/{id}.
CREATE TABLE buyer_verifications (
    profile_id         TEXT PRIMARY KEY NOT NULL REFERENCES buyer_profiles (id) ON DELETE CASCADE,
    declared_json      TEXT NOT NULL,
    verification_json  TEXT NOT NULL,
    updated_at         INTEGER NOT NULL
);
