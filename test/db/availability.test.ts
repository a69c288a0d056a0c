// The availability monitor turns statement outcomes into one change per transition: a
// statement that was already running when the database went down is old news either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Availability, type AvailabilityChange } from '../../src/db/db-faults.ts';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

test('down once, up once: successes and failures of statements begun before the change do not flip it', () => {
  const availability = new Availability();
  const changes: AvailabilityChange['state'][] = [];
  availability.on('change', (c) => changes.push(c.state));
  const before = Date.now() - 1000;
  availability.failed(refused, before);
  assert.equal(availability.up, false);
  // A statement begun before the outage that completes during it (PostgreSQL stopping).
  availability.succeeded(before);
  assert.equal(availability.up, false, 'an old statement does not bring it back');
  availability.failed(refused, before);
  assert.deepEqual(changes, ['down']);
  availability.succeeded(Date.now() + 1);
  assert.equal(availability.up, true);
  // A statement begun before the recovery that fails late is a leftover, not a new outage.
  availability.failed(refused, before);
  assert.deepEqual(changes, ['down', 'up']);
});
