// What `stacklens detect` prints, whatever its input: the JSON record of one site (detect.ts
// siteRecord), the readable report, and the sink hook through which detections can also go
// elsewhere (the database, with --save).
import { once } from 'node:events';
import type { Detection, SiteArtifacts } from '../detect/types.ts';
import type { SiteRecord } from '../detect/detect.ts';

export { siteRecord, type SiteRecord } from '../detect/detect.ts';

/**
 * Where detections go besides the output: the hook a `--save` option plugs into (recording
 * observations in the database is the evidence log's job). `write` is awaited per site.
 */
export interface DetectSink {
  write(record: SiteRecord, site: SiteArtifacts): Promise<void>;
  close(): Promise<void>;
}

/** Writes to stdout under backpressure. */
export async function writeOut(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

/** The readable report of one site: one line per technology, its strongest evidence under it. */
export function formatSite(domain: string, detections: Detection[]): string {
  const out = [`${domain}: ${detections.length} technolog${detections.length === 1 ? 'y' : 'ies'}`];
  for (const d of detections) {
    out.push(
      `  ${`${d.name}${d.version ? ` ${d.version}` : ''}`.padEnd(36)} ${d.category.padEnd(30)} ${d.confidence.toFixed(2)}${d.impliedBy ? `  (implied by ${d.impliedBy.join(', ')})` : ''}`,
    );
    for (const e of d.evidence.slice(0, 2)) out.push(`      ${e.source.padEnd(6)} ${e.excerpt.slice(0, 110)}`);
  }
  return `${out.join('\n')}\n\n`;
}
