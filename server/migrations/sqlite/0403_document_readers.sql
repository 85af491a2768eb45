-- Which server instance reads each printed document (issue 45): a document lives in the
-- memory of the instance that took the upload, so only that instance's death interrupts it.
-- Each instance says it is alive every few seconds in `server_instances`; the documents of an
-- instance silent for 30 s are marked DOCUMENT_READ_INTERRUPTED by any other (src/reader.rs).
-- Same text for SQLite and PostgreSQL.

ALTER TABLE document_reads ADD COLUMN lector TEXT;  -- server_instances.id; NULL on older rows

CREATE TABLE server_instances (
    id            TEXT PRIMARY KEY NOT NULL,   -- a UUID per process start
    heartbeat_at  BIGINT NOT NULL              -- unix seconds of its last heartbeat
);
