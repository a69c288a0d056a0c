-- Large account-list uploads run as background jobs (kind 'list_upload'): the upload is kept
-- until the job ends, its rows are matched in batches into a staging table (each batch
-- committed with the job's progress, so a restarted process resumes after the last one), and
-- the version is published from staging in one transaction at the end: readers see the
-- whole version or none of it. Cancelled or failed, the upload and its staging rows go.
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('refresh', 'import', 'list_upload'));

CREATE TABLE account_list_uploads (
  job_id      bigint PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  client_id   text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  -- The list the upload becomes (a new list is inserted only when the version is published).
  list_id     text NOT NULL,
  new_list    boolean NOT NULL,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  format      text NOT NULL CHECK (format IN ('csv', 'jsonl')),
  content     text NOT NULL,
  -- Rows read, checked and matched into staging so far, and the last line among them.
  rows_done   integer NOT NULL DEFAULT 0,
  last_line   integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_list_uploads_client_idx ON account_list_uploads (client_id);

CREATE TABLE account_list_staging_rows (
  job_id      bigint NOT NULL REFERENCES account_list_uploads (job_id) ON DELETE CASCADE,
  line        integer NOT NULL,
  row_key     text NOT NULL,
  domain      text,
  name        text,
  country     char(2),
  data        jsonb NOT NULL,
  status      text NOT NULL,
  company_id  text,
  method      text,
  score       real,
  reason      text,
  candidates  jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (job_id, line)
);

-- Redirects known from observations: the host of the page a company's web evidence was found
-- on, when visiting the company's domain ended on another site (acme.com → acme-group.com).
-- List matching looks an unknown domain up here.
CREATE INDEX observations_page_host_idx ON observations ((lower(substring(evidence->>'url' from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(?:www\.)?([^/:?#]+)'))))
  WHERE source IN ('script', 'meta', 'html', 'header', 'cookie');
