// Pure parts of the AI helpers: the peer-inference model, the people match and confidence,
// the suggestion wording and the header encoding of what was understood.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  inferredProbability,
  inferredProbabilityCeiling,
  inferenceFeatures,
  INFERENCE_COEFFICIENTS,
  INFERENCE_FEATURE_NAMES,
  maxInferredProbability,
  toPercent,
  type PeerSignal,
} from '../../src/intelligence/peer-inference.ts';
import { expandTitles, matchProfile, PEOPLE_FEATURE_NAMES, peopleFeatures, profileConfidence, type PeopleAsk } from '../../src/intelligence/people-match.ts';
import {
  evidenceSource,
  howProductIsUsed,
  inferredReason,
  inferredSource,
  inferredUse,
  intensityBucket,
  joinWords,
  usageScope,
} from '../../src/intelligence/suggestion-wording.ts';
import { headerSafe } from '../../src/http/routes/ai.ts';

const signal = (over: Partial<PeerSignal> = {}): PeerSignal => ({
  cohortSize: 20,
  peerUsers: 10,
  populationShare: 0.1,
  categoryPeerUsers: 18,
  categoryPopulationShare: 0.5,
  categoryCovered: false,
  coUsage: 0.2,
  ...over,
});

test('peer inference: more peers, more probability; a covered category less; bounded and deterministic', () => {
  assert.equal(inferenceFeatures(signal()).length, INFERENCE_FEATURE_NAMES.length);
  const shares = [0, 2, 5, 10, 15, 20].map((peerUsers) => inferredProbability(signal({ peerUsers, categoryPeerUsers: Math.max(peerUsers, 18) })));
  for (let i = 1; i < shares.length; i++) assert.ok(shares[i]! > shares[i - 1]!, `monotone in peer users: ${shares}`);
  assert.ok(inferredProbability(signal({ categoryCovered: true })) < inferredProbability(signal()));
  for (const s of [signal({ cohortSize: 0, peerUsers: 0, categoryPeerUsers: 0 }), signal({ peerUsers: 20, categoryPeerUsers: 20, coUsage: 1 })]) {
    const p = inferredProbability(s);
    assert.ok(p >= 0 && p <= 1 && Number.isFinite(p));
  }
  assert.equal(inferredProbability(signal()), inferredProbability(signal()));
  assert.equal(toPercent(0.734), 73);
  assert.equal(toPercent(1.2), 100);
});

test('peer inference ceilings: no signal scores above the model ceiling, nor above its own best case before its stack is known', () => {
  const ceiling = maxInferredProbability();
  assert.ok(ceiling > 0.9 && ceiling < 1, `${ceiling}`);
  // A small deterministic generator: the same signals on every run.
  let state = 42;
  const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let highest = 0;
  for (let i = 0; i < 20_000; i++) {
    const cohortSize = Math.floor(rand() * 40);
    const categoryPeerUsers = Math.floor(rand() * (cohortSize + 1));
    const s = signal({
      cohortSize,
      peerUsers: Math.floor(rand() * (categoryPeerUsers + 1)),
      populationShare: rand() ** 3,
      categoryPeerUsers,
      categoryPopulationShare: rand(),
      categoryCovered: rand() < 0.5,
      coUsage: rand(),
    });
    const p = inferredProbability(s);
    highest = Math.max(highest, p);
    assert.ok(p <= ceiling, `${JSON.stringify(s)}: ${p} > ${ceiling}`);
    const { categoryCovered: _c, coUsage: _u, ...partial } = s;
    assert.ok(p <= inferredProbabilityCeiling(partial), `${JSON.stringify(s)}: above its best case`);
  }
  assert.ok(highest > 0.9, `the signals reach near the ceiling (${highest})`);
  // A coefficient that favours an unbounded feature's low end leaves no ceiling below 1.
  const negative = [...INFERENCE_COEFFICIENTS];
  negative[INFERENCE_FEATURE_NAMES.indexOf('logShareInCategory')] = -0.3;
  assert.equal(maxInferredProbability(negative), 1);
});

const ask = (over: Partial<PeopleAsk> = {}): PeopleAsk => ({
  titles: ['CTO'],
  seniority: ['c-level'],
  functions: ['engineering', 'it'],
  hardFilters: 1,
  fuzzy: false,
  unrecognizedTerms: 0,
  ...over,
});

test('people: acronyms match their spelled-out titles; full matches score above partial ones', () => {
  assert.deepEqual(expandTitles(['CTOs', 'VP of Sales']), ['ctos', 'cto', 'chief technology officer', 'vp of sales']);
  const cto = { title: 'Chief Technology Officer', seniority: 'C-Level', function: 'Engineering' };
  const engineer = { title: 'Software Engineer', seniority: 'Entry', function: 'Engineering' };
  const m = matchProfile(ask({ titles: expandTitles(['CTO']) }), cto);
  assert.deepEqual(m, { titleMatch: true, titleExact: true, seniorityMatch: true, functionMatch: true, asked: 3, matched: 3 });
  const partial = matchProfile(ask(), engineer);
  assert.equal(partial.matched, 1);
  assert.ok(profileConfidence(ask(), m) > profileConfidence(ask(), partial));
  assert.equal(peopleFeatures(ask(), m).length, PEOPLE_FEATURE_NAMES.length);
  const unsure = profileConfidence(ask({ unrecognizedTerms: 6 }), m);
  assert.ok(unsure <= profileConfidence(ask(), m));
});

test('wording: sources, reasons, usage and scope come from the evidence', () => {
  const e = {
    sources: ['website', 'job_posting', 'website'],
    hitCount: 14,
    intensity: 72,
    firstVerified: new Date('2024-01-01T00:00:00Z'),
    lastVerified: new Date('2026-09-02T10:00:00Z'),
  };
  assert.equal(evidenceSource(e), 'job-posting and website signals, 14 hits, last seen 2026-09-02');
  assert.equal(evidenceSource({ ...e, sources: [], hitCount: 1 }), 'unattributed signals, 1 hit, last seen 2026-09-02');
  assert.equal(inferredSource(0.724), 'inferred: used by 72% of its peer cohort');
  assert.deepEqual(
    [intensityBucket(0), intensityBucket(33), intensityBucket(34), intensityBucket(66), intensityBucket(67)],
    ['LOW', 'LOW', 'MEDIUM', 'MEDIUM', 'HIGH'],
  );
  assert.equal(howProductIsUsed('CRM', 80), 'Heavy use for CRM');
  assert.equal(usageScope(10), 'Single team or limited');
  assert.deepEqual(inferredUse('CRM', null), { howProductIsUsed: 'Likely used for CRM', scope: 'Unknown (inferred)' });
  assert.equal(joinWords(['a', 'b', 'c']), 'a, b and c');
  assert.equal(
    inferredReason({ peerUsers: 18, cohortSize: 25, categoryCovered: true, coUsedWith: { product: 'HubSpot CRM', share: 0.5 } }),
    'No evidence at this company; 18 of its 25 nearest peers use it; 50% of HubSpot CRM users also run it; it already runs another product of this category',
  );
});

test('header values stay visible ASCII, reversibly', () => {
  const raw = "vendors=HubSpot (typo 'hübspt'); terms=100% \u0000日本";
  const safe = headerSafe(raw);
  assert.match(safe, /^[\x20-\x7e]*$/);
  assert.equal(decodeURIComponent(safe), raw);
});
