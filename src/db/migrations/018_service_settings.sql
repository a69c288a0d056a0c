-- Facts a running server records for the other processes on the same database, e.g. the
-- token audience and URLs it serves (`public_endpoints`), so credentials the CLI prints work
-- at the server's token endpoint whatever PORT or PUBLIC_URL the CLI's own shell has.
CREATE TABLE service_settings (
  name        text PRIMARY KEY,
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
