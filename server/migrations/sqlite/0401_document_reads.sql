-- Printed documents (PDF, PNG, JPEG payroll receipts and bank statements) read off the
-- request path by the OCR pool (issue 19). SQLite flavour; keep in step with
-- migrations/postgres. The file is never stored: it lives in memory (and in
-- score-ocr's owner-only scratch folder) only while it is read; the row keeps its SHA-256 and
-- what was read from it.

CREATE TABLE document_reads (
    id             TEXT PRIMARY KEY NOT NULL,
    profile_id     TEXT NOT NULL REFERENCES buyer_profiles (id) ON DELETE CASCADE,
    archivo        TEXT,                 -- the client's file name, shown back only
    sha256         TEXT NOT NULL,        -- hex, of the file as received
    tipo           TEXT,                 -- recibo_nomina | estado_cuenta: as sent, or as read
    estado         TEXT NOT NULL,        -- leyendo | leido | rechazado
    documento_json TEXT,                 -- score_docs::Documento, once read
    aplicado       INTEGER NOT NULL DEFAULT 0, -- 1 when its facts verify the profile
    nota           TEXT,                 -- why a read document was not applied
    error_code     TEXT,                 -- when rechazado
    error_message  TEXT,
    created_at     INTEGER NOT NULL,
    finished_at    INTEGER
);
CREATE INDEX document_reads_profile ON document_reads (profile_id, created_at);

-- Where each receipt on file was read from: the XML (xml) or its print (pdf, ocr). A receipt
-- read from print is replaced by its XML when the XML arrives (same UUID): the XML wins.
ALTER TABLE buyer_documents ADD COLUMN fuente TEXT NOT NULL DEFAULT 'xml';
