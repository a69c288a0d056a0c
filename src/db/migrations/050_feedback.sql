-- Data-quality reports from clients and their agents (a technology a company does not use, one
-- it uses that we miss, a wrong firmographic field), and the operator's review of each.
-- Company and product are kept as given values, not foreign keys: a report outlives a re-seed
-- or a catalog change of what it is about.
CREATE TABLE feedback_reports (
  id               text PRIMARY KEY,
  client_id        text NOT NULL REFERENCES api_clients(id) ON DELETE CASCADE,
  on_behalf_of     text,
  kind             text NOT NULL CHECK (kind IN ('wrong_technology', 'missing_technology', 'wrong_firmographics', 'other')),
  company_domain   text NOT NULL,
  product_id       text,
  field            text,
  suggested_value  text,
  message          text,
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
  created_at       timestamptz NOT NULL DEFAULT now(),
  reviewed_at      timestamptz,
  reviewed_by      text,
  review_note      text
);
CREATE INDEX feedback_reports_queue_idx ON feedback_reports (status, created_at, id);
CREATE INDEX feedback_reports_client_idx ON feedback_reports (client_id, status);
