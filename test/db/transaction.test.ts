// Db.transaction, the one transaction idiom: commits what fn wrote when it resolves, rolls
// all of it back when it throws, honours READ ONLY, and leaves the connection usable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createTestDb, TEST_DATABASE_URL } from '../helpers/db.ts';
import { openDb, type Db } from '../../src/db/db.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
});
after(() => db.close());

const industries = async () => (await db.query<{ id: string }>('SELECT id FROM industries ORDER BY id')).map((r) => r.id);

test('a transaction that resolves commits every statement and returns fn result', async () => {
  const result = await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_a', 'A')`);
    await tx.query(`INSERT INTO industries (id, name) VALUES ($1::text, $2::text)`, ['ind_b', 'B']);
    return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM industries'))[0]!.n;
  });
  assert.equal(result, 2);
  assert.deepEqual(await industries(), ['ind_a', 'ind_b']);
});

test('a transaction that throws rolls everything back and rethrows', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_c', 'C')`);
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_d', 'D')`);
      await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_a', 'duplicate')`);
    }),
    /duplicate key/,
  );
  assert.deepEqual(await industries(), ['ind_a', 'ind_b'], 'neither ind_c nor ind_d survived');
});

test('readOnly refuses writes; queryArrays reads rows as arrays inside and outside', async () => {
  await assert.rejects(
    db.transaction((tx) => tx.query(`INSERT INTO industries (id, name) VALUES ('ind_e', 'E')`), { readOnly: true }),
    /read-only transaction/,
  );
  const rows = await db.transaction((tx) => tx.queryArrays<[string, string]>('SELECT id, name FROM industries ORDER BY id'), {
    readOnly: true,
    isolation: 'repeatable read',
  });
  assert.deepEqual(rows, [
    ['ind_a', 'A'],
    ['ind_b', 'B'],
  ]);
  assert.deepEqual(await db.queryArrays('SELECT id FROM industries WHERE id = $1', ['ind_b']), [['ind_b']]);
});

test('a statement text that opens a transaction of its own and fails mid-way does not leave its pooled connection aborted', async () => {
  // pg-boss sends `BEGIN; …; COMMIT;` as one text; a failure inside left the transaction open.
  await assert.rejects(
    db.query(`BEGIN; INSERT INTO industries (id, name) VALUES ('ind_f', 'F'); INSERT INTO industries (id, name) VALUES ('ind_a', 'duplicate'); COMMIT;`),
    /duplicate key/,
  );
  // The pool hands out the connection released last: the same one.
  assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
  await db.query(`BEGIN; INSERT INTO industries (id, name) VALUES ('ind_g', 'G')`);
  assert.deepEqual(await industries(), ['ind_a', 'ind_b'], 'neither the failed text nor the one left open wrote anything');
});

test(
  'the same holds when the server error and the transaction status arrive in separate network reads',
  { skip: !TEST_DATABASE_URL && 'a TCP proxy sits between the driver and PostgreSQL (PostgreSQL pass)' },
  async () => {
    // node-postgres rejects at the ErrorResponse; the status comes with the ReadyForQuery
    // behind it. A proxy holds back whatever follows an error for a moment, as a busy
    // network does, so the pool sees the failure before the status.
    const proxy = await startSplittingProxy(new URL(TEST_DATABASE_URL!));
    const one = await openDb({ databaseUrl: proxy.url, poolSize: 1 });
    try {
      await assert.rejects(one.query('BEGIN; SELECT 1/0; COMMIT;'), /division by zero/);
      assert.deepEqual(await one.query('SELECT 1 AS one'), [{ one: 1 }]);
      // A failure of an ordinary statement outside any transaction leaves the connection usable too.
      await assert.rejects(one.query('SELECT 1/$1::int AS x', [0]), /division by zero/);
      assert.deepEqual(await one.query('SELECT 2 AS two'), [{ two: 2 }]);
      assert.ok(proxy.heldBack() >= 2, 'the proxy split the error from what followed it');
    } finally {
      await one.close();
      proxy.close();
    }
  },
);

/** A TCP proxy that writes each server message apart and waits 50 ms after an ErrorResponse. */
async function startSplittingProxy(target: URL): Promise<{ url: string; heldBack(): number; close(): void }> {
  let held = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let buffered = Buffer.alloc(0);
    let writing = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Server messages: a type byte, then a length counting itself (no SSL is asked for).
      while (buffered.length >= 5 && buffered.length >= 1 + buffered.readUInt32BE(1)) {
        const message = buffered.subarray(0, 1 + buffered.readUInt32BE(1));
        buffered = buffered.subarray(message.length);
        writing = writing.then(async () => {
          client.write(message);
          if (message[0] === 0x45 /* 'E' */) {
            held++;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        });
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', () => void writing.then(end));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    heldBack: () => held,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
