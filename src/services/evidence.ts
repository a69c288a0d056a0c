// The evidence behind a company's product: the observations of the log, paged,
// and the newest few per record for `include=evidence` on the company's products.
import type { Db } from '../db/db.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { EvidenceInput, ObservationRecord } from '../schemas/evidence.ts';
import { EVIDENCE_PER_RECORD } from '../schemas/evidence.ts';
import { NotFoundError } from '../errors.ts';
import { installSignals } from '../store/evidence.ts';
import { evidencePage, latestEvidence, type EvidenceItemRow } from '../store/observations.ts';
import { requireCompany, requireProducts } from './resolve.ts';

function toRecord(r: EvidenceItemRow): ObservationRecord {
  return {
    source: r.source as ObservationRecord['source'],
    url: r.url,
    ruleId: r.ruleId,
    excerpt: r.excerpt,
    version: r.version,
    weight: r.weight,
    seenAt: r.seenAt.toISOString(),
  };
}

export async function companyProductEvidence(db: Db, input: EvidenceInput): Promise<Page<ObservationRecord>> {
  const company = await requireCompany(db, input.companyDomain);
  await requireProducts(db, [input.productId]);
  const { total, items } = await evidencePage(db, company.id, input.productId, input.page * input.size, input.size);
  if (total === 0 && (await installSignals(db, [company.id], [input.productId])).length === 0) {
    throw new NotFoundError(`productId: company '${input.companyDomain}' has no install and no evidence of product '${input.productId}'`);
  }
  return toPage(items.map(toRecord), total, input.size);
}

/** The newest evidence items of each product (at most EVIDENCE_PER_RECORD), by product id. */
export async function newestEvidence(db: Db, companyId: string, productIds: string[]): Promise<Map<string, ObservationRecord[]>> {
  const rows = await latestEvidence(db, companyId, productIds, EVIDENCE_PER_RECORD);
  return new Map([...rows].map(([id, list]) => [id, list.map(toRecord)]));
}
