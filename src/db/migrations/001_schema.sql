-- Stacklens schema, version 1: the whole data model.
-- Identifiers are opaque text with a type prefix (cmp_, ven_, prd_, cat_, ind_, per_).
-- Every table that belongs to a company is keyed by company_id first, so the schema can
-- be distributed by company without changing queries.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Taxonomies -----------------------------------------------------------------------------

CREATE TABLE industries (
  id          text PRIMARY KEY,
  name        text NOT NULL UNIQUE,
  sector      text
);

CREATE TABLE categories (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  parent_id   text REFERENCES categories (id),
  level       smallint NOT NULL DEFAULT 0 CHECK (level >= 0),
  description text
);
CREATE INDEX categories_parent_idx ON categories (parent_id);
CREATE INDEX categories_lower_name_idx ON categories (lower(name));

-- Catalog --------------------------------------------------------------------------------

CREATE TABLE vendors (
  id          text PRIMARY KEY,
  domain      text NOT NULL UNIQUE,
  name        text NOT NULL,
  website     text,
  logo_url    text,
  description text
);
CREATE INDEX vendors_name_trgm_idx ON vendors USING gin (name gin_trgm_ops);
CREATE INDEX vendors_domain_trgm_idx ON vendors USING gin (domain gin_trgm_ops);
CREATE INDEX vendors_lower_name_idx ON vendors (lower(name));

CREATE TABLE products (
  id                text PRIMARY KEY,
  vendor_id         text NOT NULL REFERENCES vendors (id),
  category_id       text NOT NULL REFERENCES categories (id),
  name              text NOT NULL,
  short_name        text,
  description       text NOT NULL DEFAULT '',
  features          text[] NOT NULL DEFAULT '{}',
  aliases           text[] NOT NULL DEFAULT '{}',
  review_count      integer NOT NULL DEFAULT 0 CHECK (review_count >= 0),
  star_rating       real CHECK (star_rating BETWEEN 0 AND 5),
  avg_rating        real CHECK (avg_rating BETWEEN 0 AND 5),
  image_url         text,
  product_url       text,
  public_detail_url text
);
CREATE INDEX products_vendor_idx ON products (vendor_id);
CREATE INDEX products_category_idx ON products (category_id);
CREATE INDEX products_name_trgm_idx ON products USING gin (name gin_trgm_ops);

-- Companies ------------------------------------------------------------------------------

CREATE TABLE companies (
  id              text PRIMARY KEY,
  domain          text NOT NULL UNIQUE,
  name            text,
  industry_id     text REFERENCES industries (id),
  employee_band   text,
  employee_count  integer CHECK (employee_count >= 0),
  revenue_band    text,
  revenue_usd     bigint CHECK (revenue_usd >= 0),
  street          text,
  city            text,
  state           text,
  postal_code     text,
  country         char(2),
  phone           text,
  founded_year    smallint,
  website         text,
  logo_url        text,
  linkedin_url    text,
  crunchbase_url  text,
  description     text,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX companies_name_trgm_idx ON companies USING gin (name gin_trgm_ops);
CREATE INDEX companies_domain_trgm_idx ON companies USING gin (domain gin_trgm_ops);
CREATE INDEX companies_industry_idx ON companies (industry_id, employee_band);
CREATE INDEX companies_country_idx ON companies (country);

-- The native, evolving firmographic profile, one JSON document per company.
CREATE TABLE firmographics (
  company_id  text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  profile     jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The evidence behind every "company uses product".
CREATE TABLE installs (
  company_id      text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  product_id      text NOT NULL REFERENCES products (id),
  first_verified  timestamptz NOT NULL,
  last_verified   timestamptz NOT NULL,
  hit_count       integer NOT NULL DEFAULT 1 CHECK (hit_count >= 0),
  intensity       smallint NOT NULL DEFAULT 0 CHECK (intensity BETWEEN 0 AND 100),
  sources         text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (company_id, product_id),
  CHECK (last_verified >= first_verified)
);
CREATE INDEX installs_product_idx ON installs (product_id, company_id);

-- Peer sets: Default, Aspirational and competitors are computed by the refresh job;
-- Defined cohorts are curated lists imported by the operator.
CREATE TABLE cohorts (
  company_id  text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('default', 'defined', 'aspirational', 'competitors')),
  member_id   text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  score       real,
  rank        integer NOT NULL,
  PRIMARY KEY (company_id, kind, member_id),
  CHECK (member_id <> company_id)
);
CREATE INDEX cohorts_rank_idx ON cohorts (company_id, kind, rank);

-- One row per refresh: when it ran and with which parameters.
CREATE TABLE refresh_runs (
  id           bigserial PRIMARY KEY,
  kind         text NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  computed_at  timestamptz,
  params       jsonb NOT NULL DEFAULT '{}'
);

CREATE TABLE feed_items (
  id                  text PRIMARY KEY,
  company_id          text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  published_at        timestamptz NOT NULL,
  title               text NOT NULL,
  description         text NOT NULL DEFAULT '',
  source_url          text,
  publisher_name      text,
  publisher_logo_url  text,
  enclosure_image_url text,
  category            text NOT NULL DEFAULT 'NEWS'
    CHECK (category IN ('NEWS', 'PRESS', 'FUNDING', 'ACQUISITION', 'PEOPLE', 'BLOG', 'VIDEOS'))
);
-- Feed pages walk newest first with (published_at, id) as a stable keyset.
CREATE INDEX feed_items_company_idx ON feed_items (company_id, published_at DESC, id DESC);

-- People and their contact details. Contacts live apart and are never joined into search.
CREATE TABLE people (
  id            text PRIMARY KEY,
  company_id    text REFERENCES companies (id) ON DELETE CASCADE,
  full_name     text NOT NULL,
  title         text,
  seniority     text,
  function      text,
  country       char(2),
  city          text,
  linkedin_url  text
);
CREATE INDEX people_company_idx ON people (company_id);
CREATE INDEX people_title_trgm_idx ON people USING gin (title gin_trgm_ops);
CREATE INDEX people_name_trgm_idx ON people USING gin (full_name gin_trgm_ops);

CREATE TABLE contacts (
  id         bigserial PRIMARY KEY,
  person_id  text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('email', 'phone')),
  value      text NOT NULL,
  type       text,
  verified   boolean NOT NULL DEFAULT false,
  UNIQUE (person_id, kind, value)
);

-- Access: plans, clients, keys, signing keys -------------------------------------------

-- Plans are data: permissions, starting credits and rate limits per minute.
CREATE TABLE plans (
  id                         text PRIMARY KEY,
  description                text,
  can_export                 boolean NOT NULL DEFAULT false,
  can_ai                     boolean NOT NULL DEFAULT false,
  can_purchase               boolean NOT NULL DEFAULT false,
  initial_credits            integer NOT NULL DEFAULT 0 CHECK (initial_credits >= 0),
  requests_per_minute        integer NOT NULL CHECK (requests_per_minute > 0),
  ai_requests_per_minute     integer NOT NULL CHECK (ai_requests_per_minute > 0),
  export_requests_per_minute integer NOT NULL CHECK (export_requests_per_minute > 0)
);
INSERT INTO plans (id, description, can_export, can_ai, can_purchase, initial_credits,
                   requests_per_minute, ai_requests_per_minute, export_requests_per_minute)
VALUES ('basic', 'Read-only access', false, false, false, 0, 120, 10, 5),
       ('full', 'Everything: exports, AI helpers, purchases', true, true, true, 1000, 600, 60, 30);

CREATE TABLE api_clients (
  id                 text PRIMARY KEY,
  name               text NOT NULL,
  plan_id            text NOT NULL REFERENCES plans (id),
  secret_hash        text NOT NULL,
  secret_rotated_at  timestamptz NOT NULL DEFAULT now(),
  credits            integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  disabled_at        timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  client_id     text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  prefix        text NOT NULL UNIQUE,
  key_hash      text NOT NULL,
  name          text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  last_used_at  timestamptz
);
CREATE INDEX api_keys_client_idx ON api_keys (client_id);

CREATE TABLE signing_keys (
  kid          text PRIMARY KEY,
  alg          text NOT NULL,
  public_jwk   jsonb NOT NULL,
  private_jwk  jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- After rotation the key stops signing; its public half stays published until
  -- every token it signed has expired (published_until).
  retired_at       timestamptz,
  published_until  timestamptz
);

-- Purchases and credits ----------------------------------------------------------------

CREATE TABLE purchases (
  client_id      text NOT NULL REFERENCES api_clients (id),
  person_id      text NOT NULL REFERENCES people (id),
  on_behalf_of   text NOT NULL,
  purchased_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, person_id)
);

CREATE TABLE credit_ledger (
  id          bigserial PRIMARY KEY,
  client_id   text NOT NULL REFERENCES api_clients (id),
  delta       integer NOT NULL,
  reason      text NOT NULL,
  reference   text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_client_idx ON credit_ledger (client_id, id DESC);

CREATE TABLE idempotency_keys (
  client_id     text NOT NULL REFERENCES api_clients (id),
  key           text NOT NULL,
  request_hash  text NOT NULL,
  status_code   integer NOT NULL,
  response      jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, key)
);

CREATE TABLE audit_log (
  id             bigserial PRIMARY KEY,
  at             timestamptz NOT NULL DEFAULT now(),
  client_id      text,
  on_behalf_of   text,
  action         text NOT NULL,
  params         jsonb NOT NULL DEFAULT '{}',
  result_count   integer
);
CREATE INDEX audit_log_client_idx ON audit_log (client_id, at DESC);

-- Ground truth of the generated demo world. Read by the evaluation, never by the API.
CREATE TABLE truth_segments (
  company_id  text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  segment_id  text NOT NULL,
  industry_id text,
  size_tier   text,
  region      text,
  maturity    text
);
CREATE INDEX truth_segments_segment_idx ON truth_segments (segment_id);

CREATE TABLE truth_installs (
  company_id  text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  product_id  text NOT NULL REFERENCES products (id),
  in_use      boolean NOT NULL,
  kind        text,
  PRIMARY KEY (company_id, product_id)
);
