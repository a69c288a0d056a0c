-- Monitors (saved searches): a client's company-search filter or list of domains, and the
-- event types it wants. Members are the companies that match now; a company entering or
-- leaving is a monitor.entered / monitor.left event of that client (migration 035).
-- Membership is kept incrementally: every writer that changes a company's facts (imports,
-- derived installs, new companies) already names it in refresh_pending; a trigger there copies
-- the names into monitor_pending while a search monitor exists, and the event publisher
-- re-evaluates just those companies against each monitor.
CREATE TABLE monitors (
  id           text PRIMARY KEY,
  client_id    text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- The company-search request (its body, without paging) or NULL for a list of domains.
  search       jsonb,
  -- The listed companies' ids, or NULL for a search.
  company_ids  text[],
  event_types  text[] NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((search IS NULL) <> (company_ids IS NULL))
);
CREATE INDEX monitors_client_idx ON monitors (client_id, created_at, id);

CREATE TABLE monitor_members (
  monitor_id  text NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  company_id  text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  entered_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, monitor_id)
);
CREATE INDEX monitor_members_monitor_idx ON monitor_members (monitor_id);

-- Companies whose facts changed since the publisher last evaluated the monitors.
CREATE TABLE monitor_pending (
  company_id  text PRIMARY KEY
);

CREATE FUNCTION mark_monitor_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM monitors WHERE search IS NOT NULL) THEN
    INSERT INTO monitor_pending (company_id) SELECT DISTINCT company_id FROM marked ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER refresh_pending_monitors AFTER INSERT ON refresh_pending REFERENCING NEW TABLE AS marked
  FOR EACH STATEMENT EXECUTE FUNCTION mark_monitor_pending();
