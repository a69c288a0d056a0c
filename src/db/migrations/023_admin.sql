-- Admin API: the admin role of API clients, the outcome of audit entries, usage
-- counted per client, day and operation, and background jobs (refresh) with their progress.

-- A client's role (null: a plain API client whose plan alone decides what it may do). The
-- console's people use the same three roles. A role change bumps the access
-- version like every other change to what a credential may do (migration 009).
ALTER TABLE api_clients ADD COLUMN role text CHECK (role IN ('viewer', 'analyst', 'admin'));
DROP TRIGGER api_clients_access_version ON api_clients;
CREATE TRIGGER api_clients_access_version
  AFTER INSERT OR DELETE OR UPDATE OF id, name, plan_id, secret_hash, secret_rotated_at, disabled_at, external_id, role ON api_clients
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();

-- What became of an audited action: success, failure (refused by a rule: 4xx) or denied
-- (the caller lacked the role). Entries written before this migration were successes.
ALTER TABLE audit_log ADD COLUMN outcome text NOT NULL DEFAULT 'success' CHECK (outcome IN ('success', 'failure', 'denied'));
CREATE INDEX audit_log_action_idx ON audit_log (action, id DESC);

-- Requests per client, UTC day and operation, added to in batches by each server process
-- (services/usage.ts): no write per request.
CREATE TABLE usage_daily (
  client_id  text NOT NULL,
  day        date NOT NULL,
  operation  text NOT NULL,
  requests   bigint NOT NULL DEFAULT 0,
  errors     bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, day, operation)
);

-- Background jobs started through the Admin API, with their progress. At most one job of a
-- kind is active at a time (the partial unique index), across every server process; a job
-- whose heartbeat stopped (its process died) is marked failed by the next start.
CREATE TABLE jobs (
  id            bigserial PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('refresh', 'import')),
  status        text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  params        jsonb NOT NULL DEFAULT '{}',
  phase         text,
  done          integer NOT NULL DEFAULT 0,
  total         integer NOT NULL DEFAULT 0,
  result        jsonb,
  error         text,
  started_by    text,
  started_at    timestamptz NOT NULL DEFAULT now(),
  heartbeat_at  timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz
);
CREATE UNIQUE INDEX jobs_one_active_idx ON jobs (kind) WHERE status = 'running';
