-- The companies whose derived data (cohorts, company_stacks, co-usage) is out of date: an
-- import that changes installs, companies or a defined cohort adds its companies here in its
-- own transaction, and the refresh removes exactly the entries it read before loading the
-- population. The updated_at stamps alone miss a change committed while a refresh ran: an
-- import's now() is its transaction's start, which can be earlier than the refresh's start
-- although the refresh never saw the rows. No foreign key: a deleted company is simply not
-- found by the refresh.
CREATE TABLE refresh_pending (
  seq         bigserial PRIMARY KEY,
  company_id  text NOT NULL,
  marked_at   timestamptz NOT NULL DEFAULT now()
);
