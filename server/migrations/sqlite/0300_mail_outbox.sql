-- Durable e-mail (issue 21): a transactional outbox. SQLite flavour; keep in step with migrations/postgres.
-- A request writes its e-mail here in the same transaction as the account, token or lead that
-- causes it, so a committed registration always has its e-mail queued, whatever happens to the
-- process afterwards. The delivery worker of every server instance claims due rows by moving
-- next_attempt_ms past a lease (PostgreSQL: FOR UPDATE SKIP LOCKED), so two instances never
-- hold the same row; a row whose claimer died becomes due again when the lease runs out.
-- Times are unix milliseconds (retry delays are sub-second in tests).

CREATE TABLE mail_outbox (
    id               TEXT PRIMARY KEY NOT NULL,
    kind             TEXT NOT NULL,                  -- verify_email, reset_password, ...
    recipient        TEXT NOT NULL,
    subject          TEXT NOT NULL,
    body_text        TEXT NOT NULL,                  -- emptied once sent: it may hold a live link
    body_html        TEXT NOT NULL,
    link             TEXT,                           -- logged in development (outbox files) only
    status           TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dead')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms  INTEGER NOT NULL,                -- due time, or end of the current claim's lease
    claim_id         TEXT,                           -- the claim that owns the row right now
    last_error       TEXT,
    created_ms       INTEGER NOT NULL,
    finished_ms      INTEGER                          -- sent or dead-lettered
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (status, next_attempt_ms);
