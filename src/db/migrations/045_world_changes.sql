-- The world's change count, for caches of it in server processes (the market-sizing index):
-- every statement that changes what market sizing counts (companies' firmographics and
-- installs; the catalog has reference_version) adds a row of weight 1 in its own transaction,
-- so a reader that sums the weights in its snapshot knows exactly which writes its snapshot
-- holds: two sums are equal only if no such write committed between them. Unlike a counter
-- row, concurrent writers never wait for each other here. Rows are folded together now and
-- then (the sum kept), so the table stays small.
CREATE TABLE world_changes (
  id      bigserial PRIMARY KEY,
  weight  bigint NOT NULL DEFAULT 1 CHECK (weight > 0)
);

CREATE FUNCTION note_world_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO world_changes DEFAULT VALUES;
  RETURN NULL;
END $$;

-- Updates count only when they touch a counted column: a detection run that refreshes
-- last_verified or intensity leaves the counts as they are.
CREATE TRIGGER companies_world_change AFTER INSERT OR DELETE OR TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION note_world_change();
CREATE TRIGGER companies_world_change_update AFTER UPDATE OF id, name, domain, country, industry_id, employee_band, revenue_band ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION note_world_change();
CREATE TRIGGER installs_world_change AFTER INSERT OR DELETE OR TRUNCATE ON installs
  FOR EACH STATEMENT EXECUTE FUNCTION note_world_change();
CREATE TRIGGER installs_world_change_update AFTER UPDATE OF company_id, product_id ON installs
  FOR EACH STATEMENT EXECUTE FUNCTION note_world_change();
