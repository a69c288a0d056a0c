// First-start demo world: when the database holds no data, seed the default world, compute
// its cohorts (refresh job) and create the demo client.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { withinTransaction, type Db } from '../store/db.ts';
import { prepareWorld, seedWorld, type PreparedWorld } from './seed/index.ts';
import { hasWorldData } from '../store/seed.ts';
import { createDemoClient } from '../auth/demo-client.ts';
import { refreshAll, type RefreshResult } from './refresh.ts';

/**
 * The demo world's generation, started before the database opens when this is surely a first
 * start: demo mode on the embedded database and no data folder yet. The generator thread then
 * works while the database is created and migrated (seconds in which the second core idles).
 * ensureDemoWorld takes it over (or closes it).
 */
export function startDemoWorldEarly(config: Config): PreparedWorld | undefined {
  if (process.env.NO_EARLY || !config.seedDemo || config.databaseUrl || existsSync(path.join(config.dataDir, 'pglite'))) return undefined;
  return prepareWorld({ companies: config.demoCompanies, seed: config.demoSeed });
}

export async function ensureDemoWorld(db: Db, config: Config, say: (line: string) => void, early?: PreparedWorld): Promise<void> {
  // Any company or catalog row means the operator's own data (or an earlier world): keep it.
  if (!config.seedDemo || (await hasWorldData(db))) {
    await early?.close();
    return;
  }
  say(`First start: generating the demo world (${config.demoCompanies} companies, seed '${config.demoSeed}')...`);
  const started = Date.now();
  let refreshed: RefreshResult | undefined;
  await seedWorld(db, {
    companies: config.demoCompanies,
    seed: config.demoSeed,
    prepared: early,
    // The first refresh inside the world's bulk load (seed/index.ts says why).
    afterLoad: async (tx) => {
      say(`Demo world generated in ${((Date.now() - started) / 1000).toFixed(1)} s; computing cohorts and co-usage...`);
      refreshed = await refreshAll(withinTransaction(tx));
    },
  });
  say(`Demo world ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${refreshed!.cohortRows} cohort rows).`);
  // Only on the start that seeds: a restart, or a second instance on the same database,
  // never mints more credentials (`stacklens clients create` / `keys create` do).
  await createDemoClient(db, config, say);
}
