-- Indexes for the CSV exports. Both exports read every match in keyset batches;
-- without an index matching the batch order each batch scanned and sorted the whole table.

-- Company search order (store/companies.ts): lower(coalesce(name, domain)), then id.
CREATE INDEX IF NOT EXISTS companies_sort_key_idx ON companies (lower(coalesce(name, domain)), id);

-- People export for one country, in id order (store/profiles.ts).
CREATE INDEX IF NOT EXISTS people_country_id_idx ON people (country, id);
