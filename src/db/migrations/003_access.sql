-- Access: clients of an external identity provider are mapped to an API client
-- by the provider's client id (the client_id / azp / sub claim of its tokens).
ALTER TABLE api_clients ADD COLUMN external_id text UNIQUE;

-- The key that signs new tokens is the newest unretired one.
CREATE INDEX IF NOT EXISTS signing_keys_active_idx ON signing_keys (created_at DESC) WHERE retired_at IS NULL;
