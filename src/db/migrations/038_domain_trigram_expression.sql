-- Equality on companies.domain went through the trigram index: pg_trgm answers `=` too, and
-- for an array of domains (a detection run's lookup of its 500 sites, `domain = ANY($1)`)
-- PostgreSQL chose it over the unique index, even analyzed: 5 s for 500 domains among 10,000
-- companies, every domain sharing trigrams (".co", "com", "ple") with most others. The
-- trigram index now covers lower(domain) — domains are stored lower-case, so it finds the same
-- rows — which equality on `domain` never matches; free-text search reads lower(c.domain).
DROP INDEX companies_domain_trgm_idx;
CREATE INDEX companies_domain_trgm_idx ON companies USING gin (lower(domain) gin_trgm_ops);
