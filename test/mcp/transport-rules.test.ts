// The transport rules as pure functions (the HTTP behaviour is in transport-security.test.ts):
// Host/Origin normalization and the `*` switch, Accept q-values and wildcards, the protocol
// version header, version negotiation, and the configuration checks of the allow-lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { acceptQuality, negotiatedVersion, originRules, postMediaRefusal, protocolVersionRefusal } from '../../src/mcp/transport-rules.ts';

const rules = (env: Record<string, string> = {}) => originRules(loadConfig({ PUBLIC_URL: 'https://mcp.example.com', ...env }));

test('Host: loopback names with the serving port, the public host (with or without its default port), extras; case and IPv6 normalized', () => {
  const r = rules({ MCP_ALLOWED_HOSTS: 'lb.internal:9000, other.internal' });
  for (const host of [
    '127.0.0.1:7000',
    'localhost:7000',
    'LocalHost:7000',
    '[::1]:7000',
    '[0:0:0:0:0:0:0:1]:7000',
    'mcp.example.com',
    'MCP.example.com:443',
    'lb.internal:9000',
    'other.internal',
  ]) {
    assert.equal(r.check(host, undefined, 7000), undefined, host);
  }
  for (const host of [
    undefined,
    '',
    'localhost:7001',
    'localhost',
    '127.0.0.1',
    'mcp.example.com:8443',
    'lb.internal',
    'a@localhost:7000',
    'localhost:7000/x',
    'evil.com',
    '[::2]:7000',
  ]) {
    assert.match(r.check(host, undefined, 7000) ?? 'allowed', /Host/, String(host));
  }
});

test("MCP_ALLOWED_HOSTS='*' turns the Host check off, never the Origin check", () => {
  const r = rules({ MCP_ALLOWED_HOSTS: '*' });
  assert.equal(r.check('anything.example', undefined, 7000), undefined);
  assert.equal(r.check(undefined, undefined, 7000), undefined);
  assert.match(r.check('anything.example', 'https://evil.example', 7000)!, /Origin/);
});

test('Origin: loopback origins with the serving port (http and https), the public origin, extras; garbage and null refused', () => {
  const r = rules({ MCP_ALLOWED_ORIGINS: 'https://console.example.org' });
  for (const origin of [
    'http://localhost:7000',
    'https://127.0.0.1:7000',
    'http://[::1]:7000',
    'https://mcp.example.com',
    'https://mcp.example.com:443',
    'https://console.example.org',
  ]) {
    assert.equal(r.check('localhost:7000', origin, 7000), undefined, origin);
  }
  for (const origin of ['null', '', 'http://mcp.example.com', 'http://localhost:7001', 'file://x', 'https://console.example.org.evil.com', 'not a url']) {
    assert.match(r.check('localhost:7000', origin, 7000) ?? 'allowed', /Origin/, origin);
  }
});

test('a configured origin must be scheme://host[:port]', () => {
  assert.throws(
    () => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' }),
    (e: unknown) => e instanceof ConfigError && /MCP_ALLOWED_ORIGINS: 'https:\/\/bad.example\/path'/.test(e.message),
  );
  assert.throws(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'ok.example' }), ConfigError);
  assert.equal(loadConfig({}).mcp.resource, 'http://127.0.0.1:8080/mcp');
});

test('Accept: q-values, wildcards and the most specific match', () => {
  assert.equal(acceptQuality(undefined, 'application/json'), 1);
  assert.equal(acceptQuality('*/*', 'text/event-stream'), 1);
  assert.equal(acceptQuality('text/*;q=0.3', 'text/event-stream'), 0.3);
  assert.equal(acceptQuality('*/*, application/json;q=0', 'application/json'), 0, 'the specific entry wins over the wildcard');
  assert.equal(acceptQuality('text/html', 'application/json'), 0);
  assert.equal(postMediaRefusal('application/json, text/event-stream', 'application/json'), undefined);
  assert.deepEqual(postMediaRefusal('application/json', 'application/json')?.[0], 406);
  assert.deepEqual(postMediaRefusal('*/*', 'text/plain')?.[0], 415);
  assert.deepEqual(postMediaRefusal('*/*', undefined)?.[0], 415);
});

test('protocol version: header check and negotiation', () => {
  assert.equal(protocolVersionRefusal(undefined), undefined);
  assert.equal(protocolVersionRefusal('2025-06-18'), undefined);
  assert.match(protocolVersionRefusal('2026-01-01')!, /Unsupported MCP-Protocol-Version '2026-01-01'.*absent means 2025-03-26/);
  assert.match(protocolVersionRefusal(['2025-06-18', '2025-03-26'])!, /Unsupported/, 'a repeated header is not one version');
  assert.equal(negotiatedVersion('2025-06-18'), '2025-06-18');
  assert.equal(negotiatedVersion('1999-01-01'), '2025-11-25');
  assert.equal(negotiatedVersion(undefined), '2025-11-25');
});
