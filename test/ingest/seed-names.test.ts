// Demo company names are unique per world (folded: case, spaces and punctuation aside), at the
// default size and a larger one, so no two domains read as the same company. Pure generation:
// the same companies seedWorld writes, without a database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtInCatalog } from '../../src/detect/catalog.ts';
import { buildCatalog } from '../../src/ingest/seed/catalog.ts';
import { generateCompany, type CompanyContext } from '../../src/ingest/seed/companies.ts';
import { buildSegments, cumulativeShares, drawSegment } from '../../src/ingest/seed/segments.ts';
import { SCALES } from '../../src/ingest/seed/scale.ts';
import { foldName } from '../../src/intelligence/features.ts';

const technologies = builtInCatalog().technologies;

function worldNames(seed: string, n: number): { names: string[]; legalNames: string[]; domains: string[] } {
  const scale = SCALES.M;
  const segments = buildSegments(seed, buildCatalog(seed, scale, technologies), scale);
  const cumulative = cumulativeShares(segments);
  const ctx: CompanyContext = { seed, asOf: new Date('2026-01-01T00:00:00Z'), takenDomains: new Set(), takenNames: new Set(), companyId: (k) => `cmp_${k}` };
  const out = { names: [] as string[], legalNames: [] as string[], domains: [] as string[] };
  for (let i = 0; i < n; i++) {
    const c = generateCompany(ctx, i, segments[drawSegment(seed, i, cumulative)]!);
    out.names.push(c.name);
    out.legalNames.push(c.legalName);
    out.domains.push(c.domain);
  }
  return out;
}

const duplicates = (names: string[]) => {
  const seen = new Map<string, number>();
  for (const n of names) seen.set(foldName(n), (seen.get(foldName(n)) ?? 0) + 1);
  return [...seen].filter(([, k]) => k > 1).map(([n]) => n);
};

for (const [seed, n] of [
  ['stacklens', 5000],
  ['larger', 30_000],
] as const) {
  test(`${n} companies of seed '${seed}': every name is unique, and the legal name starts with it`, () => {
    const world = worldNames(seed, n);
    assert.equal(new Set(world.domains).size, n);
    assert.deepEqual(duplicates(world.names).slice(0, 10), []);
    for (let i = 0; i < n; i++) assert.ok(world.legalNames[i]!.startsWith(world.names[i]!), `${world.legalNames[i]} / ${world.names[i]}`);
  });
}

test('the names are the same for the same seed (generation order decides who keeps a name)', () => {
  assert.deepEqual(worldNames('stacklens', 300).names, worldNames('stacklens', 300).names);
});
