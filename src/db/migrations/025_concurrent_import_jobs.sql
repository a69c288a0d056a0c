-- Imports are recorded as jobs too (kind 'import', services/jobs.ts). Several imports may
-- run at once (each is one transaction; PostgreSQL orders their writes), so the rule "one
-- running job of a kind" now holds for refreshes only.
DROP INDEX jobs_one_active_idx;
CREATE UNIQUE INDEX jobs_one_active_refresh_idx ON jobs (kind) WHERE status = 'running' AND kind = 'refresh';
-- The jobs list filters by kind, newest first.
CREATE INDEX jobs_kind_idx ON jobs (kind, id DESC);
