-- The visit log: one row per recorded collection of a company's site (`stacklens detect
-- --save`, `stacklens observe`): when, how it went, which page kinds it had whole, and what it
-- found of each product. Technology events (adopted, dropped, version changed) are derived from
-- it by the rules of technographics/changes.ts: only an `ok` visit can show that a product is
-- absent, and only on a page kind it was seen on. Append-only like the observation log; the
-- same visit recorded again (company, time, run) is kept once.
CREATE TABLE site_visits (
  company_id   text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  visited_at   timestamptz NOT NULL,
  -- The run's id, '' without one (a key column cannot be null).
  run_key      text NOT NULL DEFAULT '' CHECK (length(run_key) <= 100),
  outcome      text NOT NULL CHECK (outcome IN ('ok', 'partial', 'failed')),
  kinds        text[] NOT NULL CHECK (kinds <@ ARRAY['web', 'dns', 'jobs']::text[]),
  reason       text CHECK (length(reason) <= 100),
  -- { productId: { confidence, version, kinds, evidence: [evidence_hash…] } }
  seen         jsonb NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, visited_at, run_key)
);

-- One trigger function for every append-only log from here on (027 keeps its own).
CREATE FUNCTION refuse_update_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: record a new row instead of updating one', TG_TABLE_NAME;
END $$;
CREATE TRIGGER site_visits_no_update BEFORE UPDATE ON site_visits
  FOR EACH ROW EXECUTE FUNCTION refuse_update_append_only();
