// The rules of safe production defaults (src/operations.ts): what a weak secret is, how the
// database is named without its password.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config.ts';
import { describeDatabase, redactUrlPasswords, weakSecretReason, weakSecrets } from '../src/operations.ts';

const STRONG = 'Qm9Xv2LrT8kZp4WsYc7NbH1jFd6GaE3u';

test('weak: short, few distinct characters, or a placeholder word; strong: 32+ random characters', () => {
  assert.match(weakSecretReason('hunter2')!, /7 characters; at least 32/);
  assert.match(weakSecretReason('ab'.repeat(20))!, /fewer than 10 distinct characters/);
  for (const placeholder of [
    'change-me-please-0123456789abcdefghij',
    'my-super-SECRET-value-0123456789abcd',
    'stacklens-0123456789-abcdefghijklmnop',
    'Password123-0123456789-abcdefghijklm',
  ]) {
    assert.match(weakSecretReason(placeholder)!, /placeholder or default value/, placeholder);
  }
  assert.equal(weakSecretReason(STRONG), undefined);
  assert.equal(weakSecretReason('kT0sBw3vQy8Xz1RjHn6LmC2pGd5FaE9u4Ii7Ko='), undefined, 'openssl rand -base64 32');
});

test('weakSecrets names each weak configured secret, never its value; unset secrets are generated, not weak', () => {
  assert.deepEqual(weakSecrets(loadConfig({})), []);
  assert.deepEqual(weakSecrets(loadConfig({ CURSOR_SECRET: STRONG, METRICS_TOKEN: STRONG })), []);
  const problems = weakSecrets(loadConfig({ CURSOR_SECRET: 'short1', METRICS_TOKEN: 'changeme-changeme-changeme-changeme' }));
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /^CURSOR_SECRET is too weak: /);
  assert.match(problems[1]!, /^METRICS_TOKEN is too weak: .*openssl rand -base64 32$/);
  assert.ok(problems.every((p) => !p.includes('short1')));
});

test('the database as the start-up log names it: engine, host, port, database, user; never the password', () => {
  assert.equal(describeDatabase({ databaseUrl: undefined, dataDir: './data' }), 'embedded PGlite in ./data/pglite');
  assert.equal(
    describeDatabase({ databaseUrl: 'postgres://app:s3cr3t@db.internal:5433/stacklens?sslmode=require', dataDir: './data' }),
    'PostgreSQL at db.internal:5433/stacklens (user app)',
  );
  assert.equal(describeDatabase({ databaseUrl: 'host=db password=s3cr3t', dataDir: './data' }), 'PostgreSQL (connection string not a URL)');
  assert.equal(
    describeDatabase({
      databaseUrl: 'postgres://app:s3cr3t@db1:5432/stacklens',
      databaseReadUrl: 'postgres://app:s3cr3t@db2:5432/stacklens',
      dataDir: './data',
    }),
    'PostgreSQL at db1:5432/stacklens (user app); reads that may lag from the replica at db2:5432/stacklens (user app)',
  );
});

test('passwords in URLs are masked anywhere in a text', () => {
  assert.equal(
    redactUrlPasswords('connect postgres://app:s3cr3t@db:5432/x failed; redis://:pw@cache:6379'),
    'connect postgres://app:***@db:5432/x failed; redis://:***@cache:6379',
  );
  assert.equal(redactUrlPasswords('http://127.0.0.1:8080/api'), 'http://127.0.0.1:8080/api', 'a port is no password');
});
