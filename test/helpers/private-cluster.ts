// A private PostgreSQL cluster for the fault tests (stopped, frozen, restarted by the test):
// initdb in a temp folder, its own free port, removed afterwards. Needs the PostgreSQL
// server binaries (initdb, pg_ctl), as CI and the development machines have.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { canInitdb, ensureDatabase, startCluster, type Cluster } from '../../scripts/lib/pg-cluster.ts';

export interface PrivateCluster {
  cluster: Cluster;
  /** A connection string to a fresh database of the cluster. */
  url: string;
  remove(): void;
}

/** Why the fault tests cannot run here, or undefined when they can. */
export function privateClusterUnavailable(): string | undefined {
  return canInitdb() ? undefined : 'no PostgreSQL server binaries (initdb) on this machine';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-faults-'));
  fs.chmodSync(root, 0o755); // the postgres user (when run as root) must reach the data folder
  const dir = path.join(root, 'data');
  const port = Number(process.env.FAULT_TEST_PG_PORT) || (await freePort());
  const cluster = startCluster({
    dir,
    port,
    logFile: path.join(dir, 'server.log'),
    // A throwaway cluster: durability off, small memory.
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', shared_buffers: '32MB', max_connections: '40' },
    log: () => {},
  });
  try {
    await ensureDatabase(cluster.url('postgres'), 'stacklens');
  } catch (err) {
    cluster.stop();
    throw err;
  }
  return {
    cluster,
    url: cluster.url('stacklens'),
    remove() {
      try {
        cluster.thaw();
        cluster.stop();
      } catch {
        /* already stopped */
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
