-- Row estimates of per-company lookups at scale (scale L). PostgreSQL estimates
-- a column's distinct values from a 30,000-row sample; on 30.7 M installs of 1,000,000
-- companies it guessed 63,000 companies, so one company's installs were estimated at 487
-- rows instead of ~31, and point reads planned whole-catalog joins (the products page's
-- database time 3.4 ms against 1.0 ms at 50,000 companies). A distinct-ratio keeps the
-- estimate right at every size (a negative n_distinct is distinct values ÷ rows). These are
-- the demo world's ratios (installs ~31 per company, feed items ~13, people ~9, computed
-- cohort rows ~100); a plan needs only the order of magnitude, and an operator whose data
-- differs much can set their own with the same statement.
ALTER TABLE installs ALTER COLUMN company_id SET (n_distinct = -0.03);
ALTER TABLE feed_items ALTER COLUMN company_id SET (n_distinct = -0.08);
ALTER TABLE people ALTER COLUMN company_id SET (n_distinct = -0.1);
ALTER TABLE cohorts ALTER COLUMN company_id SET (n_distinct = -0.01);
-- The setting is read by ANALYZE: sample now (seconds, whatever the size).
ANALYZE installs, feed_items, people, cohorts;
