-- Access version: one counter that every change to what a credential may do bumps,
-- in the same transaction as the change. A server caches resolved API-key principals and
-- probes this one row per request; a changed number drops its cache, so a revocation, a
-- disabled client or a plan change made by any process (CLI, another instance, plain SQL)
-- takes effect on the next request. `last_used_at` stamps do not bump it.
CREATE TABLE access_version (
  id       boolean PRIMARY KEY DEFAULT true CHECK (id),
  version  bigint NOT NULL
);
INSERT INTO access_version (id, version) VALUES (true, 1);

CREATE FUNCTION bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE access_version SET version = version + 1 WHERE id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_access_version
  AFTER INSERT OR DELETE OR UPDATE OF id, client_id, prefix, key_hash, revoked_at ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER api_keys_access_version_truncate
  AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();

CREATE TRIGGER api_clients_access_version
  AFTER INSERT OR DELETE OR UPDATE OF id, name, plan_id, secret_hash, secret_rotated_at, disabled_at, external_id ON api_clients
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER api_clients_access_version_truncate
  AFTER TRUNCATE ON api_clients FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();

CREATE TRIGGER plans_access_version
  AFTER INSERT OR DELETE OR UPDATE ON plans
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER plans_access_version_truncate
  AFTER TRUNCATE ON plans FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
