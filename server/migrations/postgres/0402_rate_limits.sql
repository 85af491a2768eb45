-- Rate limits shared by every instance on this database (issue 45): one row per bucket
-- (`login:ip:203.0.113.7`, `login:acct:ana@example.com`, `score:key:<key id>`), the start of its
-- one-minute window (the database's clock, milliseconds) and the units spent in it; `granted`
-- says whether the last check fit (1) or was refused (0). Each check is one upsert
-- (src/ratelimit.rs). PostgreSQL flavour; migrations/sqlite has the same file name.
-- UNLOGGED: a counter is not worth a WAL write per request; a crash of PostgreSQL empties the
-- table, which gives back at most one minute's budget.

CREATE UNLOGGED TABLE rate_limits (
    bucket           TEXT PRIMARY KEY NOT NULL,
    window_start_ms  BIGINT NOT NULL,
    used             BIGINT NOT NULL,
    granted          BIGINT NOT NULL
);
