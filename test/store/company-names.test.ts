// The name candidates of list matching (store/lists.ts companiesByNames) among many similar
// names: the nearest names by trigram distance, best first and ties by id, within the row's
// country when it has one, nothing below the similarity floor. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import type { Db } from '../../src/db/db.ts';
import { companiesByNames } from '../../src/store/lists.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  // 600 names that share most of their trigrams ("Known Company N"), every third in DE.
  const companies = Array.from({ length: 600 }, (_, n) => ({
    id: `cmp_known_${String(n).padStart(3, '0')}`,
    domain: `known${n}.example`,
    name: `Known Company ${n}`,
    country: n % 3 === 0 ? 'DE' : 'US',
  }));
  // Two companies of one name: a tie, broken by id.
  companies.push({ id: 'cmp_twin_b', domain: 'twin-b.example', name: 'Twin Labs', country: 'FR' });
  companies.push({ id: 'cmp_twin_a', domain: 'twin-a.example', name: 'Twin Labs', country: 'FR' });
  await insertWorld(db, { companies });
});
after(() => db.close());

test('the nearest names among many similar ones, best first, within the country when given', async () => {
  const [exact, typo, inCountry, elsewhere] = [
    { name: 'Known Company 123', country: null },
    { name: 'Knwon Company 123', country: null },
    { name: 'Known Company 123', country: 'DE' },
    { name: 'Known Company 124', country: 'DE' }, // 124 is in the US
  ];
  const hits = await companiesByNames(db, [exact, typo, inCountry, elsewhere], 5);
  const of = (i: number) => hits.filter((h) => h.i === i);
  assert.equal(of(1)[0]!.id, 'cmp_known_123');
  assert.equal(of(1)[0]!.score, 1);
  assert.equal(of(1).length, 5);
  assert.equal(of(2)[0]!.id, 'cmp_known_123', 'a typo still finds its company first');
  assert.equal(of(3)[0]!.id, 'cmp_known_123');
  assert.ok(
    of(3).every((h) => h.country === 'DE'),
    'only companies of the row’s country',
  );
  assert.ok(!of(4).some((h) => h.id === 'cmp_known_124'), 'a company of another country is no candidate');
  assert.ok(
    of(4).every((h) => h.country === 'DE'),
    'the nearest German names instead',
  );
  for (const i of [1, 2, 3, 4]) {
    const scores = of(i).map((h) => h.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'best first',
    );
  }
});

test('ties are broken by id; nothing below the similarity floor; a country without companies has no candidates', async () => {
  const hits = await companiesByNames(
    db,
    [
      { name: 'Twin Labs', country: 'FR' },
      { name: 'Zyxwvut Qrstuv', country: null },
      { name: 'Known Company 5', country: 'JP' },
    ],
    5,
  );
  assert.deepEqual(
    hits.filter((h) => h.i === 1).map((h) => h.id),
    ['cmp_twin_a', 'cmp_twin_b'],
  );
  assert.equal(hits.filter((h) => h.i === 2).length, 0);
  assert.equal(hits.filter((h) => h.i === 3).length, 0);
});
