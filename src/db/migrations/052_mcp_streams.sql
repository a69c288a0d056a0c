-- MCP over Streamable HTTP: a session's resource subscriptions and the server-to-client
-- messages of its GET stream, kept so that a client reconnecting with Last-Event-ID (to any
-- instance) gets the ones it missed. Keyed by the session id's hash, as mcp_sessions is.
-- Bounded: the newest 100 messages of a session, none older than the session TTL.
CREATE TABLE mcp_subscriptions (
  session_hash text NOT NULL,
  monitor_id   text NOT NULL,
  client_id    text NOT NULL,
  uri          text NOT NULL,
  after_seq    bigint NOT NULL,
  PRIMARY KEY (session_hash, monitor_id)
);

CREATE TABLE mcp_stream_events (
  id           bigserial PRIMARY KEY,
  session_hash text NOT NULL,
  message      jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_stream_events_session_idx ON mcp_stream_events (session_hash, id);
CREATE INDEX mcp_stream_events_created_idx ON mcp_stream_events (created_at);
