-- A company's domain as a table of its own, keyed by the domain: the uniqueness of
-- companies.domain where a UNIQUE constraint on companies cannot hold it. On a Citus cluster
-- companies are sharded by id and lose UNIQUE (domain) (docs/scale-out.md, "Domain
-- lookups"); company_domains is sharded by the domain, so its primary key is the domain's
-- uniqueness across the cluster and a lookup by domain is one shard. On every engine the
-- writers of companies write it in the same transaction (the importer claims a file's new
-- domains here first, the detection run, the seed; deleting a company deletes its row), and
-- the importer resolves the domains a file names through it. No foreign key: on Citus the two
-- tables are sharded apart, and the writers keep them together on every engine alike.
CREATE TABLE company_domains (
  domain text PRIMARY KEY,
  company_id text NOT NULL
);
CREATE INDEX company_domains_company_idx ON company_domains (company_id);
INSERT INTO company_domains (domain, company_id) SELECT domain, id FROM companies;

-- A news item is identified within its company (the key a Citus cluster gives feed_items):
-- the importer's conflict target on every engine. The item id stays unique on its own here
-- (the primary key); the importer moves an item to another company as delete + insert.
CREATE UNIQUE INDEX feed_items_company_item_key ON feed_items (company_id, id);
