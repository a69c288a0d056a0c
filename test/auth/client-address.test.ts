// The address authentication throttles count by: IPv4 alone, IPv6 by its /64, an
// IPv4-mapped IPv6 address as its IPv4 address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressGroup } from '../../src/auth/client-address.ts';

test('IPv6 addresses count by their /64, whatever their spelling; IPv4 addresses alone', () => {
  const group = '2001:db8:0:1::/64';
  for (const ip of ['2001:db8:0:1::1', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0DB8:0000:0001:0:0:0:9', '2001:db8:0:1:a:b:c:d'])
    assert.equal(addressGroup(ip), group, ip);
  assert.notEqual(addressGroup('2001:db8:0:2::1'), group);
  assert.equal(addressGroup('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(addressGroup('203.0.113.7'), '203.0.113.7');
  assert.notEqual(addressGroup('203.0.113.8'), addressGroup('203.0.113.7'));
  assert.equal(addressGroup('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressGroup('::ffff:cb00:7107'), '203.0.113.7');
  assert.equal(addressGroup('64:ff9b::203.0.113.7'), '64:ff9b:0:0::/64');
  assert.equal(addressGroup('not an address'), 'not an address');
});
