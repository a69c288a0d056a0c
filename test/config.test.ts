import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ConfigError, ENV_VARIABLES, envDefault, loadConfig } from '../src/config.ts';

test('defaults: 127.0.0.1:8080, ./data (absolute), PGlite, audience = public origin', () => {
  const c = loadConfig({});
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8080);
  assert.equal(c.dataDir, path.join(process.cwd(), 'data'), 'the default folder is resolved once, at configuration');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.publicUrl, 'http://127.0.0.1:8080');
  assert.equal(c.auth.audience, 'http://127.0.0.1:8080');
  assert.equal(c.auth.issuer, 'http://127.0.0.1:8080');
  assert.equal(c.auth.tokenTtlSeconds, 3600);
  assert.equal(c.auth.external, undefined);
});

test('a relative DATA_DIR is made absolute against the working directory', () => {
  assert.equal(loadConfig({ DATA_DIR: 'var/stacklens' }).dataDir, path.resolve('var/stacklens'));
  assert.equal(loadConfig({ DATA_DIR: '/srv/stacklens/' }).dataDir, '/srv/stacklens');
  assert.equal(loadConfig({ DATA_DIR: '' }).dataDir, path.resolve('data'), 'empty is unset: the default');
});

test('PUBLIC_URL drives issuer and audience unless they are set', () => {
  const c = loadConfig({ PUBLIC_URL: 'https://api.example.com/', API_AUDIENCE: 'https://api.example.com/api' });
  assert.equal(c.publicUrl, 'https://api.example.com');
  assert.equal(c.auth.issuer, 'https://api.example.com');
  assert.equal(c.auth.audience, 'https://api.example.com/api');
});

test('bad values fail at boot naming each variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', TOKEN_TTL_SECONDS: '5' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /PORT/);
      assert.match(err.message, /TOKEN_TTL_SECONDS/);
      return true;
    },
  );
});

test('external identity provider settings come as a set of three', () => {
  assert.throws(() => loadConfig({ AUTH_ISSUER: 'https://idp.example.com/' }), /must be set together/);
  const c = loadConfig({ AUTH_ISSUER: 'https://idp', AUTH_JWKS_URL: 'https://idp/jwks', AUTH_AUDIENCE: 'api' });
  assert.deepEqual(c.auth.external, { issuer: 'https://idp', jwksUrl: 'https://idp/jwks', audience: 'api' });
});

test('each bad value is named with its rule and what was given, one line per variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'abc', SEED_DEMO: 'maybe', LOG_LEVEL: 'loud', DATABASE_POOL_SIZE: '0' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      const lines = err.message.split('\n');
      assert.equal(lines[0], 'Invalid configuration:');
      assert.ok(lines.includes('  PORT must be an integer 1-65535, got "abc"'), err.message);
      assert.ok(lines.includes('  SEED_DEMO must be true or false (or 1/0, yes/no), got "maybe"'), err.message);
      assert.ok(lines.includes('  LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'), err.message);
      assert.ok(lines.includes('  DATABASE_POOL_SIZE must be an integer 1-200, got "0"'), err.message);
      assert.equal(lines.length, 5, 'one line per variable');
      return true;
    },
  );
  assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be an integer 1-65535, got "70000"/);
  assert.throws(() => loadConfig({ PORT: '80.5' }), /PORT must be an integer 1-65535, got "80.5"/);
});

test('SEED_DEMO: on by default on the embedded database only; with DATABASE_URL only when asked', () => {
  assert.equal(loadConfig({}).seedDemo, true);
  assert.equal(loadConfig({}).mode, 'demo');
  const pg = loadConfig({ DATABASE_URL: 'postgres://app@db/stacklens' });
  assert.equal(pg.seedDemo, false);
  assert.equal(pg.mode, 'production');
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://app@db/stacklens', SEED_DEMO: 'true' }).mode, 'demo');
  assert.equal(loadConfig({ SEED_DEMO: 'false' }).mode, 'production');
});

test('ENV_VARIABLES and envDefault describe the schema', () => {
  assert.ok(ENV_VARIABLES.includes('PORT') && ENV_VARIABLES.includes('METRICS_TOKEN'));
  assert.equal(envDefault('PORT'), '8080');
  assert.equal(envDefault('CHECK_REPLIES'), 'false');
  assert.equal(envDefault('DATABASE_URL'), undefined);
  assert.equal(envDefault('SEED_DEMO'), undefined, 'derived from DATABASE_URL');
});

/** The configuration table of docs/operations.md: variable names (several per row allowed) → default cell. */
function readmeConfigTable(): Map<string, string> {
  const readme = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'operations.md'), 'utf8');
  const section = readme.split(/^### Configuration reference$/m)[1]?.split(/^#{2,3} /m)[0];
  assert.ok(section, 'docs/operations.md has a "### Configuration reference" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1]!.startsWith('`')) continue;
    for (const [, name] of cells[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) rows.set(name!, cells[2]!);
  }
  return rows;
}

test('the configuration table (docs/operations.md) lists exactly the variables the code reads, with their defaults', () => {
  const table = readmeConfigTable();
  assert.deepEqual([...table.keys()].sort(), [...ENV_VARIABLES].sort());
  for (const name of ENV_VARIABLES) {
    const fallback = envDefault(name);
    if (fallback !== undefined)
      assert.ok(table.get(name)!.includes(`\`${fallback}\``), `${name}: documented default "${table.get(name)}" should say \`${fallback}\``);
  }
});

test('nothing in src/ reads process.env but config.ts', () => {
  const src = path.join(import.meta.dirname, '..', 'src');
  const readers = (fs.readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && fs.readFileSync(path.join(src, f), 'utf8').includes('process.env'))
    .map((f) => f.split(path.sep).join('/'));
  assert.deepEqual(readers, ['config.ts']);
});

test('searches and peer comparisons run on half the cores by default (at least one); a set value wins', () => {
  const half = Math.max(1, Math.floor(availableParallelism() / 2));
  const defaults = loadConfig({}).bulkheads;
  assert.equal(defaults.search.concurrency, half);
  assert.equal(defaults.peers.concurrency, half);
  assert.equal(defaults.export.concurrency, 2, 'exports and AI calls wait on I/O, not a core');
  const set = loadConfig({ BULKHEAD_SEARCH: '7', BULKHEAD_PEERS: '3' }).bulkheads;
  assert.equal(set.search.concurrency, 7);
  assert.equal(set.peers.concurrency, 3);
});

test('a setting of an earlier version stops the start and names what replaced it', () => {
  assert.throws(
    () => loadConfig({ MAX_CONNECTIONS_PER_IP: '16' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /MAX_CONNECTIONS_PER_IP is no longer read: .*MAX_CONCURRENT_REQUESTS_PER_CLIENT/);
      return true;
    },
  );
});
