// The worker thread that owns the embedded PGlite database (see pglite-thread.ts). It answers
// batches of wire-protocol messages from the main thread with PGlite's raw wire-protocol
// replies, one batch at a time in arrival order, so a long statement never blocks the
// server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ThreadReply, ThreadRequest, ThreadStart } from './pglite-thread.ts';
import { concat, CopyInRelay } from './pglite-copy.ts';

const port = parentPort!;
const { dataDir, loadDataDir } = workerData as ThreadStart;

function send(reply: ThreadReply): void {
  port.postMessage(reply);
}

// wal_level=minimal: the embedded database has no replicas and no archive, and a table
// emptied in the transaction that fills it (the demo world's bulk load, seed/index.ts) is
// then written without WAL: half the writing of a first start.
const startParams = [...PGlite.defaultStartParams, '-c', 'wal_level=minimal', '-c', 'max_wal_senders=0'];
const ready = PGlite.create(dataDir, { extensions: { pg_trgm }, startParams, ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}) });
ready.then(
  () => send({ id: 0, ok: true }),
  (err: unknown) => send({ id: 0, ok: false, error: describe(err) }),
);

// One request at a time, in order: PGlite runs one statement at a time anyway, and a
// CHECKPOINT or close must come after everything sent before it.
let queue: Promise<unknown> = ready.catch(() => undefined);

/**
 * The raw reply only: execProtocolRaw also parses every reply into message objects for its own
 * API (a third of this thread's time in a profile of paged reads), which node-postgres then
 * does again on the main thread. Chunks are views into PGlite's memory, so each is copied.
 */
async function execRaw(message: Uint8Array): Promise<Uint8Array> {
  const db = await ready;
  const chunks: Uint8Array[] = [];
  await db.execProtocolRawStream(message, { onRawData: (chunk) => chunks.push(chunk.slice()) });
  return concat(chunks);
}

// COPY ... FROM STDIN (the seed's bulk load, a visitor's psql \copy): pglite-copy.ts says why it is relayed.
const copyIn = new CopyInRelay(execRaw);

port.on('message', (request: ThreadRequest) => {
  queue = queue.then(async () => {
    try {
      const db = await ready;
      if (request.type === 'exec') {
        let data = await copyIn.run(request.message);
        // Transferred, so a buffer of its own (a view into a larger one is copied).
        if (data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength) data = data.slice();
        port.postMessage({ id: request.id, ok: true, data } satisfies ThreadReply, [data.buffer as ArrayBuffer]);
      } else if (request.type === 'reset') {
        // A new connection: PGlite has one backend, so a transaction or prepared statements
        // left by the previous connection (closed or broken mid-transaction) would be seen
        // by the next one, whose driver knows nothing of them.
        copyIn.reset();
        await db.exec('ROLLBACK');
        await db.exec('DISCARD ALL');
        send({ id: request.id, ok: true });
      } else if (request.type === 'dump') {
        // Data files brought up to date first, so the copy opens without replaying the WAL.
        await db.query('CHECKPOINT');
        const tar = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
        port.postMessage({ id: request.id, ok: true, data: tar } satisfies ThreadReply, [tar.buffer as ArrayBuffer]);
      } else {
        // Flush the WAL into the data files so the next open starts clean.
        await db.query('CHECKPOINT');
        await db.close();
        send({ id: request.id, ok: true });
        port.close();
      }
    } catch (err) {
      send({ id: request.id, ok: false, error: describe(err) });
    }
  });
});

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  // PGlite's WebAssembly exit is an ExitStatus object, not an Error.
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : (JSON.stringify(err) ?? String(err));
}
