-- Idempotent replays byte for byte. Replies are now written with JSON.stringify of
-- the service's value, in its key order, no longer re-encoded in the schema's order; jsonb
-- stores keys sorted by length, so a replayed purchase answer came back with its fields in
-- another order than the first answer. `json` keeps the stored text as written.
ALTER TABLE idempotency_keys ALTER COLUMN response TYPE json USING response::json;
