-- CRM write-back: a client's connection to each CRM, what we last wrote to each CRM field of each
-- company (so a value a person changed in the CRM since is recognized and left alone), and the
-- log of sync runs with their per-record errors.
CREATE TABLE crm_connections (
  client_id   text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  crm         text NOT NULL CHECK (crm IN ('hubspot', 'salesforce')),
  base_url    text NOT NULL CHECK (length(base_url) <= 2000),
  -- The CRM's API token: kept to call the CRM with (like webhook signing secrets), never returned by the API.
  token       text NOT NULL,
  -- Salesforce: the Account field holding our company id (an External ID field).
  external_id_field text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, crm)
);

CREATE TABLE crm_field_state (
  client_id   text NOT NULL,
  crm         text NOT NULL,
  -- A value, not a key (as account_list_rows): the demo world's re-seed truncates companies,
  -- which a foreign key would refuse; a CRM record outlives our copy of the company.
  company_id  text NOT NULL,
  field       text NOT NULL,
  -- The value we last wrote ('' for empty), as the CRM stores it.
  value       text NOT NULL,
  written_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, crm, company_id, field),
  FOREIGN KEY (client_id, crm) REFERENCES crm_connections (client_id, crm) ON DELETE CASCADE
);

CREATE TABLE crm_sync_runs (
  id           text PRIMARY KEY,
  client_id    text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  crm          text NOT NULL,
  dry_run      boolean NOT NULL,
  overwrite    boolean NOT NULL,
  status       text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  created      integer NOT NULL DEFAULT 0,
  updated      integer NOT NULL DEFAULT 0,
  unchanged    integer NOT NULL DEFAULT 0,
  skipped      integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  -- Per record: [{ "companyId", "domain", "action", "changes": [{ "field", "old", "new", "skipped"? }], "error"? }]
  records      jsonb NOT NULL DEFAULT '[]',
  error        text,
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX crm_sync_runs_client_idx ON crm_sync_runs (client_id, started_at DESC, id);
