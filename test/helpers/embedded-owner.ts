// A process that owns a PGlite data folder (and so shares it on its socket) with short
// sharing limits, for the embedded-socket tests: `node --import tsx embedded-owner.ts DIR
// HOLD_MS IDLE_MS`. Prints "ready" once shared; closes when its stdin ends.
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';

const [dataDir, holdMs, idleMs] = process.argv.slice(2);
const db = await openDb({ dataDir, sharingLimits: { holdMs: Number(holdMs), idleMs: Number(idleMs), waitMs: 5000 } });
await migrate(db);
await db.query('CREATE TABLE IF NOT EXISTS visits (n int)');
// The owner keeps using its own named prepared statements while visitors come and go.
const timer = setInterval(
  () => void db.query('SELECT count(*)::int AS n FROM visits WHERE n > $1', [0]).catch((err) => console.error(`owner query failed: ${err.message}`)),
  50,
);
console.log('ready');
process.stdin.resume();
process.stdin.on('end', async () => {
  clearInterval(timer);
  await db.close();
  process.exit(0);
});
