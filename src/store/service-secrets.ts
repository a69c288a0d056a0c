// SQL for service_secrets: a named secret, created once (first writer wins).
import type { Db } from '../db/db.ts';

/** The stored secret of this name; stores `candidate` first when there is none yet. */
export async function getOrCreateSecret(db: Db, name: string, candidate: string): Promise<string> {
  // Inserted here → the RETURNING row; already there → the stored one. A concurrent first
  // insert can leave both empty for this statement's snapshot: then read again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await db.query<{ value: string }>(
      `WITH ins AS (
       INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value
     ) SELECT value FROM ins UNION ALL SELECT value FROM service_secrets WHERE name = $1 LIMIT 1`,
      [name, candidate],
    );
    if (row) return row.value;
  }
  throw new Error(`service secret '${name}' could not be read or created`);
}
