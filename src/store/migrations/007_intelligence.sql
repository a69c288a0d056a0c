-- Intelligence: global co-usage statistics behind related products, materialized by the
-- refresh job (cohort-level co-usage is computed at request time from the members).

-- Companies with the product in use (evidence says in use at the refresh's as-of date).
CREATE TABLE product_usage_stats (
  product_id  text PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
  companies   integer NOT NULL CHECK (companies >= 0)
);

-- For each anchor product, how many companies use both it and product_id (top pairs only).
CREATE TABLE product_cousage (
  anchor_id   text NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  product_id  text NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  together    integer NOT NULL CHECK (together > 0),
  PRIMARY KEY (anchor_id, product_id),
  CHECK (anchor_id <> product_id)
);

CREATE INDEX refresh_runs_kind_idx ON refresh_runs (kind, id DESC);
