-- Enrichment (POST /companies/enrich): how many rows a client may enrich per UTC day, the rows
-- it has enriched on each day (spent in the database, so every instance counts against one
-- number), and the snapshots of enrichment runs: one row per account set each time its
-- enriched content changes (a re-run of unchanged data writes none).
ALTER TABLE plans ADD COLUMN enrich_rows_per_day integer NOT NULL DEFAULT 10000 CHECK (enrich_rows_per_day >= 0);
UPDATE plans SET enrich_rows_per_day = 1000000 WHERE id <> 'basic';

CREATE TABLE enrich_volume_daily (
  client_id  text NOT NULL,
  day        date NOT NULL,
  rows       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, day)
);

CREATE TABLE enrichment_snapshots (
  id            bigserial PRIMARY KEY,
  client_id     text NOT NULL,
  -- What was enriched: a hash of the normalized input (domains or company ids) and the columns,
  -- or a caller's key (a list and its version).
  set_key       text NOT NULL,
  -- sha256 of the rows in order (their JSON Lines form), whatever format was streamed.
  content_hash  text NOT NULL,
  rows          integer NOT NULL,
  found         integer NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX enrichment_snapshots_set_idx ON enrichment_snapshots (client_id, set_key, id DESC);
