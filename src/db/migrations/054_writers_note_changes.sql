-- The writers note their own changes, in the same transaction as the change, instead of
-- statement triggers on the world tables: the catalog's reference_version bump, the
-- world_changes row of a write to companies or installs, the company.changed and feed.item
-- events, and the removal of a deleted company's cohorts (src/store/change-notes.ts, called
-- by the importer, the detection run, the seed and the evaluation labels).
-- Why: on a Citus cluster a distributed or reference table's triggers run on the shards, on
-- the workers, where the coordinator's tables (reference_version's single row as the
-- coordinator writes it, world_changes, events) cannot be written (docs/scale-out.md).
-- What an operator loses: a change made with plain SQL is no longer noted (see
-- docs/operations.md, "Changing data by hand"). The append-only guards of observations and
-- site_visits (row triggers that only raise an error) and the access version of the
-- credential tables (local tables) stay.
DROP TRIGGER industries_reference_version ON industries;
DROP TRIGGER industries_reference_version_truncate ON industries;
DROP TRIGGER categories_reference_version ON categories;
DROP TRIGGER categories_reference_version_truncate ON categories;
DROP TRIGGER vendors_reference_version ON vendors;
DROP TRIGGER vendors_reference_version_truncate ON vendors;
DROP TRIGGER products_reference_version ON products;
DROP TRIGGER products_reference_version_truncate ON products;
DROP FUNCTION bump_reference_version();

DROP TRIGGER companies_world_change ON companies;
DROP TRIGGER companies_world_change_update ON companies;
DROP TRIGGER installs_world_change ON installs;
DROP TRIGGER installs_world_change_update ON installs;
DROP FUNCTION note_world_change();

DROP TRIGGER companies_changes ON companies;
DROP FUNCTION companies_record_changes();
DROP TRIGGER feed_items_added ON feed_items;
DROP FUNCTION feed_items_record_added();

DROP TRIGGER companies_delete_cohorts ON companies;
DROP FUNCTION cohorts_cascade_company_delete();
