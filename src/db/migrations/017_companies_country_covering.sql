-- Company search by country: the country index also carries what the search's
-- match set needs (id for the install join, name and domain for the sort key), so a filter
-- on a large country is an index-only scan of ~200 pages instead of a scan of the whole
-- table (3,350 pages at 50,000 companies): product + US, EXPLAIN ANALYZE 48 → 13 ms. It
-- replaces the plain country index, which it serves as well.
CREATE INDEX companies_country_covering_idx ON companies (country, id) INCLUDE (name, domain);
DROP INDEX companies_country_idx;
