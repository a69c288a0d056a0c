-- Who has a company among its Default peers: the AI helper's peer inference asks, for the
-- users of a product, which companies count them in their Default cohort. The primary key
-- (company_id, kind, member_id) answers only the other direction, so that question read
-- every cohort row (a sequential scan compared against thousands of ids: 5 s and more for
-- a category prompt on the 5,000-company demo world). Partial: only Default cohorts are asked.
CREATE INDEX cohorts_default_member_idx ON cohorts (member_id, company_id) WHERE kind = 'default';
