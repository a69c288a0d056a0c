-- The observation log: every detection run appends what it saw, one row per
-- evidence item (a rule that matched on a page, a DNS record, a job post), and installs are
-- derived from it (services/observations.ts). Append-only: rows are never updated (a trigger
-- refuses it); they leave only with their company (ON DELETE CASCADE) or by an operator's
-- retention delete.
--
-- The key makes re-running the same input a no-op: the same trace (evidence_hash over
-- source, rule, url, excerpt and version) of the same product at the same company is kept
-- once per UTC day. Seeing it again on a later day is a new observation, which is what moves
-- last_verified and hit_count forward. company_id leads the key, like every per-company table.
CREATE TABLE observations (
  company_id     text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  product_id     text NOT NULL REFERENCES products (id),
  seen_day       date NOT NULL,
  evidence_hash  text NOT NULL,
  source         text NOT NULL CHECK (source ~ '^[a-z][a-z0-9_-]{0,31}$'),
  rule_id        text NOT NULL CHECK (length(rule_id) BETWEEN 1 AND 300),
  seen_at        timestamptz NOT NULL,
  -- { url?, ruleId, excerpt (≤ 200 chars), version?, weight }
  evidence       jsonb NOT NULL,
  weight         real NOT NULL CHECK (weight > 0 AND weight <= 1),
  run_id         text,
  recorded_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, product_id, seen_day, evidence_hash)
);
CREATE INDEX observations_product_idx ON observations (product_id);

CREATE FUNCTION observations_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'observations are append-only: insert a new observation instead of updating one';
END $$;
CREATE TRIGGER observations_no_update BEFORE UPDATE ON observations
  FOR EACH ROW EXECUTE FUNCTION observations_append_only();
