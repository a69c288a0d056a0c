// The resume record of a crawl: domains finished in the output and in the state file are
// skipped, a line cut by a crash is removed from both, records longer than a read chunk work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CrawlState } from '../../src/detect/collect/crawl.ts';

test('CrawlState: finished domains from output and state; partial last lines cut; big records read across chunks', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stacklens-crawl-state-'));
  const out = path.join(dir, 'out.jsonl');
  const state = path.join(dir, 'out.jsonl.state');
  const big = JSON.stringify({ domain: 'big.example', technologies: [{ name: 'X', evidence: [{ excerpt: 'é'.repeat(1_500_000) }] }] });
  const whole =
    [JSON.stringify({ domain: 'a.example', technologies: [] }), big, JSON.stringify({ domain: 'we"ird.example', technologies: [] })].join('\n') + '\n';
  writeFileSync(out, `${whole}{"domain":"cut.exa`);
  writeFileSync(state, `${JSON.stringify({ domain: 'failed.example', reason: 'timeout' })}\nnot json\n{"domain":"half`);
  const s = new CrawlState(state, out);
  assert.deepEqual([...s.done].sort(), ['a.example', 'big.example', 'failed.example', 'we"ird.example']);
  assert.equal(readFileSync(out, 'utf8'), whole, 'the partial record is cut away, nothing else');
  s.finish({ domain: 'next.example' });
  s.close();
  assert.equal(readFileSync(state, 'utf8'), `${JSON.stringify({ domain: 'failed.example', reason: 'timeout' })}\nnot json\n{"domain":"next.example"}\n`);
  assert.ok(new CrawlState(state, out).done.has('next.example'));
});
