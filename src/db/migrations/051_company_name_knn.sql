-- Account lists match a row's name to the nearest company names by trigram distance (pg_trgm's
-- `<->`), which a GiST index answers in distance order, stopping after the first few. The GIN
-- index (companies_name_trgm_idx, kept for the search's "name contains") answers `%` only by
-- rechecking every company that shares enough trigrams with the name: with many similar names
-- (thousands of "… Technologies" in one country) one row took ~100 ms at 50,000 companies.
CREATE INDEX companies_name_gist_idx ON companies USING gist (name gist_trgm_ops);
