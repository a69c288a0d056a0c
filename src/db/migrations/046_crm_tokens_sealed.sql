-- CRM connections hold their API token encrypted (AES-256-GCM, services/crm/token-seal.ts) and a
-- hint of it (its last characters) to show; a connection keeps its overwrite policy; a sync run
-- names the list it synced. Connections stored before held the token in clear: no door wrote
-- them (only the services' own tests did), and they cannot be encrypted without the key, so
-- they are removed (with the field state that hangs on them); a client connects again.
DELETE FROM crm_connections;
ALTER TABLE crm_connections RENAME COLUMN token TO token_sealed;
ALTER TABLE crm_connections
  ADD CONSTRAINT crm_connections_token_sealed_check CHECK (token_sealed LIKE 'v1.%'),
  ADD COLUMN token_hint text NOT NULL CHECK (length(token_hint) <= 8),
  ADD COLUMN overwrite boolean NOT NULL DEFAULT false;
ALTER TABLE crm_sync_runs ADD COLUMN list_id text;
