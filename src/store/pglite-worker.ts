// The worker thread that owns the embedded PGlite database (see pglite-thread.ts). It answers
// wire-protocol messages from the main thread with PGlite's raw wire-protocol replies, one
// at a time in arrival order, so a long statement never blocks the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ThreadReply, ThreadRequest, ThreadStart } from './pglite-thread.ts';

const port = parentPort!;
const { dataDir } = workerData as ThreadStart;

function send(reply: ThreadReply): void {
  port.postMessage(reply);
}

const ready = PGlite.create(dataDir, { extensions: { pg_trgm } });
ready.then(
  () => send({ id: 0, ok: true }),
  (err: unknown) => send({ id: 0, ok: false, error: describe(err) }),
);

// One request at a time, in order: PGlite runs one statement at a time anyway, and a
// CHECKPOINT or close must come after everything sent before it.
let queue: Promise<unknown> = ready.catch(() => undefined);

port.on('message', (request: ThreadRequest) => {
  queue = queue.then(async () => {
    try {
      const db = await ready;
      if (request.type === 'exec') {
        // A copy owned by this reply: PGlite may reuse the buffer it returns.
        const data = (await db.execProtocolRaw(request.message)).slice();
        port.postMessage({ id: request.id, ok: true, data } satisfies ThreadReply, [data.buffer]);
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
  return typeof message === 'string' ? message : JSON.stringify(err) ?? String(err);
}
