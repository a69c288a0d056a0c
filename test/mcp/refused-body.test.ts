// A body over the limit is answered 413 and then read to its end (up to a bound) before the
// connection closes, on /mcp and on REST: a client that writes its whole body before it
// reads the answer (Node's http and fetch) gets the 413, never EPIPE or a reset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { listenInRange } from '../helpers/ports.ts';

let t: TestApp;
let full: TestClient;
let port: number;
before(async () => {
  t = await createTestApp({ env: { MCP_ALLOWED_HOSTS: 'localhost:80,127.0.0.1' } });
  full = await createTestClient(t.db, 'full');
  port = await listenInRange((p) => t.app.listen({ port: p, host: '127.0.0.1' }));
});
after(() => t.close());

const FIVE_MB = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'x'.repeat(5 * 1024 * 1024) } }));
const headers = () => ({ ...full.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' });

/** The part sent before waiting for the answer: past both limits (MCP's 256 KB, REST's 1 MB), so a chunked body is refused too. */
const FIRST = 1536 * 1024;

/**
 * Sends the first 1.5 MB, waits for the answer, then writes the rest: the server must keep
 * reading. Resolves with the status, the body and the write error, if any.
 */
function writeAfterAnswer(path: string, chunked: boolean): Promise<{ status?: number; body?: string; requestId?: string; writeError?: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers(), ...(chunked ? {} : { 'content-length': FIVE_MB.length }) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => (body += d));
        const ended = new Promise((ok) => res.once('end', ok));
        // The rest of the body goes out only now, after the answer arrived.
        req.end(
          FIVE_MB.subarray(FIRST),
          () => void ended.then(() => resolve({ status: res.statusCode!, body, requestId: res.headers['x-request-id'] as string })),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ writeError: err.code ?? err.message }));
    req.write(FIVE_MB.subarray(0, FIRST));
  });
}

test('a body over the limit still being written when the 413 goes out is drained: the client finishes writing and reads the 413 (/mcp, REST and the token endpoint, length and chunked)', async () => {
  for (const path of ['/mcp', '/api/companies/search', '/oauth/token']) {
    for (const chunked of [false, true]) {
      const res = await writeAfterAnswer(path, chunked);
      assert.equal(res.writeError, undefined, `${path} ${chunked ? 'chunked' : 'length'}: ${res.writeError}`);
      assert.equal(res.status, 413);
      assert.equal(JSON.parse(res.body!).status, 413);
      assert.equal(JSON.parse(res.body!).requestId, res.requestId, 'the answer carries its request id');
    }
  }
});

test('20 tries of Node fetch posting 5 MB to /mcp all get the 413', async () => {
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: headers(), body: FIVE_MB });
      seen.push(String(res.status));
      assert.match(await res.text(), /MCP request limit/);
    } catch (err) {
      seen.push(String((err as { cause?: { code?: string } }).cause?.code ?? err));
    }
  }
  assert.deepEqual(seen, Array(20).fill('413'));
});

test('the drain is bounded: a client that keeps writing past the bound is cut off', async () => {
  const { REFUSED_BODY_DRAIN_BYTES } = await import('../../src/http/plugins/errors.ts');
  const outcome = await new Promise<string>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: headers() });
    let status = 'no answer';
    req.on('response', (res) => {
      status = String(res.statusCode);
      res.resume();
    });
    req.on('error', () => resolve(`${status} then cut off`));
    req.on('close', () => resolve(`${status} then cut off`));
    const chunk = Buffer.alloc(256 * 1024, 120);
    let sent = 0;
    const pump = () => {
      while (sent < 4 * REFUSED_BODY_DRAIN_BYTES) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      resolve('the server read it all');
    };
    pump();
  });
  assert.equal(outcome, '413 then cut off');
});
