// Pages built to make a backtracking matcher quadratic on the catalog's own rules: for each
// html or inline-script pattern, its required literal (so the prefilter lets the pattern run)
// closed by `>` (so it does not match), then, until the page is full, the part of every pattern
// before its first open repetition (`<`, `<div`, `<img` for `<img[^>]+src=...`) interleaved
// with runs of `<`, each of which a backtracking matcher tries as a start and scans on from to
// the end of the page.
import type { CompiledCatalog } from '../../src/detect/catalog.ts';
import type { CompiledPattern } from '../../src/detect/rules.ts';

export const PAGE_BYTES = 512 * 1024;

/** The literal text a pattern starts with, up to its first group, class or repetition. */
export function literalPrefix(p: CompiledPattern): string {
  const cut = p.source.search(/[[(.*+?{|^$]|\\[a-zA-Z]/);
  return (cut < 0 ? p.source : p.source.slice(0, cut)).replace(/\\(.)/g, '$1');
}

function fill(patterns: CompiledPattern[], head: string, bytes: number): string {
  // No `>` in the filler: it would end every `[^>]+` run, and the attack with it.
  const chunk = patterns.map((p) => `${literalPrefix(p).replaceAll('>', '') || '<'}${'<'.repeat(24)}`).join('');
  let body = head;
  while (body.length < bytes) body += chunk;
  return body.slice(0, bytes);
}

/** A page whose markup attacks every `html` rule. */
export function adversarialHtml(catalog: CompiledCatalog, bytes = PAGE_BYTES): string {
  const literals = catalog.html.patterns.map((p) => `${p.literal ?? ''}>`).join('');
  return fill(catalog.html.patterns, literals, bytes);
}

/** A page that is one inline script attacking every `scripts` and `js` rule. */
export function adversarialInlineScript(catalog: CompiledCatalog, bytes = PAGE_BYTES): string {
  const literals = catalog.inlineScripts.patterns.map((p) => `${p.literal ?? ''}_>`).join('');
  return `<script>${fill(catalog.inlineScripts.patterns, literals, bytes - 17)}</script>`;
}

/** A job post that attacks every `job` phrase rule: their literals, then their leading words run together. */
export function adversarialJobPost(catalog: CompiledCatalog, bytes = 64 * 1024): string {
  const literals = catalog.job.patterns.map((p) => `${p.literal ?? ''}_`).join('');
  return fill(catalog.job.patterns, literals, bytes);
}
