-- When each install row last changed, so the incremental refresh finds the companies whose
-- evidence an import changed. Until now it looked for `last_verified` newer than the last
-- refresh, which misses re-imported or corrected evidence dated in the past (an updated hit
-- count, a back-filled install): those companies kept their old cohorts until a full refresh.
-- now() is evaluated once here, so existing rows get one value without a table rewrite.
ALTER TABLE installs ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
