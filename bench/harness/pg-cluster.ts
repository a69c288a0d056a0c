// The benchmark's private PostgreSQL cluster: the shared one (scripts/lib/pg-cluster.ts) with
// pg_stat_statements loaded and a log the SQL capture can read. Never the machine's shared
// service: the harness reads its processes' CPU and switches statement logging on and off,
// which would disturb anyone else's database.
import { startCluster as startPrivateCluster, type Cluster } from '../../scripts/lib/pg-cluster.ts';

export { ensureDatabase, pgBin, type Cluster } from '../../scripts/lib/pg-cluster.ts';

export function startCluster(opts: { dir: string; port: number; logFile: string }): Cluster {
  return startPrivateCluster({ ...opts, settings: { shared_preload_libraries: 'pg_stat_statements', shared_buffers: '512MB' } });
}
