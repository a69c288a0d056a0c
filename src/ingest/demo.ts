// First-start demo world: when the database holds no data, seed the default world, compute
// its cohorts (refresh job) and create the demo client.
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { seedWorld } from './seed/index.ts';
import { hasWorldData } from '../store/seed.ts';
import { createDemoClient } from '../auth/demo-client.ts';
import { refreshInBulkLoad, type RefreshResult } from './refresh.ts';

export async function ensureDemoWorld(db: Db, config: Config, say: (line: string) => void): Promise<void> {
  if (!config.seedDemo) return;
  // Any company or catalog row means the operator's own data (or an earlier world): keep it.
  if (await hasWorldData(db)) return;
  say(`First start: generating the demo world (${config.demoCompanies} companies, seed '${config.demoSeed}')...`);
  const started = Date.now();
  let refreshed: RefreshResult | undefined;
  await seedWorld(db, {
    companies: config.demoCompanies,
    seed: config.demoSeed,
    // The first refresh inside the world's bulk load (seed/index.ts says why).
    afterLoad: async (tx, restoreWorldIndexes) => {
      say(`Demo world generated in ${((Date.now() - started) / 1000).toFixed(1)} s; computing cohorts and co-usage...`);
      refreshed = await refreshInBulkLoad(tx, restoreWorldIndexes);
    },
  });
  say(`Demo world ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${refreshed!.cohortRows} cohort rows).`);
  // Only on the start that seeds: a restart, or a second instance on the same database,
  // never mints more credentials (`stacklens clients create` / `keys create` do).
  await createDemoClient(db, config, say);
}
