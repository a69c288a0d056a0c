-- Secrets the service generates for itself, created once per database so they survive
-- restarts and are shared by every instance on the same database (e.g. the key that
-- signs feed cursors when CURSOR_SECRET is not set).
CREATE TABLE service_secrets (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
