// A private primary and its streaming replica for the read-routing test, made with the
// machine's PostgreSQL tools: initdb a primary (wal_level=replica; initdb --auth=trust
// already lets local replication connections in), pg_basebackup -R a standby from it (the
// -R writes standby.signal and primary_conninfo), and start the standby on the next port.
// Ports: REPLICA_TEST_PG_PORT (primary; the standby takes the next one), else free ones.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { canInitdb, ensureDatabase, pgBin, runPg, startCluster, type Cluster } from '../../scripts/lib/pg-cluster.ts';
import { freePort } from './serve-process.ts';

export interface ReplicaPair {
  primary: Cluster;
  standby: Cluster;
  primaryUrl: string;
  standbyUrl: string;
  /** Resolves when the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  remove(): void;
}

/** Why a replica cannot be made here, or undefined when it can. */
export function replicaUnavailable(): string | undefined {
  if (!canInitdb()) return 'no PostgreSQL server binaries (initdb) on this machine: the replica test needs a private primary and standby';
  try {
    execFileSync(pgBin('pg_basebackup'), ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no pg_basebackup on this machine: the replica test cannot make a standby';
  }
  return undefined;
}

const THROWAWAY = { fsync: 'off', full_page_writes: 'on', shared_buffers: '32MB', max_connections: '40' };

export async function startReplicaPair(): Promise<ReplicaPair> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-replica-'));
  fs.chmodSync(root, 0o755);
  // As root, initdb, pg_basebackup and the servers run as postgres: they write in this folder.
  if (os.userInfo().uid === 0) execFileSync('chown', ['postgres:postgres', root]);
  const configured = Number(process.env.REPLICA_TEST_PG_PORT) || 0;
  const primaryPort = configured || (await freePort());
  const standbyPort = configured ? configured + 1 : await freePort();
  const log = () => {};
  const primaryDir = path.join(root, 'primary');
  const primary = startCluster({
    dir: primaryDir,
    port: primaryPort,
    logFile: path.join(root, 'primary.log'),
    log,
    settings: { ...THROWAWAY, wal_level: 'replica', max_wal_senders: '4', hot_standby: 'on' },
  });
  const standbyDir = path.join(root, 'standby');
  let standby: Cluster | undefined;
  try {
    await ensureDatabase(primary.url('postgres'), 'stacklens');
    fs.mkdirSync(standbyDir, { mode: 0o700 });
    if (os.userInfo().uid === 0) execFileSync('chown', ['postgres:postgres', standbyDir]);
    runPg(pgBin('pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ]);
    // The standby has a PG_VERSION, so startCluster starts it without initdb.
    standby = startCluster({ dir: standbyDir, port: standbyPort, logFile: path.join(root, 'standby.log'), log, settings: { ...THROWAWAY, hot_standby: 'on' } });
  } catch (err) {
    standby?.stop();
    primary.stop();
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }
  const pair: ReplicaPair = {
    primary,
    standby,
    primaryUrl: primary.url('stacklens'),
    standbyUrl: standby.url('stacklens'),
    async caughtUp(timeoutMs = 20_000) {
      const p = new pg.Client({ connectionString: pair.primaryUrl });
      const s = new pg.Client({ connectionString: pair.standbyUrl });
      await p.connect();
      await s.connect();
      try {
        const { rows } = await p.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const r = await s.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [rows[0]!.lsn]);
          if (r.rows[0]!.ok) return;
          if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${rows[0]!.lsn} within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await p.end();
        await s.end();
      }
    },
    remove() {
      for (const c of [standby!, primary]) {
        try {
          c.stop();
        } catch {
          /* already stopped */
        }
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return pair;
}
