// The job queue (pg-boss, in the database) on our database handle: webhook deliveries and the
// partitions of a full refresh use the same queue, each under its own queue name.
import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/db.ts';

/** A pg-boss connection that runs on our database handle (both engines; inside a transaction when given one). */
export function bossDb(db: Queryable): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: await db.query(text, values) }) };
}
