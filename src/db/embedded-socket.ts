// The embedded database shared with other local processes: whoever owns a PGlite data folder
// (the server, or a long `stacklens mcp`) listens on a Unix socket in DATA_DIR/run and speaks
// the PostgreSQL wire protocol there, so the CLI and the stdio MCP server connect with
// node-postgres as they would to a PostgreSQL server (and `psql -h DATA_DIR/run` works too).
//
// PGlite has one backend, so this is a transaction-mode pooler in front of it, not a second
// session: a visiting connection takes the owner's one database connection from the same
// queue as the owner's own requests (pg-pool, first come first served), forwards its messages
// to the worker while it holds it, and gives it back as soon as PGlite says the session is
// idle outside a transaction (ReadyForQuery 'I'). Between a visitor's transactions the
// server's requests run as usual; during one they wait in the queue with their own deadline
// (503 busy past it, as for any long statement). Two limits keep a visitor from holding the
// database without bound: a transaction may hold it at most `holdMs`, and a visitor holding
// it may stay silent at most `idleMs`; past either the visitor is disconnected and its
// transaction rolled back. Visitors use unnamed statements only (preparedStatements off),
// so they never collide with the owner's named prepared statements in the shared session.
//
// Only the local user can connect: the socket lives in a directory of mode 0700 and is 0600
// itself. There is no password: the file permissions are the credential, as with
// PostgreSQL's own `peer`-style local sockets.
//
// One extra command, for backups: `COPY stacklens_snapshot TO STDOUT` answers with a tarball
// of the data folder taken while the visitor holds the database (PGlite's dumpDataDir after a
// CHECKPOINT): a consistent copy that takes the database away from the server only for the
// time of the file copy, instead of for a whole logical dump.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type pg from 'pg';
import type { PgliteThread } from './pglite-thread.ts';

/** The folder (under the data folder) holding the socket; node-postgres's `host`. */
const SOCKET_DIR = 'run';
/** node-postgres and psql name a socket `.s.PGSQL.<port>` inside the `host` folder. */
export const SOCKET_PORT = 5432;

export interface SharingLimits {
  /** Longest a visitor's transaction may hold the database. */
  holdMs: number;
  /** Longest a visitor holding the database may send nothing. */
  idleMs: number;
  /** Longest a visitor waits for the database before its statement fails. */
  waitMs: number;
}

const DEFAULT_SHARING_LIMITS: SharingLimits = { holdMs: 60_000, idleMs: 10_000, waitMs: 30_000 };

export function socketDir(dataDir: string): string {
  return path.join(dataDir, SOCKET_DIR);
}

export function socketPath(dataDir: string): string {
  return path.join(socketDir(dataDir), `.s.PGSQL.${SOCKET_PORT}`);
}

export interface SharedSocket {
  readonly path: string;
  close(): Promise<void>;
}

/** Listens on the data folder's socket; the caller owns the folder (holds its lock). */
export async function shareEmbeddedDatabase(dataDir: string, pool: pg.Pool, thread: PgliteThread, limits = DEFAULT_SHARING_LIMITS): Promise<SharedSocket> {
  const dir = socketDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700); // an existing folder too: the directory is what keeps others out
  const file = socketPath(dataDir);
  // A socket left by an owner that died: we hold the lock now, so it is ours to replace.
  fs.rmSync(file, { force: true });
  const sessions = new Set<Session>();
  const server = net.createServer((socket) => {
    const session = new Session(socket, pool, thread, limits);
    sessions.add(session);
    socket.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(file, 0o600);
  server.unref(); // a visitor's open connection does not keep the owner alive
  let closed: Promise<void> | undefined;
  return {
    path: file,
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([...sessions].map((s) => s.end('the process that owns the embedded database is shutting down')));
        await stopped;
        fs.rmSync(file, { force: true });
      })();
      return closed;
    },
  };
}

// --- wire protocol pieces ---------------------------------------------------------------

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

function message(type: string, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([head, payload]);
}

const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};

function errorMessage(severity: 'ERROR' | 'FATAL', code: string, text: string): Buffer {
  return message(
    'E',
    Buffer.concat([
      Buffer.from('S'),
      cstr(severity),
      Buffer.from('V'),
      cstr(severity),
      Buffer.from('C'),
      cstr(code),
      Buffer.from('M'),
      cstr(text),
      Buffer.from([0]),
    ]),
  );
}

const readyForQuery = (status: string) => message('Z', Buffer.from(status, 'latin1'));

/** What a new connection is told at start-up (PGlite 0.5's own values; the session is shared). */
const STARTUP_REPLY = Buffer.concat([
  message('R', int32(0)), // AuthenticationOk: the socket's permissions were the check
  ...Object.entries({
    server_version: '18.6',
    TimeZone: 'UTC',
    server_encoding: 'UTF8',
    client_encoding: 'UTF8',
    DateStyle: 'ISO, MDY',
    integer_datetimes: 'on',
    standard_conforming_strings: 'on',
    application_name: 'stacklens-shared',
  }).map(([k, v]) => message('S', Buffer.concat([cstr(k), cstr(v)]))),
  message('K', Buffer.concat([int32(process.pid), int32(0)])),
  readyForQuery('I'),
]);

const SNAPSHOT_QUERY = /^\s*COPY\s+stacklens_snapshot\s+TO\s+STDOUT\s*;?\s*$/i;

/** Splits complete messages (type byte + length) off the front of `buf`. */
function splitMessages(buf: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let offset = 0;
  while (buf.length - offset >= 5) {
    const length = buf.readInt32BE(offset + 1);
    if (buf.length - offset < length + 1) break;
    messages.push(buf.subarray(offset, offset + length + 1));
    offset += length + 1;
  }
  return { messages, rest: buf.subarray(offset) };
}

/** The transaction status of the last ReadyForQuery, when `reply` ends with one. */
function endsReady(reply: Uint8Array): string | undefined {
  let offset = 0;
  let status: string | undefined;
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  while (view.length - offset >= 5) {
    const type = view[offset]!;
    const length = view.readInt32BE(offset + 1);
    status = type === 0x5a /* Z */ ? String.fromCharCode(view[offset + 5]!) : undefined;
    offset += length + 1;
  }
  return status;
}

/** One visiting connection. */
class Session {
  private started = false;
  private inbox: Buffer = Buffer.alloc(0);
  private queued: Buffer[] = [];
  private lease: pg.PoolClient | undefined;
  private leaseSince = 0;
  /** True while the session has asked for the database or a batch is in the worker. */
  private busy = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private ended = false;
  /** Resolves once the database is given back (or was never held). */
  private settled: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: net.Socket,
    private readonly pool: pg.Pool,
    private readonly thread: PgliteThread,
    private readonly limits: SharingLimits,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => void this.end());
    socket.on('close', () => void this.end());
  }

  /** Disconnects, rolling back whatever the visitor left open, and gives the database back. */
  end(reason?: string): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      clearTimeout(this.idleTimer);
      if (reason && !this.socket.destroyed) this.socket.end(errorMessage('FATAL', '57P01', reason));
      else this.socket.destroy();
      // Not mid-batch: give it back now; mid-batch: the batch's end does (see pump).
      if (!this.busy) this.giveBack(true);
    }
    return this.settled;
  }

  private receive(chunk: Buffer): void {
    if (this.ended) return;
    this.inbox = this.inbox.length ? Buffer.concat([this.inbox, chunk]) : chunk;
    if (!this.started && !this.startup()) return;
    const { messages, rest } = splitMessages(this.inbox);
    this.inbox = Buffer.from(rest);
    for (const m of messages) {
      if (m[0] === 0x58 /* X: Terminate */) return void this.end();
      this.queued.push(m);
    }
    if (messages.length > 0) this.armIdle();
    void this.pump();
  }

  /** Handles the start-up packets; true once the session is ready for messages. */
  private startup(): boolean {
    while (this.inbox.length >= 8) {
      const length = this.inbox.readInt32BE(0);
      if (this.inbox.length < length) return false;
      const code = this.inbox.readInt32BE(4);
      this.inbox = this.inbox.subarray(length);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        this.socket.write('N'); // no encryption on a local socket; the client goes on in clear
      } else if (code === CANCEL_REQUEST) {
        void this.end(); // statements cannot be cancelled in PGlite
        return false;
      } else if (code === PROTOCOL_3) {
        this.socket.write(STARTUP_REPLY);
        this.started = true;
        return true;
      } else {
        void this.end('unsupported protocol version');
        return false;
      }
    }
    return false;
  }

  private async pump(): Promise<void> {
    if (this.busy || this.ended || this.queued.length === 0) return;
    this.busy = true;
    try {
      await this.forward();
    } catch (err) {
      if (!this.socket.destroyed) this.socket.end(errorMessage('FATAL', '08006', (err as Error).message));
      this.ended = true;
    } finally {
      this.busy = false;
    }
    // A session that ended meanwhile gives the database back here (end() leaves it to us
    // while a batch is in the worker).
    if (this.ended) this.giveBack(true);
    else void this.pump();
  }

  /** Sends the queued messages as one batch (taking the database first) and relays the reply. */
  private async forward(): Promise<void> {
    if (!this.lease) await this.take();
    if (this.ended) return;
    if (Date.now() - this.leaseSince > this.limits.holdMs) {
      void this.end(
        `a transaction through the server may hold the embedded database for at most ${this.limits.holdMs / 1000} s ` +
          "(the server's requests wait meanwhile); stop the server for longer work, or split it",
      );
      return;
    }
    const batch = this.queued.length === 1 ? this.queued[0]! : Buffer.concat(this.queued);
    this.queued = [];
    const reply = SNAPSHOT_QUERY.test(queryText(batch) ?? '') ? await this.snapshot() : await this.thread.exec(batch);
    if (!this.socket.destroyed) this.socket.write(Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength));
    if (endsReady(reply) === 'I' && this.queued.length === 0) this.giveBack(false);
  }

  /** Waits (at most `waitMs`) for the owner's one database connection. */
  private async take(): Promise<void> {
    const connecting = this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the embedded database stayed busy for ${this.limits.waitMs / 1000} s; try again`)), this.limits.waitMs);
    });
    try {
      const client = await Promise.race([connecting, timeout]);
      this.lease = client;
      this.leaseSince = Date.now();
      let release!: () => void;
      this.settled = new Promise<void>((resolve) => (release = resolve));
      this.releaseSettled = release;
    } catch (err) {
      void connecting.then(
        (c) => c.release(),
        () => {},
      ); // the wait was given up: hand it on
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private releaseSettled: () => void = () => {};

  /**
   * Gives the connection back. After a visitor left mid-transaction (or was cut off) the
   * connection is released as broken: the pool then opens a fresh one, whose start resets
   * the shared session (ROLLBACK, DISCARD ALL: pglite-worker.ts 'reset').
   */
  private giveBack(broken: boolean): void {
    const lease = this.lease;
    if (!lease) return;
    this.lease = undefined;
    clearTimeout(this.idleTimer);
    lease.release(broken ? new Error('visitor left with the session in use') : undefined);
    this.releaseSettled();
  }

  /** A visitor holding the database must keep talking. */
  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.lease && !this.busy) void this.end(`idle for ${this.limits.idleMs / 1000} s while holding the embedded database`);
      else if (this.lease) this.armIdle();
    }, this.limits.idleMs);
    this.idleTimer.unref();
  }

  /** The snapshot command's reply: the data folder as a tar, in CopyData messages. */
  private async snapshot(): Promise<Uint8Array> {
    const tar = Buffer.from(await this.thread.dump());
    const parts: Buffer[] = [message('H', Buffer.concat([Buffer.from([1]), int16(0)]))];
    const CHUNK = 1 << 20;
    for (let i = 0; i < tar.length; i += CHUNK) parts.push(message('d', tar.subarray(i, i + CHUNK)));
    parts.push(message('c'), message('C', cstr('COPY 1')), readyForQuery('I'));
    return Buffer.concat(parts);
  }
}

/** The text of a batch that is one simple Query message, else undefined. */
function queryText(batch: Buffer): string | undefined {
  if (batch[0] !== 0x51 /* Q */ || batch.length < 6) return undefined;
  const length = batch.readInt32BE(1);
  if (length + 1 !== batch.length) return undefined;
  return batch.toString('utf8', 5, batch.length - 1);
}
