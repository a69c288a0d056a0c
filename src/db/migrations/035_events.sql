-- Change events: what happened to a company, derived from the data the service keeps.
-- - technology.adopted / dropped / version_changed: from the visit log, in the transaction
--   that records the visits (services/observations.ts, by the rules of
--   technographics/changes.ts);
-- - company.changed: a company's industry, country, size or revenue band changed, by any
--   writer (the trigger below, one row per field);
-- - feed.item: a news item was added (the trigger below);
-- - monitor.entered / monitor.left: a company entered or left a client's monitor (only that
--   client sees them).
-- An event is written unpublished (seq NULL). Publishing (store/events.ts) numbers the
-- unpublished events under a transaction-level advisory lock, so seq follows commit order:
-- a reader that has seen seq n has seen every event below n, and a cursor on seq never skips
-- an event that a slower transaction commits later. Ids are stable (a hash of what the event
-- says), so deriving the same change twice writes it once.
CREATE TABLE events (
  id           text PRIMARY KEY,
  seq          bigint UNIQUE,
  type         text NOT NULL CHECK (type IN ('technology.adopted', 'technology.dropped', 'technology.version_changed',
                 'technology.hiring', 'company.changed', 'feed.item', 'monitor.entered', 'monitor.left')),
  company_id   text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  -- Monitor events belong to the monitor's client; NULL: an event about the world every client may read.
  client_id    text REFERENCES api_clients (id) ON DELETE CASCADE,
  -- What changed: { productId, fromVersion?, toVersion? } | { field, from, to } | { feedItemId, title, category } | { monitorId }
  subject      jsonb NOT NULL,
  -- The best estimate of when it happened, between earliest (the last sight of the old state) and latest (the first of the new).
  occurred_at  timestamptz NOT NULL,
  earliest     timestamptz NOT NULL,
  latest       timestamptz NOT NULL,
  -- When the service could tell (for a drop, the last of its confirming visits).
  detected_at  timestamptz NOT NULL,
  confidence   real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  -- Evidence hashes of the observation log behind it.
  evidence     text[] NOT NULL DEFAULT '{}',
  recorded_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (earliest <= latest)
);
CREATE INDEX events_unpublished_idx ON events (recorded_at, id) WHERE seq IS NULL;
CREATE INDEX events_company_idx ON events (company_id, occurred_at DESC, id);
CREATE INDEX events_client_idx ON events (client_id, seq) WHERE client_id IS NOT NULL;

-- The stable id of an event written by SQL: the same recipe as technographics/changes.ts.
CREATE FUNCTION event_id(parts text[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'evt_' || left(encode(sha256(convert_to(array_to_string(parts, chr(31), ''), 'UTF8')), 'hex'), 24)
$$;

-- company.changed: one event per field whose value changed, whichever writer changed it.
-- Statement-level, with transition tables: one INSERT ... SELECT per statement, so a bulk
-- import pays one join, not one call per row.
CREATE FUNCTION companies_record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (id, type, company_id, subject, occurred_at, earliest, latest, detected_at, confidence)
  SELECT event_id(ARRAY[n.id, 'company.changed', f.field, f.old_value, f.new_value, now()::text]), 'company.changed', n.id,
         jsonb_build_object('field', f.field, 'from', f.old_value, 'to', f.new_value),
         b.since + (now() - b.since) / 2, b.since, now(), now(), 1
    FROM old_rows o JOIN new_rows n USING (id)
    -- The old values held at least since the row's last change.
    CROSS JOIN LATERAL (SELECT least(o.updated_at, now()) AS since) AS b
    CROSS JOIN LATERAL (VALUES ('industry', o.industry_id, n.industry_id),
                               ('country', o.country::text, n.country::text),
                               ('sizeBand', o.employee_band, n.employee_band),
                               ('revenueBand', o.revenue_band, n.revenue_band)) AS f(field, old_value, new_value)
   WHERE f.old_value IS DISTINCT FROM f.new_value
  ON CONFLICT (id) DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER companies_changes AFTER UPDATE ON companies
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION companies_record_changes();

-- feed.item: a news item added to a company's feed.
CREATE FUNCTION feed_items_record_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (id, type, company_id, subject, occurred_at, earliest, latest, detected_at, confidence)
  SELECT event_id(ARRAY[n.company_id, 'feed.item', n.id]), 'feed.item', n.company_id,
         jsonb_build_object('feedItemId', n.id, 'title', n.title, 'category', n.category),
         n.published_at, n.published_at, n.published_at, now(), 1
    FROM new_rows n
  ON CONFLICT (id) DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER feed_items_added AFTER INSERT ON feed_items
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION feed_items_record_added();
