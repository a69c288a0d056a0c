-- Account lists: a client's uploaded accounts (domain and/or name, country, other columns as a
-- JSON object), versioned (a re-upload is a new version; the diff is read between two of
-- them), each row matched to a company, sent to the review queue or left with a reason.
-- A plan caps the rows of one list (max_list_rows); basic keeps 10,000, other plans 1,000,000.
ALTER TABLE plans ADD COLUMN max_list_rows integer NOT NULL DEFAULT 10000 CHECK (max_list_rows >= 0);
UPDATE plans SET max_list_rows = 1000000 WHERE id <> 'basic';

CREATE TABLE account_lists (
  id               text PRIMARY KEY,
  client_id        text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  current_version  integer NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_lists_client_idx ON account_lists (client_id, created_at, id);

-- One upload of a list; written with all its rows in one transaction.
CREATE TABLE account_list_versions (
  list_id     text NOT NULL REFERENCES account_lists (id) ON DELETE CASCADE,
  version     integer NOT NULL CHECK (version >= 1),
  format      text NOT NULL CHECK (format IN ('csv', 'jsonl', 'rows')),
  row_count   integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, version)
);

-- A row of a version: its key (normalized domain, else lower(name)|country, else its line),
-- what it says, and how it matched. status: matched (company_id set), review (candidates
-- waiting for a person), unmatched (reason says why).
CREATE TABLE account_list_rows (
  list_id     text NOT NULL,
  version     integer NOT NULL,
  line        integer NOT NULL,
  row_key     text NOT NULL,
  domain      text,
  name        text,
  country     char(2),
  data        jsonb NOT NULL,
  status      text NOT NULL CHECK (status IN ('matched', 'review', 'unmatched')),
  -- A value, not a foreign key: a re-seeded world truncates companies without touching clients' lists.
  company_id  text,
  method      text,
  score       real,
  reason      text,
  candidates  jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (list_id, version, line),
  FOREIGN KEY (list_id, version) REFERENCES account_list_versions (list_id, version) ON DELETE CASCADE
);
CREATE INDEX account_list_rows_key_idx ON account_list_rows (list_id, version, row_key);
CREATE INDEX account_list_rows_status_idx ON account_list_rows (list_id, version, status, line);
