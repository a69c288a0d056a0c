-- Webhooks: a client's endpoints and the delivery of each event to each endpoint. Signed per
-- the Standard Webhooks specification; queued and retried by pg-boss (its own schema, created by
-- pg-boss at start), with the state a user reads kept here: one row per (endpoint, event), whose
-- status says whether it was delivered, is still being tried, or is dead (retries exhausted).
CREATE TABLE webhook_endpoints (
  id                    text PRIMARY KEY,
  client_id             text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  url                   text NOT NULL CHECK (length(url) <= 2000),
  description           text CHECK (length(description) <= 500),
  -- Only this monitor's events (its entries and exits, and the wanted events of its members); NULL: every event the client may read.
  monitor_id            text REFERENCES monitors (id) ON DELETE CASCADE,
  event_types           text[] NOT NULL,
  -- Signing secrets, newest first: [{ "secret": "whsec_…", "expiresAt": null | ISO time }]. Symmetric
  -- (HMAC), so kept to sign with; during a rotation the previous one signs too until it expires.
  secrets               jsonb NOT NULL,
  enabled               boolean NOT NULL DEFAULT true,
  disabled_reason       text,
  -- Failures since the last success, and the first of them (persistent failure disables the endpoint).
  failing_since         timestamptz,
  consecutive_failures  integer NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_client_idx ON webhook_endpoints (client_id, created_at, id);

CREATE TABLE webhook_deliveries (
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'dead', 'skipped')),
  attempts         integer NOT NULL DEFAULT 0,
  last_attempt_at  timestamptz,
  last_status      integer,
  last_error       text,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_status_idx ON webhook_deliveries (endpoint_id, status, created_at);
