// The one database port: node-postgres over a PostgreSQL server (DATABASE_URL) or over
// embedded PGlite through its node-postgres adapter. Same SQL on both engines.
//
// One SQL style for the whole store: raw, parameterized SQL text (`$n` placeholders, explicit
// casts, set-based `unnest` batches), built with `Params` (sql.ts) where conditions vary.
// Raw SQL was already ~150 of the ~175 statements when the store had two styles, and the
// queries that matter (cohorts, co-usage, trigram search, COPY staging, keyset exports)
// are the ones a query builder cannot say; a reader sees the statement PostgreSQL runs.
// Row shapes are declared once in schema.ts and checked against the migrated database.
import path from 'node:path';
import pg from 'pg';
import { finished } from 'node:stream/promises';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { CopyData } from './copy-text.ts';
import { acquireDirLock, DataDirLockedError, lockHolder, type DirLock } from './lock.ts';
import { makePrivateDir, restrictTree } from './data-dir.ts';
import { shareEmbeddedDatabase, socketDir, socketPath, SOCKET_PORT, type SharedSocket, type SharingLimits } from './embedded-socket.ts';
import { asServiceError, Availability, DatabaseUnavailableError, sendCancelRequest } from './db-faults.ts';
import { currentQueryLimits, statementEnd, type QueryLimits } from './query-limits.ts';
import { observeStatement } from '../telemetry/metrics.ts';

export type Engine = 'pglite' | 'postgres';

/** What runs statements: the database (any pooled connection) or one open transaction. */
export interface Queryable {
  /** Runs a parameterized statement and returns its rows. */
  query<R extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** The same, each row an array of its column values: cheaper to parse for bulk reads. */
  queryArrays<R extends unknown[] = unknown[]>(text: string, params?: unknown[]): Promise<R[]>;
}

/** An open transaction: store functions that must run inside one take it instead of `Db`. */
export interface Tx extends Queryable {
  /**
   * Bulk-writes rows encoded in COPY's text format (copy-text.ts) with `COPY ... FROM STDIN`:
   * the cheapest way in on both engines (PGlite through pglite-copy.ts).
   */
  copyFrom(data: CopyData): Promise<void>;
}

/**
 * What a job needs that writes in transactions of its own but may itself run inside a caller's
 * transaction (the refresh: alone after an import, or inside the demo world's bulk load).
 */
export type Transactional = Queryable & Pick<Db, 'transaction'>;

/**
 * An open transaction seen as a Transactional: the transactions asked of it are its own, so
 * they commit or roll back with the enclosing one (no savepoints: one failure fails it all).
 */
export function withinTransaction(tx: Tx): Transactional {
  return {
    query: (text, params) => tx.query(text, params),
    queryArrays: (text, params) => tx.queryArrays(text, params),
    transaction: (fn) => fn(tx),
  };
}

export interface TransactionOptions {
  readOnly?: boolean;
  /** Absent: the server's default (READ COMMITTED unless configured otherwise). */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
}

export interface Db extends Queryable {
  readonly engine: Engine;
  /**
   * Runs `fn` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when
   * it throws. Inside, use only `tx`: on PGlite the pool has one connection, which `fn`
   * holds, so a statement sent through `db` meanwhile would wait forever.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * The driver's pool. Only the file import uses it (store/import/*, ingest/import): its
   * `COPY ... FROM STDIN` needs the driver's client and its own BEGIN/ROLLBACK, and nothing
   * else here speaks COPY. Everything else goes through `query`/`queryArrays`/`transaction`.
   */
  readonly pool: pg.Pool;
  /**
   * Whether the database is a Citus coordinator (the `citus` extension in it, seen at open):
   * its writing transactions then start as `beginStatements` says.
   */
  readonly citus: boolean;
  /** Up or down as the last statements saw it; emits one 'change' per outage and recovery. */
  readonly availability: Availability;
  /** PGlite only: wire-protocol batches its worker has not answered yet (/metrics). */
  readonly embeddedPendingCalls?: () => number;
  /**
   * PGlite opened by this process only: its data folder as a tarball, after a CHECKPOINT (a
   * consistent copy), to start another in-memory database from (`snapshot`).
   */
  readonly embeddedSnapshot?: () => Promise<Uint8Array>;
  /**
   * PGlite only: set when another process owns the data folder and this Db works through
   * it (its socket, embedded-socket.ts); absent when this process opened the database itself.
   */
  readonly visiting?: { ownerPid: number; socketPath: string };
  /**
   * Where read-only work that may lag may go: a streaming replica when DATABASE_READ_URL is
   * set (its own pool and availability), else this same Db. Only the GET-style services
   * that need no read-your-writes use it (company search, a company's products,
   * firmographics and feed pages, peers, related products, products in use). On the primary
   * stay: authentication (a revoked key is refused at once), credits, purchases,
   * idempotency, audit, jobs, everything that writes, and reference answers (vendors,
   * categories: kept in memory under the primary's reference version, so loading them from
   * a lagging replica would keep a stale answer). A replica refuses writes (`read-only
   * transaction`), so a misrouted write fails loudly instead of going astray.
   */
  readonly read: Db;
  close(): Promise<void>;
}

/** Time limits of the database connection (the per-request limits come from query-limits.ts). */
export interface DbTimeouts {
  /** Longest wait to open a new connection (a refused one fails at once). */
  connectMs: number;
  /** Longest wait for a pooled connection (on PGlite: for its one connection), within the request's limit. */
  acquireMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = { connectMs: 2000, acquireMs: 2000 };

export interface OpenDbOptions {
  /** PostgreSQL connection string; absent → PGlite. */
  databaseUrl?: string;
  /** PostgreSQL only: a read replica for `db.read` (same schema, same pool size). */
  readUrl?: string;
  /** PGlite data folder; absent → in memory. Ignored for PostgreSQL. */
  dataDir?: string;
  poolSize?: number;
  /** PostgreSQL only: the schema to work in (tests use a fresh one per file). */
  schema?: string;
  /**
   * Name parameterized statements so each connection prepares them once (default true).
   * Off behind a connection pooler in transaction mode, where the next statement may reach
   * a server connection that never prepared it.
   */
  preparedStatements?: boolean;
  timeouts?: DbTimeouts;
  /**
   * PGlite with a data folder that another process owns (a running server): 'visit' works
   * through that process's socket (embedded-socket.ts); 'refuse' (default) throws
   * DataDirLockedError, as `serve` must (it cannot serve a database it does not own).
   */
  whenOwned?: 'refuse' | 'visit';
  /** PGlite: start in memory from this data folder tarball (a backup's snapshot). */
  snapshot?: Uint8Array;
  /** PGlite owner of a data folder: limits on visiting processes (tests shorten them). */
  sharingLimits?: SharingLimits;
}

// int8 (counts, bigserial ids) as JS numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// numeric as number: ratings and shares, never money.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/**
 * A driver client that can never end the process with an unheard 'error' event. A connection
 * lost while no statement runs (PostgreSQL stopping sends "terminating connection due to
 * administrator command" to every backend) is emitted as 'error' on its client. pg-pool and
 * our leases listen while they hold a client, yet one such event went unheard in the outage
 * test under load (CI run of 2026-11-25) and ended the process; the window could not be
 * traced, so every client listens from birth. The loss still reaches whoever uses the
 * client next, as the failed statement; this listener only makes sure it is heard.
 */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {});
  }
}

export async function openDb(options: OpenDbOptions = {}): Promise<Db> {
  if (!options.databaseUrl) return openPglite(options);
  const primary = await openPostgres(options, options.databaseUrl);
  if (!options.readUrl) return primary;
  let replica: Db;
  try {
    replica = await openPostgres(options, options.readUrl);
  } catch (err) {
    await primary.close();
    throw err;
  }
  const closePrimary = primary.close.bind(primary);
  let closed: Promise<void> | undefined;
  Object.defineProperty(primary, 'read', { value: replica, enumerable: true });
  return Object.assign(primary, {
    close() {
      closed ??= Promise.all([closePrimary(), replica.close()]).then(() => {});
      return closed;
    },
  });
}

async function openPostgres(options: OpenDbOptions, connectionString: string): Promise<Db> {
  const timeouts = options.timeouts ?? DEFAULT_DB_TIMEOUTS;
  // The connect timeout goes to each Client only: given to the pool, pg-pool would also
  // apply it to the wait for a pooled connection, which has its own limit here.
  const connectionTimeoutMillis = timeouts.connectMs;
  class TimedClient extends GuardedClient {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis });
    }
  }
  const pool = new pg.Pool({
    Client: TimedClient,
    connectionString,
    max: options.poolSize ?? 10,
    // Schema names are generated by us (tests), never user input, but quote anyway.
    options: options.schema ? `-c search_path="${options.schema.replace(/"/g, '')}",public` : undefined,
  } as pg.PoolConfig);
  pool.on('error', () => {
    /* an idle client died (server restart); the pool replaces it on next checkout */
  });
  const [{ citus }] = (await pool.query("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus")).rows;
  return makeDb(
    'postgres',
    pool,
    options.preparedStatements ?? true,
    timeouts,
    async () => {
      await pool.end();
    },
    citus === true,
  );
}

async function openPglite(options: OpenDbOptions): Promise<Db> {
  const { PgliteThread } = await import('./pglite-thread.ts');
  const { takeEmbeddedEarly } = await import('./embedded-early.ts');
  let lock: DirLock | undefined;
  let dataDir: string | undefined;
  // Started before the server's modules loaded (cli/early-start.ts), or now.
  const early = options.dataDir && !options.snapshot ? takeEmbeddedEarly(options.dataDir) : undefined;
  if (early) {
    lock = early.lock;
    dataDir = path.join(options.dataDir!, 'pglite');
  } else if (options.dataDir) {
    makePrivateDir(options.dataDir);
    try {
      lock = acquireDirLock(options.dataDir);
    } catch (err) {
      if (!(err instanceof DataDirLockedError) || options.whenOwned !== 'visit') throw err;
      return visitOwner(options, err);
    }
    dataDir = path.join(options.dataDir, 'pglite');
  }
  // On a worker thread, so statements never block this thread's event loop (pglite-thread.ts).
  const thread = early?.thread ?? new PgliteThread(dataDir, options.snapshot);
  let shared: SharedSocket | undefined;
  try {
    await thread.waitReady;
    // What PGlite unpacked on a first start (0666 files), or an older version left, made
    // private. Only the database's own tree: DATA_DIR may be a folder that holds other things.
    if (dataDir) restrictTree(dataDir);
    // PGlite serves one connection: a pool of one serializes every caller onto it, kept open
    // (a reconnect resets the session: see the worker's 'reset').
    const pool = new pg.Pool({
      Client: GuardedClient,
      max: 1,
      idleTimeoutMillis: 0,
      user: 'postgres',
      database: 'postgres',
      stream: () => thread.connectionStream(),
    } as pg.PoolConfig);
    pool.on('error', () => {
      /* the worker stopped; the next checkout reports it */
    });
    // The owner of a data folder lets the other local processes in (the CLI, stdio MCP).
    if (options.dataDir) shared = await shareEmbeddedDatabase(options.dataDir, pool, thread, options.sharingLimits);
    const db = makeDb('pglite', pool, options.preparedStatements ?? true, options.timeouts ?? DEFAULT_DB_TIMEOUTS, async () => {
      await shared?.close(); // visitors are cut off (their open transactions rolled back) first
      await pool.end();
      await thread.close(); // CHECKPOINT, then close
      lock?.release();
    });
    return Object.assign(db, { embeddedPendingCalls: () => thread.pendingCalls, embeddedSnapshot: () => thread.dump() });
  } catch (err) {
    await shared?.close().catch(() => {});
    await thread.close().catch(() => {});
    lock?.release();
    throw err;
  }
}

/** How long a visitor waits for a starting owner's socket (its first start runs initdb). */
const OWNER_SOCKET_WAIT_MS = 60_000;

/**
 * Works through the process that owns the data folder: node-postgres over its Unix socket,
 * one connection, unnamed statements only (the session is shared with the owner's named
 * ones). Waits while the owner is starting (locked, socket not yet listening).
 */
async function visitOwner(options: OpenDbOptions, locked: DataDirLockedError): Promise<Db> {
  const dataDir = options.dataDir!;
  const deadline = Date.now() + OWNER_SOCKET_WAIT_MS;
  for (;;) {
    const ownerPid = lockHolder(dataDir);
    if (ownerPid === undefined) return openPglite(options); // the owner went away meanwhile: open it ourselves
    const pool = new pg.Pool({
      Client: GuardedClient,
      max: 1,
      idleTimeoutMillis: 0,
      host: socketDir(dataDir),
      port: SOCKET_PORT,
      user: 'postgres',
      database: 'postgres',
    } as pg.PoolConfig);
    pool.on('error', () => {
      /* the owner stopped; the next checkout reports it */
    });
    try {
      await pool.query('select 1');
      const db = makeDb('pglite', pool, false, options.timeouts ?? DEFAULT_DB_TIMEOUTS, () => pool.end());
      return Object.assign(db, { visiting: { ownerPid, socketPath: socketPath(dataDir) } });
    } catch (err) {
      await pool.end().catch(() => {});
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ECONNREFUSED') || Date.now() > deadline) {
        throw new DataDirLockedError(`${locked.message} Working through it failed: ${(err as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

function makeDb(engine: Engine, pool: pg.Pool, prepared: boolean, timeouts: DbTimeouts, closeFn: () => Promise<void>, citus = false): Db {
  let closed: Promise<void> | undefined;
  const ctx: Context = { engine, pool, prepared, timeouts, availability: new Availability() };
  const onPool = async (statement: Statement) => {
    const lease = await acquire(ctx);
    let broken: Error | undefined;
    let failed = false;
    try {
      return await lease.run(statement);
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // A text that opens a transaction itself (pg-boss sends `BEGIN; …; COMMIT;` as one text)
      // and fails mid-way leaves it open and aborted; back in the pool, the connection would
      // fail every later statement with "current transaction is aborted". It is rolled back
      // first, or closed when even that fails. After a failure the status at hand may be stale:
      // node-postgres rejects at the server's error message, and the status arrives with the
      // ReadyForQuery behind it, in the same network read or a later one. An empty text (no
      // statement, so allowed in an aborted transaction) waits for it and reports it afresh.
      if (!lease.abandoned) {
        if (failed) await lease.client.query('').catch((e: Error) => (broken = e));
        const status = lease.client.getTransactionStatus();
        if (!broken && (status === 'T' || status === 'E')) {
          await lease.client.query('ROLLBACK').catch((e: Error) => (broken = e));
        }
      }
      lease.release(broken);
    }
  };
  const db: Db = {
    // Itself, until openDb gives it a replica.
    engine,
    pool,
    citus,
    availability: ctx.availability,
    get read() {
      return db;
    },
    ...queryable(onPool),
    async transaction<T>(fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const lease = await acquire(ctx);
      let broken: Error | undefined;
      try {
        for (const text of beginStatements(options, citus)) await lease.run({ text });
        const result = await fn({ ...queryable((statement) => lease.run(statement)), copyFrom: (data) => lease.copyFrom(data) });
        await lease.run({ text: 'COMMIT' });
        return result;
      } catch (err) {
        // A connection that cannot even roll back is closed instead of going back to the pool,
        // and so is one whose statement was given up (time limit, client gone): its transaction
        // is still open, and closing the connection is what rolls it back (PGlite: the next
        // connection's reset).
        if (lease.abandoned) broken = new Error('transaction given up mid-way');
        else await lease.client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        lease.release(broken);
      }
    },
    close() {
      closed ??= closeFn();
      return closed;
    },
  };
  return db;
}

interface Context {
  engine: Engine;
  pool: pg.Pool;
  prepared: boolean;
  timeouts: DbTimeouts;
  availability: Availability;
}

type Statement = { text: string; params?: unknown[]; rowMode?: 'array' };

/** How long a given-up statement may take to end (after its cancel) before its connection is closed. */
const ABANDON_GRACE_MS = 1000;
/** When each connection was first handed out (about when it was opened). */
const bornAt = new WeakMap<pg.PoolClient, number>();

/** A driver error as the service reports it, noted by the availability monitor. */
function failure(ctx: Context, err: unknown, startedAt: number): unknown {
  const mapped = asServiceError(err);
  ctx.availability.failed(mapped, startedAt);
  return mapped;
}

function timeLimitError(limits: QueryLimits | undefined): DatabaseUnavailableError {
  const what = limits?.label ? ` for ${limits.label}` : '';
  return new DatabaseUnavailableError('timeout', `The database did not answer within the time limit${what}; retry after Retry-After seconds`);
}

const clientGone = () => new DatabaseUnavailableError('aborted', 'The request was abandoned by the client; its statement was cancelled');

/**
 * Waits for database work shared by several requests (begun under another request's limits)
 * within this request's own: past its time limit, or when its client goes away, this caller
 * stops waiting with the 503 a statement of its own would give, and the shared work goes on
 * for the others.
 */
export function withinRequestLimits<T>(shared: Promise<T>): Promise<T> {
  const limits = currentQueryLimits();
  const signal = limits?.signal;
  const end = statementEnd(limits, Date.now());
  if (end === undefined && !signal) return shared;
  if (signal?.aborted) return Promise.reject(clientGone());
  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => (finish(), reject(clientGone()));
    const timer = end === undefined ? undefined : setTimeout(() => (finish(), reject(timeLimitError(limits))), Math.max(0, end - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    shared.then(
      (value) => (finish(), resolve(value)),
      (err: unknown) => (finish(), reject(err)),
    );
  });
}

/**
 * A connection for one statement or one transaction, taken from the pool within the
 * request's limits (connection wait: at most `acquireMs`, and never past the request's
 * deadline); a client that goes away while waiting stops waiting. On PGlite the pool has
 * one connection, so this is the embedded database's queue, with the same deadline.
 */
async function acquire(ctx: Context): Promise<Lease> {
  const limits = currentQueryLimits();
  const signal = limits?.signal;
  if (signal?.aborted) throw clientGone();
  const started = Date.now();
  // A request already past its deadline starts no more statements (a race between a 0 ms timer
  // and an idle connection would otherwise decide).
  const deadline = statementEnd(limits, started);
  if (deadline !== undefined && deadline <= started) throw timeLimitError(limits);
  const connecting = ctx.pool.connect();
  if (!limits) {
    try {
      return new Lease(ctx, await connecting);
    } catch (err) {
      throw failure(ctx, err, started);
    }
  }
  const end = Math.min(statementEnd(limits, started) ?? Infinity, started + ctx.timeouts.acquireMs);
  return new Promise<Lease>((resolve, reject) => {
    let done = false;
    const giveUp = (err: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const onAbort = () => giveUp(clientGone());
    const timer = setTimeout(() => {
      giveUp(
        ctx.availability.up
          ? new DatabaseUnavailableError('busy', `No database connection became free within ${Date.now() - started} ms; retry after Retry-After seconds`)
          : new DatabaseUnavailableError('down', 'The database is unavailable; retry after Retry-After seconds'),
      );
    }, end - started);
    signal?.addEventListener('abort', onAbort, { once: true });
    connecting.then(
      (client) => {
        if (done) return client.release(); // the wait was given up: hand it to the next in line
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(new Lease(ctx, client));
      },
      (err: unknown) => {
        const mapped = failure(ctx, err, started);
        giveUp(mapped instanceof Error ? mapped : new Error(String(mapped)));
      },
    );
  });
}

/**
 * One checked-out connection. Each statement runs within the request's limits: past its
 * time limit, or when the client goes away, the caller gets a 503 at once, PostgreSQL is
 * asked to cancel the statement, and the connection is closed once the statement ends, or
 * after ABANDON_GRACE_MS if it has not (a frozen server never answers). PGlite cannot cancel a running statement (nor honour
 * statement_timeout): it finishes in the worker while the caller has its answer.
 */
class Lease {
  /** Set when a statement was given up: ends when it settles (true) or the grace runs out (false). */
  abandoned: Promise<boolean> | undefined;
  private released = false;

  constructor(
    private readonly ctx: Context,
    readonly client: pg.PoolClient,
  ) {
    // A connection lost while checked out but idle between statements emits 'error', heard
    // by GuardedClient; the next statement on it reports the loss.
    if (!bornAt.has(client)) bornAt.set(client, Date.now());
  }

  async run(statement: Statement): Promise<pg.QueryResult> {
    const limits = currentQueryLimits();
    const signal = limits?.signal;
    if (signal?.aborted) throw clientGone();
    const end = statementEnd(limits, Date.now());
    const startedAt = Date.now();
    const pending = send(this.client, statement, this.ctx.prepared);
    if (end === undefined && !signal) return this.settle(pending, startedAt);
    return new Promise<pg.QueryResult>((resolve, reject) => {
      let done = false;
      const finish = () => {
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const stop = (err: Error) => {
        if (done) return;
        finish();
        this.abandon(pending);
        reject(err);
      };
      const onAbort = () => stop(clientGone());
      const timer = end === undefined ? undefined : setTimeout(() => stop(timeLimitError(limits)), Math.max(0, end - Date.now()));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.settle(pending, startedAt).then(
        (result) => {
          if (done) return;
          finish();
          resolve(result);
        },
        (err: unknown) => {
          if (done) return;
          finish();
          reject(err);
        },
      );
    });
  }

  async copyFrom(data: CopyData): Promise<void> {
    if (data.rows === 0) return;
    const stream = this.client.query(copyFromStdin(data.sql));
    const done = finished(stream);
    stream.end(data.text);
    await this.settle(
      done.then(() => ({}) as pg.QueryResult),
      Date.now(),
    );
  }

  release(broken?: Error): void {
    if (this.released) return;
    this.released = true;
    if (!this.abandoned) return this.client.release(broken);
    void this.abandoned.then((ended) => {
      // After a cancel request the connection is never reused: the request travels on a
      // connection of its own and may arrive after the statement ended, cancelling whatever
      // the connection runs next. (PGlite sends none.)
      if (ended && !broken && this.ctx.engine === 'pglite') return this.client.release();
      this.client.release(broken ?? new Error('statement given up and not ended'));
      (this.client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    });
  }

  private async settle(pending: Promise<pg.QueryResult>, startedAt: number): Promise<pg.QueryResult> {
    const sent = performance.now();
    try {
      const result = await pending;
      observeStatement(this.ctx.engine, true, (performance.now() - sent) / 1000);
      this.ctx.availability.succeeded(startedAt);
      return result;
    } catch (err) {
      observeStatement(this.ctx.engine, false, (performance.now() - sent) / 1000);
      // A statement given up already answered its caller: its late error (the cancel) is no news.
      if (this.abandoned) throw err;
      // A connection opened before the last recovery that turns out dead is a leftover of
      // that outage, not a new one: it counts from when it was opened.
      throw failure(this.ctx, err, Math.min(startedAt, bornAt.get(this.client) ?? startedAt));
    }
  }

  private abandon(pending: Promise<pg.QueryResult>): void {
    if (this.abandoned) return;
    if (this.ctx.engine === 'postgres') sendCancelRequest(this.client as never, ABANDON_GRACE_MS);
    const ended = pending.then(
      () => true,
      () => true,
    );
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ABANDON_GRACE_MS)));
    this.abandoned = Promise.race([ended, grace]).finally(() => clearTimeout(timer));
  }
}

function send(client: pg.PoolClient, s: Statement, prepared: boolean): Promise<pg.QueryResult> {
  // No parameters and no row mode: the simple protocol, which also runs several statements (migrations).
  if ((!s.params || s.params.length === 0) && !s.rowMode) return client.query(s.text);
  const name = prepared && s.params && s.params.length > 0 ? statementName(s.text) : undefined;
  return client.query({ name, text: s.text, values: s.params, ...(s.rowMode ? { rowMode: s.rowMode } : {}) });
}

/**
 * Names for parameterized statements, so each connection parses and plans a statement once
 * and then only binds and executes it (node-postgres keeps the prepared statements per
 * connection, PostgreSQL the plans). Measured on the hot endpoints, an unnamed statement
 * cost 2-5x the PostgreSQL CPU of the same SQL prepared (bench/results/README.md). A name
 * stands for one exact SQL text, for the life of the process. The number of names is
 * bounded: a statement whose text varies with the input (a search with another set of
 * filters) gets one too, and past the bound further new texts run unnamed, so neither this
 * map nor a server connection's prepared statements grow without limit.
 */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `sl${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

function queryable(run: (statement: Statement) => Promise<pg.QueryResult>): Queryable {
  return {
    async query<R extends object>(text: string, params?: unknown[]) {
      return (await run({ text, params })).rows as R[];
    },
    async queryArrays<R extends unknown[]>(text: string, params?: unknown[]) {
      return (await run({ text, params, rowMode: 'array' })).rows as R[];
    },
  };
}

/**
 * The statements that open a transaction: BEGIN with its modes and, in a writing transaction on
 * a Citus coordinator, the sequential mode for multi-shard statements. In the default
 * (parallel) mode a transaction that read or wrote a distributed table over several
 * connections per worker may no longer write a reference table, whose every copy must be
 * written over the connection that saw the shards ("cannot modify table … because there was
 * a parallel operation on a distributed table"): a detection run writes installs and then new
 * products, the seed and the refresh write shards and then the reference version. Sequential
 * mode uses one connection per worker, which every later statement of the transaction
 * shares. Read-only transactions (exports) keep their parallel reads.
 */
export function beginStatements(o: TransactionOptions, citus: boolean): string[] {
  const modes = [o.isolation && `ISOLATION LEVEL ${o.isolation.toUpperCase()}`, o.readOnly && 'READ ONLY'].filter(Boolean);
  const begin = modes.length ? `BEGIN ${modes.join(', ')}` : 'BEGIN';
  return citus && !o.readOnly ? [begin, "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'"] : [begin];
}
