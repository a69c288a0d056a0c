// The human-readable parts of AI suggestions: where a suggestion comes from (`source`), why
// (`reason`), how the product is used and at what scope. Derived only from the evidence or
// the peer signal behind the suggestion, so a client can check each claim with the
// deterministic endpoints (products-in-use, cohort members, usage metrics).

import { intensityBucket, type IntensityBucket } from './buckets.ts';

// The same LOW/MEDIUM/HIGH cut-offs as the search filters (one definition in buckets.ts).
export { intensityBucket };

// A Map: a stored source name such as 'constructor' must not find Object's prototype.
const SOURCE_WORDS = new Map<string, string>(
  Object.entries({
    website: 'website',
    job_posting: 'job-posting',
    jobs: 'job-posting',
    dns: 'DNS',
    partner_data: 'partner-data',
    social: 'social-media',
    press: 'press',
  }),
);

/** "a", "a and b", "a, b and c". */
export function joinWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function sourceWords(sources: string[]): string[] {
  const words = [...new Set(sources.map((s) => SOURCE_WORDS.get(s) ?? s.replace(/[_\s]+/g, '-').toLowerCase()))].sort();
  return words.length ? words : ['unattributed'];
}

const day = (d: Date) => d.toISOString().slice(0, 10);

interface EvidenceSummary {
  sources: string[];
  hitCount: number;
  intensity: number;
  firstVerified: Date;
  lastVerified: Date;
}

/** "website and job-posting signals, 14 hits, last seen 2026-09-02". */
export function evidenceSource(e: EvidenceSummary): string {
  return `${joinWords(sourceWords(e.sources))} signals, ${e.hitCount} ${e.hitCount === 1 ? 'hit' : 'hits'}, last seen ${day(e.lastVerified)}`;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

/** "inferred: used by 72% of its peer cohort". */
export function inferredSource(peerShare: number): string {
  return `inferred: used by ${pct(peerShare)} of its peer cohort`;
}

/** Why an evidenced product is listed, with its in-use verdict. */
export function evidenceReason(e: EvidenceSummary, probability: number): string {
  const verdict = probability >= 0.5 ? 'in use' : 'probably no longer in use';
  return `Observed ${e.hitCount === 1 ? 'once' : `${e.hitCount} times`} since ${day(e.firstVerified)} (${intensityBucket(e.intensity)} intensity); evidence says ${verdict}`;
}

interface InferredSummary {
  peerUsers: number;
  cohortSize: number;
  categoryCovered: boolean;
  /** Name of the company's product that co-occurs with this one most, when any. */
  coUsedWith?: { product: string; share: number } | null;
}

/** Why an inferred product is suggested: the peer count, and what weighs against it. */
export function inferredReason(s: InferredSummary): string {
  const parts = [`No evidence at this company; ${s.peerUsers} of its ${s.cohortSize} nearest peers use it`];
  if (s.coUsedWith) parts.push(`${pct(s.coUsedWith.share)} of ${s.coUsedWith.product} users also run it`);
  if (s.categoryCovered) parts.push('it already runs another product of this category');
  return parts.join('; ');
}

const SCOPE: Record<IntensityBucket, string> = {
  HIGH: 'Organization-wide',
  MEDIUM: 'Several teams',
  LOW: 'Single team or limited',
};
const USE: Record<IntensityBucket, string> = { HIGH: 'Heavy', MEDIUM: 'Regular', LOW: 'Light' };

/** howProductIsUsed from the category and the observed intensity. */
export function howProductIsUsed(category: string, intensity: number): string {
  return `${USE[intensityBucket(intensity)]} use for ${category}`;
}

/** scope from the observed intensity. */
export function usageScope(intensity: number): string {
  return SCOPE[intensityBucket(intensity)];
}

/** The same for an inferred user: the typical intensity among the peers that use it. */
export function inferredUse(category: string, peerIntensity: number | null): { howProductIsUsed: string; scope: string } {
  if (peerIntensity === null) return { howProductIsUsed: `Likely used for ${category}`, scope: 'Unknown (inferred)' };
  const b = intensityBucket(peerIntensity);
  return { howProductIsUsed: `Likely ${USE[b].toLowerCase()} use for ${category} (as at its peers)`, scope: `${SCOPE[b]} (typical among peers)` };
}
