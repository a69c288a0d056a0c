// Decompression bombs against the site fetcher: once the answer is known (the body cap, the
// deadline, an abort) nothing more is inflated. The real zlib decoders are observed, not
// replaced: every gunzip and brotli decoder counts the decoded bytes it produces (its `push`,
// watched on the class prototype, as node:zlib's factories are read-only), so the test sees
// the work done after the answer, whether or not anyone reads it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import zlib from 'node:zlib';
import { fetchSite, CollectError, Politeness, type FetchSiteOptions } from '../../src/detect/collect/index.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/collect.ts';

const MiB = 1024 * 1024;
/** One output chunk of a zlib or brotli decoder (their default chunkSize). */
const CHUNK = zlib.constants.Z_DEFAULT_CHUNK;
const BOMB = 64 * MiB;
const gzipBomb = zlib.gzipSync(Buffer.alloc(BOMB), { level: 9 }); // ~65 KB
const brotliBomb = zlib.brotliCompressSync(Buffer.alloc(BOMB), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }); // ~100 bytes

interface Observed {
  decoder: zlib.Gunzip | zlib.BrotliDecompress;
  produced: number;
  closed: boolean;
}
/** The decoders seen producing output since the test began, in order. */
let decoders: Observed[] = [];
const byDecoder = new WeakMap<object, Observed>();
/** Called once, on the first decoded chunk of the next decoder (to abort or stall at a known point). */
let onFirstChunk: (() => void) | undefined;

const watched = [zlib.Gunzip.prototype, zlib.BrotliDecompress.prototype] as Array<{ push: (chunk: unknown) => boolean }>;
function watchPush(proto: { push: (chunk: unknown) => boolean }): void {
  const push = proto.push;
  proto.push = function (this: zlib.Gunzip | zlib.BrotliDecompress, chunk: unknown) {
    if (Buffer.isBuffer(chunk)) {
      let seen = byDecoder.get(this);
      if (!seen) {
        seen = { decoder: this, produced: 0, closed: false };
        byDecoder.set(this, seen);
        decoders.push(seen);
        this.once('close', () => (seen!.closed = true));
        const first = onFirstChunk;
        onFirstChunk = undefined;
        first?.();
      }
      seen.produced += chunk.length;
    }
    return push.call(this, chunk);
  };
}

let web: FixtureServer;
/** Connections the server saw closed, by path. */
const closedOnServer: string[] = [];

before(async () => {
  for (const proto of watched) watchPush(proto);
  const bomb = (encoding: string, body: Buffer, end: boolean) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.socket!.once('close', () => closedOnServer.push(req.url!));
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding });
    if (end) res.end(body);
    else res.write(body); // and never ends: only the deadline or an abort stops the request
  };
  web = await startFixtureServer({
    '/gzip': bomb('gzip', gzipBomb, true),
    '/br': bomb('br', brotliBomb, true),
    '/gzip-open': bomb('gzip', gzipBomb, false),
    '/br-open': bomb('br', brotliBomb, false),
  });
});

after(async () => {
  for (const proto of watched) delete (proto as { push?: unknown }).push; // back to Readable's push
  await web.close();
});

const opts = (extra: FetchSiteOptions = {}): FetchSiteOptions => ({
  dns: { records: false },
  network: { allowNetworks: ['127.0.0.2/32'], ports: 'any' },
  politeness: new Politeness(0),
  robots: false,
  retries: 0,
  timeoutMs: 10_000,
  ...extra,
});

/** Waits until the decoder is closed or has produced nothing for 300 ms (an undestroyed one inflates the whole bomb first). */
async function settled(seen: Observed): Promise<void> {
  for (let last = -1, quietSince = Date.now(); !seen.closed;) {
    await new Promise((r) => setTimeout(r, 25));
    if (seen.produced !== last) [last, quietSince] = [seen.produced, Date.now()];
    else if (Date.now() - quietSince >= 300) return;
  }
}

async function waitFor(check: () => boolean, ms = 2000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) if (check()) return true;
  return check();
}

for (const [name, path] of [
  ['gzip', '/gzip'],
  ['brotli', '/br'],
] as const) {
  test(`${name} bomb: decoding stops at the body cap (at most one decoder chunk past it), and the connection is closed`, async () => {
    decoders = [];
    closedOnServer.length = 0;
    const cap = 256 * 1024;
    const site = await fetchSite(web.url('127.0.0.2', path), opts({ maxBytes: cap }));
    assert.equal(Buffer.byteLength(site.pages[0]!.html!), cap);
    assert.equal(decoders.length, 1);
    const seen = decoders[0]!;
    await settled(seen);
    assert.ok(seen.produced <= cap + CHUNK, `${seen.produced} bytes decoded for a cap of ${cap} (${BOMB} in the bomb)`);
    assert.ok(seen.decoder.destroyed, 'the decoder is destroyed');
    assert.ok(await waitFor(() => closedOnServer.includes(path)), 'the server saw the connection close');
  });

  test(`${name} bomb: an abort stops the decoder as well as the request`, async () => {
    decoders = [];
    closedOnServer.length = 0;
    const controller = new AbortController();
    // Abort from outside the decoder, once it is busy with the bomb.
    onFirstChunk = () => setImmediate(() => controller.abort());
    const err = await fetchSite(web.url('127.0.0.2', `${path}-open`), opts({ maxBytes: 2 * BOMB, signal: controller.signal })).catch((e: unknown) => e);
    assert.ok(err instanceof CollectError, String(err));
    assert.equal(err.reason, 'aborted');
    const seen = decoders[0]!;
    const atAnswer = seen.produced;
    await settled(seen);
    assert.ok(seen.produced - atAnswer <= CHUNK, `${seen.produced - atAnswer} bytes decoded after the abort (${atAnswer} before)`);
    assert.ok(seen.decoder.destroyed, 'the decoder is destroyed');
    assert.ok(await waitFor(() => closedOnServer.includes(`${path}-open`)), 'the server saw the connection close');
  });

  test(`${name} bomb: the deadline stops the decoder as well as the request`, async () => {
    decoders = [];
    closedOnServer.length = 0;
    const timeoutMs = 200;
    // The event loop is held past the deadline while the decoder still holds most of the bomb
    // (as under load): the deadline fires before the decoder could finish on its own.
    onFirstChunk = () => {
      for (const end = Date.now() + timeoutMs + 50; Date.now() < end;);
    };
    const err = await fetchSite(web.url('127.0.0.2', `${path}-open`), opts({ maxBytes: 2 * BOMB, timeoutMs })).catch((e: unknown) => e);
    assert.ok(err instanceof CollectError, String(err));
    assert.equal(err.reason, 'timeout');
    const seen = decoders[0]!;
    const atAnswer = seen.produced;
    assert.ok(atAnswer < BOMB / 2, `the deadline came while the bomb was still being decoded (${atAnswer} bytes so far)`);
    await settled(seen);
    assert.ok(seen.produced - atAnswer <= CHUNK, `${seen.produced - atAnswer} bytes decoded after the deadline (${atAnswer} before)`);
    assert.ok(seen.decoder.destroyed, 'the decoder is destroyed');
    assert.ok(await waitFor(() => closedOnServer.includes(`${path}-open`)), 'the server saw the connection close');
  });
}
