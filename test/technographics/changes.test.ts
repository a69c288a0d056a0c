// The change rules (technographics/changes.ts): adoptions need a claim after a successful
// absence, drops need consecutive successful absences on the page kind the product was seen
// on, failed and partial fetches never count as absence, and each event carries its bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EVIDENCE_SOURCES } from '../../src/technographics/evidence.ts';
import {
  DEFAULT_CHANGE_RULES,
  evidenceKinds,
  PAGE_KINDS,
  pageKindOf,
  technologyChanges,
  type SeenProduct,
  type Visit,
  type VisitOutcome,
} from '../../src/technographics/changes.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);

/** A visit on day `n`: `seen` maps a product to its confidence (and version), on the home page unless said otherwise. */
function visit(
  n: number,
  seen: Record<string, number | [number, string | null] | SeenProduct> = {},
  outcome: VisitOutcome = 'ok',
  kinds: string[] = ['home'],
): Visit {
  const products = new Map<string, SeenProduct>();
  for (const [id, v] of Object.entries(seen)) {
    if (typeof v === 'number') products.set(id, { confidence: v, version: null, kinds: [kinds[0]!], evidence: [`${id}-${n}`] });
    else if (Array.isArray(v)) products.set(id, { confidence: v[0], version: v[1], kinds: [kinds[0]!], evidence: [`${id}-${n}`] });
    else products.set(id, v);
  }
  return { at: day(n), outcome, kinds, seen: products };
}

const summary = (visits: Visit[], rules = DEFAULT_CHANGE_RULES) =>
  technologyChanges('co1', visits, rules).map((e) => ({
    type: e.type,
    productId: e.productId,
    earliest: e.earliest.getTime(),
    latest: e.latest.getTime(),
    detectedAt: e.detectedAt.getTime(),
  }));

test('what the first successful visits find is the baseline, not an adoption', () => {
  assert.deepEqual(technologyChanges('co1', [visit(0, { a: 0.9, b: 0.8 }), visit(7, { a: 0.9, b: 0.8 })]), []);
});

test('an adoption: a claim after a successful visit without it, bounded by the two visits, occurredAt their midpoint', () => {
  const [event, ...rest] = technologyChanges('co1', [visit(0, { b: 0.9 }), visit(10, { a: 0.8, b: 0.9 })]);
  assert.equal(rest.length, 0);
  assert.equal(event!.type, 'technology.adopted');
  assert.equal(event!.productId, 'a');
  assert.deepEqual([event!.earliest, event!.latest, event!.detectedAt], [day(0), day(10), day(10)]);
  assert.deepEqual(event!.occurredAt, day(5));
  assert.equal(event!.confidence, 0.8);
  assert.deepEqual(event!.evidence, ['a-10']);
  assert.match(event!.id, /^evt_[0-9a-f]{24}$/);
});

test('one weak trace is not an adoption; the claim that follows is, bounded by the last visit without a claim', () => {
  const events = summary([visit(0), visit(10, { a: 0.3 }), visit(20, { a: 0.7 })]);
  assert.deepEqual(events, [
    { type: 'technology.adopted', productId: 'a', earliest: day(10).getTime(), latest: day(20).getTime(), detectedAt: day(20).getTime() },
  ]);
});

test('a drop needs two consecutive successful absences: bounded by the last presence and the first absence, detected at the second', () => {
  assert.deepEqual(summary([visit(0, { a: 0.9 }), visit(10)]), [], 'one absence is not a drop');
  const [drop] = technologyChanges('co1', [visit(0, { a: 0.9 }), visit(10), visit(20)]);
  assert.equal(drop!.type, 'technology.dropped');
  assert.deepEqual([drop!.earliest, drop!.latest, drop!.detectedAt], [day(0), day(10), day(20)]);
  assert.ok(Math.abs(drop!.confidence - (1 - 0.1 ** 2)) < 1e-12);
  assert.deepEqual(drop!.evidence, ['a-0'], 'the evidence of its last presence');
  assert.deepEqual(summary([visit(0, { a: 0.9 }), visit(10), visit(20, { a: 0.9 }), visit(30)]), [], 'a presence between absences starts the count again');
  assert.deepEqual(summary([visit(0, { a: 0.9 }), visit(10), visit(20, { a: 0.2 }), visit(30)]), [], 'so does a weak trace');
  assert.equal(summary([visit(0, { a: 0.9 }), visit(10)], { ...DEFAULT_CHANGE_RULES, dropAfter: 1 })[0]?.type, 'technology.dropped', 'dropAfter is a rule');
  assert.throws(() => technologyChanges('co1', [], { ...DEFAULT_CHANGE_RULES, dropAfter: 0 }), /dropAfter must be at least 1/);
});

test('failed and partial fetches never count as absence, nor break a count of absences', () => {
  const failing = [visit(0, { a: 0.9 }), visit(10, {}, 'failed'), visit(20, {}, 'partial'), visit(30, {}, 'failed')];
  assert.deepEqual(summary(failing), []);
  assert.deepEqual(summary([...failing, visit(40), visit(45, {}, 'failed'), visit(50)]), [
    { type: 'technology.dropped', productId: 'a', earliest: day(0).getTime(), latest: day(40).getTime(), detectedAt: day(50).getTime() },
  ]);
});

test('absence is judged on the page kinds a product was seen on', () => {
  const careers = (n: number, seen: Record<string, number> = {}) => visit(n, seen, 'ok', ['careers']);
  // Seen on the careers page; home-page visits say nothing about it.
  assert.deepEqual(summary([careers(0, { a: 0.9 }), visit(10), visit(20), visit(30)]), []);
  assert.equal(summary([careers(0, { a: 0.9 }), careers(10), visit(15), careers(20)])[0]?.type, 'technology.dropped');
  // First found on a page kind no earlier visit covered: the baseline of that kind, not an adoption.
  assert.deepEqual(summary([visit(0), visit(10), careers(20, { a: 0.9 })]), []);
  assert.equal(summary([careers(0), visit(10), careers(20, { a: 0.9 })])[0]?.earliest, day(0).getTime());
});

test('a version change needs two known versions of a claim; a visit without a version changes nothing', () => {
  const events = technologyChanges('co1', [
    visit(0, { a: [0.9, '1.0'] }),
    visit(10, { a: [0.9, null] }),
    visit(20, { a: [0.9, '2.0'] }),
    visit(30, { a: [0.9, '2.0'] }),
  ]);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.type, 'technology.version_changed');
  assert.deepEqual([events[0]!.fromVersion, events[0]!.toVersion], ['1.0', '2.0']);
  assert.deepEqual([events[0]!.earliest, events[0]!.latest], [day(0), day(20)]);
  assert.deepEqual(summary([visit(0, { a: [0.9, '1.0'] }), visit(10, { a: [0.3, '2.0'] })]), [], 'a weak trace does not change the version');
});

test('a dropped product claimed again is adopted again, bounded by its last successful absence', () => {
  const events = summary([visit(0, { a: 0.9 }), visit(10), visit(20), visit(30), visit(40, { a: 0.9 })]);
  assert.deepEqual(
    events.map((e) => [e.type, e.earliest, e.latest]),
    [
      ['technology.dropped', day(0).getTime(), day(10).getTime()],
      ['technology.adopted', day(30).getTime(), day(40).getTime()],
    ],
  );
});

type Drawn = { gap: number; outcome: VisitOutcome; kinds: string[]; seen: Partial<Record<string, [number, string | null]>> }[];

// Random histories: presence drawn per visit for three products, on two page kinds.
const history = fc.array(
  fc.record({
    gap: fc.integer({ min: 1, max: 30 }),
    outcome: fc.constantFrom<VisitOutcome>('ok', 'ok', 'ok', 'partial', 'failed'),
    kinds: fc.subarray(['home', 'careers'], { minLength: 1 }),
    seen: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.tuple(fc.double({ min: 0.05, max: 1, noNaN: true }), fc.constantFrom(null, '1', '2'))),
  }),
  { maxLength: 25 },
);
function visitsOf(drawn: Drawn): Visit[] {
  let n = 0;
  return drawn.map((d) => {
    n += d.gap;
    const seen = Object.fromEntries(
      Object.entries(d.seen)
        .map(([id, value]) => [id, value!] as const)
        .map(([id, [c, v]]) => [id, { confidence: c, version: v, kinds: [d.kinds[0]!], evidence: [`${id}-${n}`] }]),
    );
    return visit(n, seen, d.outcome, d.kinds);
  });
}

test('on random histories: failed visits that saw nothing change no event; events are stable, ordered, bounded and alternate per product', () => {
  fc.assert(
    fc.property(history, fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 6 }), (drawn, failedDays) => {
      const visits = visitsOf(drawn);
      const events = technologyChanges('co1', visits);
      const withFailures = [...visits, ...failedDays.map((n) => visit(n + 0.5, {}, 'failed', ['home', 'careers']))];
      assert.deepEqual(technologyChanges('co1', withFailures), events, 'failed fetches are not absences');
      assert.deepEqual(technologyChanges('co1', [...visits].reverse()), events, 'the order of the input does not matter');
      assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'ids are distinct');
      const last = new Map<string, string>();
      for (const e of events) {
        assert.ok(e.earliest <= e.occurredAt && e.occurredAt <= e.latest && e.latest <= e.detectedAt, 'bounds hold the estimate');
        const ok = visits.find((v) => v.at.getTime() === e.detectedAt.getTime())!;
        if (e.type === 'technology.dropped') assert.equal(ok.outcome, 'ok', 'a drop is confirmed by a successful visit');
        else assert.ok(e.confidence >= DEFAULT_CHANGE_RULES.claimAt, 'adoptions and version changes are claims');
        if (e.type !== 'technology.version_changed') {
          assert.notEqual(last.get(e.productId), e.type, 'adoptions and drops of a product alternate');
          last.set(e.productId, e.type);
        }
      }
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('every evidence source belongs to one page kind a visit can cover: DNS records, job posts, or the web pages', () => {
  const kinds = Object.fromEntries(EVIDENCE_SOURCES.map((source) => [source, pageKindOf(source)]));
  assert.deepEqual(kinds, { html: 'web', script: 'web', meta: 'web', header: 'web', cookie: 'web', dns: 'dns', job: 'jobs' });
  for (const kind of Object.values(kinds)) assert.ok((PAGE_KINDS as readonly string[]).includes(kind));
});

test('job posts never show absence: a product seen only in job posts is not dropped when the posts end, nor adopted from them', () => {
  const jobs = (n: number, seen: Record<string, number> = {}) => visit(n, seen, 'ok', ['jobs']);
  assert.deepEqual(summary([jobs(0), jobs(10, { looker: 0.8 }), jobs(20), jobs(30), jobs(40)]), [], 'no adoption from a post, no drop when the posts end');
  // Seen on the home page too: the home page still judges it.
  const both = [visit(0), visit(10, { looker: 0.9 }), jobs(15, { looker: 0.8 }), visit(20), visit(30)];
  assert.deepEqual(
    summary(both).map((e) => e.type),
    ['technology.adopted', 'technology.dropped'],
  );
});

test('the page kinds of a detection are those of its own traces: not an implication carried from another product, not traces too weak to claim beside a job post', () => {
  const item = (source: 'script' | 'dns' | 'job' | 'cookie', weight: number, ruleId = `MySQL/${source}/0`) => ({ source, weight, ruleId });
  assert.deepEqual(evidenceKinds([item('script', 0.9), item('dns', 0.6)]), ['dns', 'web']);
  // A product named in a job post, a weak implication from the home page beside it: the claim stands on the post.
  assert.deepEqual(evidenceKinds([item('job', 0.6), item('script', 0.5, 'WordPress/implies/MySQL')]), ['jobs']);
  // Implied only: the implying product's page judges it.
  assert.deepEqual(evidenceKinds([item('script', 0.75, 'WordPress/implies/PHP')]), ['web']);
  // Its own weak cookie beside a post: no claim without the post, so the home page cannot show it absent.
  assert.deepEqual(evidenceKinds([item('job', 0.6), item('cookie', 0.3)]), ['jobs']);
  // A home-page trace that claims on its own: the home page judges it, the post too.
  assert.deepEqual(evidenceKinds([item('job', 0.6), item('script', 0.8)]), ['jobs', 'web']);
});
