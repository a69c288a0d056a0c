-- MCP sessions, shared by every instance on the same database: a session made
-- on one instance is found on any other. The session id itself is never stored, only its
-- SHA-256 (a leaked table names no usable session). Idle expiry is last_seen_at + the
-- configured TTL; expired rows are deleted by a periodic sweep and on each new session.
CREATE TABLE mcp_sessions (
  id_hash           text PRIMARY KEY,
  client_id         text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  protocol_version  text NOT NULL,
  created_at        timestamptz NOT NULL,
  last_seen_at      timestamptz NOT NULL
);

-- The per-client cap counts a client's live sessions; the sweep finds the expired ones.
CREATE INDEX mcp_sessions_client_idx ON mcp_sessions (client_id, last_seen_at);
CREATE INDEX mcp_sessions_last_seen_idx ON mcp_sessions (last_seen_at);
