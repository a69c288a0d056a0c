// The collectors' address policy: which resolved addresses a fetch may connect to. Public
// unicast passes; every private, special or unallocated range is refused, including the IPv6
// forms that carry an IPv4 address, whatever IPv4 address they carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressRange, checkUrl, isAllowedAddress, BlockedAddressError } from '../../src/detect/collect/address.ts';

test('public IPv4 and IPv6 unicast addresses are allowed', () => {
  for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '2a00:1450:4001:82a::200e', '2001:4860:4860::8888']) {
    assert.equal(isAllowedAddress(a), true, a);
    assert.equal(addressRange(a), 'unicast', a);
  }
});

test('IPv6 forms embedding an IPv4 address are refused: IPv4-compatible, IPv4-mapped, SIIT, NAT64, 6to4, Teredo', () => {
  const cases: Array<[string, string]> = [
    ['::7f00:1', 'ipv4Compatible'], // [::127.0.0.1] as the URL parser writes it
    ['::a00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'], // even a public IPv4 address: the form itself is deprecated
    ['::127.0.0.1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:c0a8:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ];
  for (const [a, range] of cases) {
    assert.equal(isAllowedAddress(a), false, a);
    assert.equal(addressRange(a), range, a);
  }
});

test('IPv6 outside the global unicast block 2000::/3 is refused, as are the special ranges', () => {
  for (const a of [
    '::',
    '::1',
    '::2',
    '4000::1',
    'e000::1',
    '100::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
  ]) {
    assert.equal(isAllowedAddress(a), false, a);
  }
  assert.equal(addressRange('4000::1'), 'unallocated');
});

test('an operator allow-list still admits a range it names', () => {
  assert.equal(isAllowedAddress('::7f00:1', { allowNetworks: ['::7f00:1/128'] }), true);
  assert.equal(isAllowedAddress('fd00::5', { allowNetworks: ['fd00::/8'] }), true);
  assert.equal(isAllowedAddress('::7f00:2', { allowNetworks: ['::7f00:1/128'] }), false);
});

test('URL literals: [::127.0.0.1] and the other embedding forms are refused before any connection', () => {
  for (const url of ['http://[::127.0.0.1]/', 'http://[::7f00:1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[64:ff9b::10.0.0.1]/', 'http://[2002:a00:1::]/']) {
    assert.throws(
      () => checkUrl(url),
      (err: unknown) => err instanceof BlockedAddressError && err.reason === 'non_public_address',
      url,
    );
  }
  assert.equal(checkUrl('http://[2606:4700::1111]/').hostname, '[2606:4700::1111]');
});
