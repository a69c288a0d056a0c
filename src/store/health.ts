// Database liveness query for the readiness probe.
import type { Db } from './db.ts';

export async function pingDatabase(db: Db, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([db.query('SELECT 1'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
