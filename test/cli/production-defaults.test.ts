// Safe production defaults with the real processes (docs/operations.md): a bad setting or a
// weak secret stops `serve` with exit 2 and one message, no stack trace; a production start
// (PostgreSQL without SEED_DEMO, or SEED_DEMO=false) seeds nothing, mints no demo client and
// says which database, mode and credentials; and credentials `stacklens clients create
// --json` prints, from a shell without the server's PORT, get a token from that server on
// its non-default port (and `users create` names that server's console). On the suite's
// engine: PGlite in a data folder (the CLI runs while the server is stopped: one owner of the
// folder), or a fresh schema on PostgreSQL (the CLI runs beside the running server).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from '../../src/db/db.ts';
import { TEST_DATABASE_URL } from '../helpers/db.ts';
import { freePort, startServe, waitReady, type ServeProcess } from '../helpers/serve-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The CLI as an operator runs it in another shell: only the database settings, no PORT, HOST or PUBLIC_URL. */
function stacklens(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { ...process.env } as Record<string, string>;
  for (const name of ['PORT', 'HOST', 'PUBLIC_URL', 'ISSUER_URL', 'API_AUDIENCE', 'SEED_DEMO', 'CURSOR_SECRET', 'METRICS_TOKEN']) delete base[name];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: ROOT, env: { ...base, LOG_LEVEL: 'warn', ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  await c.query(sql).finally(() => c.end());
}

/** A fresh database for the processes: a PGlite folder, or a new schema on the suite's PostgreSQL. */
async function freshDatabase(dataDir: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) return { env: { DATABASE_URL: '' }, drop: async () => {} };
  const schema = `t_prod_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(`BEGIN; SELECT pg_advisory_xact_lock(7402114); CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; CREATE SCHEMA "${schema}"; COMMIT`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return { env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir }, drop: () => admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`) };
}

async function stop(server: ServeProcess): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.output());
}

test('a bad setting stops the start with exit 2 and one line naming the variable, no stack trace', async () => {
  const bad = await stacklens({ PORT: 'abc', DATABASE_URL: '' }, 'serve');
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, 'Invalid configuration:\n  PORT must be an integer 1-65535, got "abc"\n');
  assert.equal(bad.stdout, '');
});

test('outside demo mode a weak or placeholder secret is refused before the database is opened', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-weak-'));
  try {
    const weak = await stacklens(
      { DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: 'false', CURSOR_SECRET: 'change-me', METRICS_TOKEN: 'x'.repeat(40) },
      'serve',
    );
    assert.equal(weak.code, 2, weak.stderr);
    assert.match(weak.stderr, /^Refusing to start in production mode/);
    assert.match(weak.stderr, /CURSOR_SECRET is too weak: it has 9 characters; at least 32 are required/);
    assert.match(weak.stderr, /METRICS_TOKEN is too weak: it has fewer than 10 distinct characters/);
    assert.doesNotMatch(weak.stderr, /change-me|\n\s+at /, 'neither the value nor a stack trace');
    assert.equal(fs.existsSync(path.join(dataDir, 'stacklens.lock')), false, 'the data folder was never opened');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("production start: no demo world, no demo client, a start-up report; CLI credentials work on the server's own port", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-prod-'));
  const database = await freshDatabase(dataDir);
  // PostgreSQL: SEED_DEMO unset is production. PGlite: its default is the demo world, so ask for production.
  const serverEnv = {
    ...database.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PUBLIC_URL: '',
    ...(TEST_DATABASE_URL ? { SEED_DEMO: '' } : { SEED_DEMO: 'false' }),
  };
  const cliEnv = { ...database.env, DATA_DIR: dataDir };
  let server: ServeProcess | undefined;
  try {
    const port = await freePort();
    assert.notEqual(port, 8080);
    server = startServe(dataDir, port, serverEnv);
    await waitReady(server);
    const out = server.output();
    assert.match(
      out,
      TEST_DATABASE_URL ? /Database: PostgreSQL at [^\n]+, at migration \d+ of \d+/ : /Database: embedded PGlite in [^\n]+\/pglite, at migration \d+ of \d+/,
    );
    assert.match(out, /Mode: production: no demo world/);
    assert.match(out, /Credentials: none printed; create a client/);
    assert.doesNotMatch(out, /First start|Demo client/);
    if (TEST_DATABASE_URL) {
      const password = new URL(TEST_DATABASE_URL).password;
      if (password) assert.ok(!out.includes(password), 'no database password in the output');
    }
    if (!TEST_DATABASE_URL) await stop(server); // one owner of the data folder: the CLI opens it next

    // The operator's other shell has no PORT: the printed audience is still the server's.
    const created = await stacklens(cliEnv, 'clients', 'create', '--name', 'Ops', '--plan', 'basic', '--json');
    assert.equal(created.code, 0, created.stderr);
    const client = JSON.parse(created.stdout) as { client_id: string; client_secret: string; audience: string; token_url: string };
    assert.equal(client.audience, `http://127.0.0.1:${port}`);
    assert.equal(client.token_url, `http://127.0.0.1:${port}/oauth/token`);
    assert.match(created.stderr, new RegExp(`this shell's configuration \\(PUBLIC_URL, HOST, PORT\\) would give http://127\\.0\\.0\\.1:8080`));
    const key = JSON.parse((await stacklens(cliEnv, 'keys', 'create', '--client', client.client_id, '--json')).stdout) as { api_key: string; base_url: string };
    assert.equal(key.base_url, `http://127.0.0.1:${port}/api`);
    const user = await stacklens(cliEnv, 'users', 'create', '--email', 'ops@example.com', '--name', 'Ops', '--role', 'admin');
    assert.equal(user.code, 0, user.stderr);
    assert.match(user.stdout, new RegExp(`Sign in at http://127\\.0\\.0\\.1:${port}/console\n`), 'the console of the server, not the default port');

    // Nothing of the demo world was made.
    const db = await openDb(TEST_DATABASE_URL ? { databaseUrl: database.env.DATABASE_URL } : { dataDir });
    try {
      const [counts] = await db.query<{ companies: number; demo: number }>(
        `SELECT (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM api_clients WHERE name = 'demo')::int AS demo`,
      );
      assert.deepEqual(counts, { companies: 0, demo: 0 });
    } finally {
      await db.close();
    }
    assert.equal(fs.existsSync(path.join(dataDir, 'demo-client.json')), false);

    if (!TEST_DATABASE_URL) {
      server = startServe(dataDir, port, serverEnv);
      await waitReady(server);
    }
    const token = await fetch(client.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: client.audience }),
    });
    assert.equal(token.status, 200, await token.clone().text());
    const { access_token } = (await token.json()) as { access_token: string };
    const me = await fetch(`${key.base_url}/me`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { plan: string }).plan, 'basic');
    assert.equal((await fetch(`${key.base_url}/me`, { headers: { 'x-api-key': key.api_key } })).status, 200);
    await stop(server);
    server = undefined;
  } finally {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
