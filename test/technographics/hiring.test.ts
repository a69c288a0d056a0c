// Hiring signals (technographics/hiring.ts): each job post counts once, on the visit that
// first saw it; a visit with new posts naming a product is one event carrying the counts of
// the last 30 and 180 days; posts seen again, other products' posts and visits without posts
// give nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hiringChanges } from '../../src/technographics/hiring.ts';
import type { SeenProduct, Visit } from '../../src/technographics/changes.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);

/** A job-board visit on day `n`: product → the job posts naming it. */
function jobsVisit(n: number, posts: Record<string, string[]>, outcome: Visit['outcome'] = 'ok'): Visit {
  const seen = new Map<string, SeenProduct>();
  for (const [id, hashes] of Object.entries(posts)) seen.set(id, { confidence: 0.6, version: null, kinds: ['jobs'], evidence: hashes, jobPosts: hashes });
  return { at: day(n), outcome, kinds: ['jobs'], seen };
}

test('each new post counts once; the counts are of the 30 and 180 days up to the visit', () => {
  const events = hiringChanges('co1', [
    jobsVisit(0, { prd_a: ['p1'] }),
    jobsVisit(20, { prd_a: ['p1', 'p2', 'p3'] }), // p1 is still listed: two new posts
    jobsVisit(40, { prd_a: ['p3'] }), // nothing new: no event
    jobsVisit(100, { prd_a: ['p4'], prd_b: ['p4'] }), // one post naming two products: an event each
    jobsVisit(250, { prd_a: ['p5'] }),
  ]);
  assert.deepEqual(
    events.map((e) => [e.productId, e.detectedAt.toISOString(), e.jobPosts30d, e.jobPosts180d, e.evidence]),
    [
      ['prd_a', day(0).toISOString(), 1, 1, ['p1']],
      ['prd_a', day(20).toISOString(), 3, 3, ['p2', 'p3']],
      ['prd_a', day(100).toISOString(), 1, 4, ['p4']],
      ['prd_b', day(100).toISOString(), 1, 1, ['p4']],
      ['prd_a', day(250).toISOString(), 1, 2, ['p5']], // p1-p3 (days 0, 20) fell out of 180 days; p4 (day 100) did not
    ],
  );
  assert.ok(events.every((e) => e.type === 'technology.hiring'));
});

test('bounds: since the previous job-board visit; the first visit is its own bound; ids are stable and order-free', () => {
  const visits = [jobsVisit(0, {}), jobsVisit(30, { prd_a: ['p1'] }, 'partial'), jobsVisit(60, { prd_a: ['p2'] })];
  const events = hiringChanges('co1', visits);
  assert.deepEqual(
    events.map((e) => [e.earliest.toISOString(), e.latest.toISOString(), e.occurredAt.toISOString()]),
    [
      [day(0).toISOString(), day(30).toISOString(), day(15).toISOString()], // a post seen on a partial visit was still seen
      [day(30).toISOString(), day(60).toISOString(), day(45).toISOString()],
    ],
  );
  assert.deepEqual(
    hiringChanges('co1', [...visits].reverse()).map((e) => e.id),
    events.map((e) => e.id),
  );
  assert.notDeepEqual(
    hiringChanges('co2', visits).map((e) => e.id),
    events.map((e) => e.id),
    'the company is part of the id',
  );
});

test('visits without job posts (web claims) give no hiring event', () => {
  const web: Visit = {
    at: day(0),
    outcome: 'ok',
    kinds: ['web'],
    seen: new Map([['prd_a', { confidence: 0.9, version: null, kinds: ['web'], evidence: ['h'] }]]),
  };
  assert.deepEqual(hiringChanges('co1', [web]), []);
});
