// Observations: evidence items logged for a company and a product. The observation log is
// append-only and keeps an evidence item once per day (its evidenceHash on a UTC day), so a
// trace seen again the same day adds nothing; installs are folded from it (installs.ts).
import { evidenceHash, type EvidenceItem, type EvidenceSource } from './evidence.ts';

/** One row of the observation log. */
export interface Observation {
  companyId: string;
  productId: string;
  seenAt: Date;
  evidenceHash: string;
  source: EvidenceSource;
  ruleId: string;
  /** The evidence item as the log keeps it (jsonb): url, ruleId, excerpt, version, weight and the input it came from. */
  evidence: Record<string, unknown>;
  weight: number;
  runId: string | null;
}

interface ObservationContext {
  companyId: string;
  productId: string;
  seenAt: Date;
  /** The input the detection came from (crawl, artifacts, har, warc, jobs, api, demo), kept in the evidence as `input`. */
  input?: string;
  runId?: string | null;
}

/** The log row of one evidence item; `hash` when the caller has it already (evidenceHash of the item). */
export function observationOf(item: EvidenceItem, at: ObservationContext, hash = evidenceHash(item)): Observation {
  return {
    companyId: at.companyId,
    productId: at.productId,
    seenAt: at.seenAt,
    evidenceHash: hash,
    source: item.source,
    ruleId: item.ruleId,
    evidence: {
      ...(item.url ? { url: item.url } : {}),
      ruleId: item.ruleId,
      excerpt: item.excerpt,
      ...(item.version ? { version: item.version } : {}),
      weight: item.weight,
      ...(at.input ? { input: at.input } : {}),
    },
    weight: item.weight,
    runId: at.runId ?? null,
  };
}

/** The UTC day (YYYY-MM-DD) an observation belongs to. */
export const dayOf = (seenAt: Date | number): string => new Date(seenAt).toISOString().slice(0, 10);

/** The key under which the log keeps an observation once: company, product, UTC day and evidence hash. */
export const logKeyOf = (o: Pick<Observation, 'companyId' | 'productId' | 'seenAt' | 'evidenceHash'>): string =>
  `${o.companyId}|${o.productId}|${dayOf(o.seenAt)}|${o.evidenceHash}`;
