// Evidence, the vocabulary of "a company uses a technology": what one trace is, which traces
// are independent of each other, how their weights combine, and the identity under which the
// observation log keeps a trace once a day. The detector (detect/), the observation log
// (services/observations.ts, store/observations.ts) and the demo world (ingest/seed/) all
// speak it; the three names of evidence are:
//   EvidenceItem   one trace the detector found on a site (this file);
//   Observation    an evidence item logged for a company and product on a day (observations.ts);
//   InstallSignal  what the log folds into per install, the input of the in-use confidence (installs.ts).
import { hash } from 'node:crypto';

export const EVIDENCE_SOURCES = ['html', 'script', 'meta', 'header', 'cookie', 'dns', 'job'] as const;
export type EvidenceSource = (typeof EVIDENCE_SOURCES)[number];

/** One trace the detector found on a site. */
export interface EvidenceItem {
  source: EvidenceSource;
  /** The page the trace was on; null for DNS records and job posts. */
  url: string | null;
  /** `<technology>/<field>/<key or index>` (ruleIdOf), e.g. `HubSpot/scriptSrc/0`, `Google Workspace/dns.MX/0`. */
  ruleId: string;
  /** At most 200 characters of the matched text, whitespace collapsed. */
  excerpt: string;
  /** The version the trace carried; null when it carried none. */
  version: string | null;
  /** How much this one trace says the technology is in use, in (0, 1]. */
  weight: number;
}

/** The id of a rule: the technology, the field it matches (`scriptSrc`, `dns.SPF`, …) and its key or index in that field. */
export function ruleIdOf(technology: string, field: string, key: string): string {
  return `${technology}/${field}/${key}`;
}

/**
 * The independent trace an evidence item belongs to. Rules of one DNS record type are one
 * trace: the includes of one SPF record, the MX hosts of one mail provider, are one setting
 * however many of a vendor's rules they match (two SPF includes of one sender would add up to
 * 0.64, a claim from a record nobody prunes). Any other rule is a trace of its own. Read from
 * the rule id's field (the second part from the end: a technology's name may hold a `/`).
 * TRACE_SQL is the same rule over the observation log's columns.
 */
export function traceOf(e: Pick<EvidenceItem, 'source' | 'ruleId'>): string {
  if (e.source !== 'dns') return e.ruleId;
  const parts = e.ruleId.split('/');
  const field = parts.length >= 2 ? parts[parts.length - 2]! : '';
  return field.startsWith('dns.') ? field : e.ruleId;
}

/** traceOf over the observation log's `source` and `rule_id` columns (split_part with -2: the second part from the end). */
export const TRACE_SQL = `CASE WHEN source = 'dns' AND split_part(rule_id, '/', -2) LIKE 'dns.%' THEN split_part(rule_id, '/', -2) ELSE rule_id END`;

/** The confidence at which a detection is a claim that a technology is used (the detector reports from it; an adoption needs one). */
export const CLAIM_CONFIDENCE = 0.5;

/** Noisy-OR of independent weights (each clamped to [0, 1]). */
export function combine(weights: Iterable<number>): number {
  let miss = 1;
  for (const w of weights) miss *= 1 - Math.min(Math.max(w, 0), 1);
  return 1 - miss;
}

/** The noisy-OR of each trace's strongest weight: how strongly a set of evidence items says a technology is used. */
export function traceStrength(items: Iterable<Pick<EvidenceItem, 'source' | 'ruleId' | 'weight'>>): number {
  const strongest = new Map<string, number>();
  for (const e of items) {
    const trace = traceOf(e);
    strongest.set(trace, Math.max(strongest.get(trace) ?? 0, e.weight));
  }
  return combine(strongest.values());
}

/** The stable identity of one evidence item: the same item seen on the same day is one observation. */
export function evidenceHash(e: Pick<EvidenceItem, 'source' | 'ruleId' | 'url' | 'excerpt' | 'version'>): string {
  // The one-shot hash: a third of createHash's cost on strings this short (the demo world hashes ≈ 400,000).
  return hash('sha256', JSON.stringify([e.source, e.ruleId, e.url ?? '', e.excerpt, e.version ?? '']), 'hex').slice(0, 32);
}
