-- A full refresh split into partitions (companies by a hash of their id) that worker processes
-- take from the job queue: one row per partition, its state, the worker that holds it, how far
-- it has come, and how many times it was taken (a worker that died has its job taken again
-- once the queue's lease expires). The run's last partition writes the co-usage statistics and
-- finishes the run.
CREATE TABLE refresh_partitions (
  run_id       bigint NOT NULL REFERENCES refresh_runs (id) ON DELETE CASCADE,
  part         integer NOT NULL CHECK (part >= 0),
  parts        integer NOT NULL CHECK (parts > 0 AND part < parts),
  state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done')),
  worker       text,
  attempts     integer NOT NULL DEFAULT 0,
  done         integer NOT NULL DEFAULT 0,
  total        integer,
  started_at   timestamptz,
  finished_at  timestamptz,
  PRIMARY KEY (run_id, part)
);
