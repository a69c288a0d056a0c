-- MCP export links: an export asked for through a tool (companies_search with
-- export=true) is answered with a resource_link; this row is what the link names: who may
-- read it (the client), for whom it was made (audit), and the search it runs when read.
-- Shared by every instance on the database. As with sessions, only the SHA-256 of the id
-- is stored. Expired rows are deleted whenever a client makes a new export.
CREATE TABLE mcp_exports (
  id_hash       text PRIMARY KEY,
  client_id     text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  on_behalf_of  text NULL,
  action        text NOT NULL,
  params        jsonb NOT NULL,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);

CREATE INDEX mcp_exports_expires_idx ON mcp_exports (expires_at);
