-- Each company's in-use products as of the refresh that computed them: usage
-- benchmarks, stack comparisons and related products read a peer's stack as one short row
-- instead of re-scoring its install evidence on every request. One row per refreshed company
-- (an empty array when nothing is in use), so a missing row means "not computed yet" and the
-- reader scores that company's evidence itself (services/stacks.ts).
CREATE TABLE company_stacks (
  company_id   text PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  product_ids  text[] NOT NULL
);
