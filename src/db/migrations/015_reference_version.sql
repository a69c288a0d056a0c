-- Reference version: one counter that every change to the reference data
-- (industries, categories, vendors, products) bumps, in the same transaction as the change.
-- Servers keep the JSON answers of reference reads (category and industry lists, the vendor
-- list) in memory with an ETag and probe this one row per request; a changed number drops
-- them, so an import made by any process (CLI, another instance, plain SQL) shows on the
-- next request, and an unchanged answer revalidates with 304.
CREATE TABLE reference_version (
  id       boolean PRIMARY KEY DEFAULT true CHECK (id),
  version  bigint NOT NULL
);
INSERT INTO reference_version (id, version) VALUES (true, 1);

CREATE FUNCTION bump_reference_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reference_version SET version = version + 1 WHERE id;
  RETURN NULL;
END;
$$;

-- Row changes and TRUNCATE (the demo world's --replace) of each reference table.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['industries', 'categories', 'vendors', 'products'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR DELETE OR UPDATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version()',
                   t || '_reference_version', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version()',
                   t || '_reference_version_truncate', t);
  END LOOP;
END;
$$;
