-- Rate limits (issue 45): on SQLite they stay in the serving process's memory, since one
-- process serves a SQLite file (it holds `<file>.lock` while it runs; src/db/mod.rs,
-- InstanceLock). PostgreSQL keeps them in its `rate_limits` table, shared by every instance;
-- this file keeps the two folders' migrations in step.
SELECT 1;
