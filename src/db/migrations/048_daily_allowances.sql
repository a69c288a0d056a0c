-- One store for every per-client, per-UTC-day allowance a plan sets: events handed out
-- (eventsPerDay), companies enriched (enrichRowsPerDay), market-sizing calls (facetsPerDay)
-- and domains sent to detection (detectionsPerDay). The two tables that counted events and
-- enriched rows apart are folded into it, their counts kept.
CREATE TABLE daily_allowance (
  client_id  text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('events', 'enrich_rows', 'facets', 'detections')),
  day        date NOT NULL,
  used       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, kind, day)
);
INSERT INTO daily_allowance (client_id, kind, day, used) SELECT client_id, 'events', day, events FROM event_volume_daily;
INSERT INTO daily_allowance (client_id, kind, day, used) SELECT client_id, 'enrich_rows', day, rows FROM enrich_volume_daily;
DROP TABLE event_volume_daily;
DROP TABLE enrich_volume_daily;

-- Market sizing (POST /companies/facets, count mode included) and detection of never-observed
-- accounts (POST /companies/enrich with observeMissing) per UTC day. basic keeps the small
-- numbers, other plans the large ones, as for the earlier daily limits.
ALTER TABLE plans
  ADD COLUMN facets_per_day     integer NOT NULL DEFAULT 1000 CHECK (facets_per_day >= 0),
  ADD COLUMN detections_per_day integer NOT NULL DEFAULT 100 CHECK (detections_per_day >= 0);
UPDATE plans SET facets_per_day = 100000, detections_per_day = 10000 WHERE id <> 'basic';

-- Detection of never-observed accounts runs as a job of its own kind, its progress read like
-- an import's or a refresh's.
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('refresh', 'import', 'list_upload', 'observe'));
