// The demo world's hidden truth stays out of the API: the service reads only what the detector
// found in the rendered artifacts (installs), never truth_installs or truth_segments. Checked in
// the source (only the evaluation, the seed and the digest may name the truth tables) and in
// behaviour (a tool in use that left no trace is not served; a stale trace is).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';

const SRC = new URL('../../src/', import.meta.url).pathname;
/** The only modules that may read or write the truth tables (the schema's declarations and the tables' placement on Citus name them without reading them). */
const ALLOWED = new Set(['store/truth.ts', 'store/seed.ts', 'db/schema.ts', 'db/citus.ts', 'store/digest.ts', 'cli/eval.ts']);
const allowed = (rel: string) => ALLOWED.has(rel) || rel.startsWith('eval/');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('only the evaluation, the seed and the digest name the truth tables or import store/truth.ts', () => {
  const offenders: string[] = [];
  for (const path of files(SRC)) {
    const rel = relative(SRC, path);
    const text = readFileSync(path, 'utf8');
    if (/\btruth_(installs|segments)\b|store\/truth\.ts|from '\.\/truth\.ts'/.test(text) && !allowed(rel)) offenders.push(rel);
  }
  assert.deepEqual(offenders, []);
});

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
  await seedWorld(t.db, { companies: 80, seed: 'hidden-truth', asOf: '2026-01-01' });
});
after(() => t.close());

test('the API serves detections, not the truth: an undetected tool in use is absent, a detected stale trace is present, no truth flag leaks', async () => {
  const [missed] = await t.db.query<{ domain: string; product_id: string }>(
    `SELECT c.domain, tr.product_id FROM truth_installs tr JOIN companies c ON c.id = tr.company_id
       LEFT JOIN installs i ON i.company_id = tr.company_id AND i.product_id = tr.product_id
      WHERE tr.in_use AND tr.kind = 'active' AND i.company_id IS NULL ORDER BY c.domain, tr.product_id LIMIT 1`,
  );
  assert.ok(missed, 'the world has a tool in use that left no trace');
  const [stale] = await t.db.query<{ domain: string; product_id: string }>(
    `SELECT c.domain, i.product_id FROM installs i JOIN companies c ON c.id = i.company_id
       JOIN truth_installs tr ON tr.company_id = i.company_id AND tr.product_id = i.product_id
      WHERE NOT tr.in_use ORDER BY c.domain, i.product_id LIMIT 1`,
  );
  assert.ok(stale, 'the world has a detected trace of a tool no longer in use');
  for (const [row, served] of [
    [missed!, false],
    [stale!, true],
  ] as const) {
    const res = await t.app.inject({ method: 'GET', url: `/api/companies/${row.domain}/products/paged?size=200`, headers: client.headers });
    assert.equal(res.statusCode, 200, res.body);
    const ids = (res.json() as { content: { productId: string }[] }).content.map((r) => r.productId);
    const installs = await t.db.query<{ product_id: string }>(
      'SELECT product_id FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1 ORDER BY 1',
      [row.domain],
    );
    assert.deepEqual(
      [...ids].sort(),
      installs.map((r) => r.product_id),
    );
    assert.equal(ids.includes(row.product_id), served, `${row.domain} ${row.product_id}`);
    assert.doesNotMatch(res.body, /active_sparse|weak_mention|churned|truth|seg_[a-z_]+_(?:small|mid|large|enterprise)_/);
  }
});
