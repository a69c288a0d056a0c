// Products in use: for each asked product id, whether the company uses it now and a
// calibrated confidence from the install evidence (intelligence/confidence.ts).
import type { Db } from '../db/db.ts';
import { installSignals } from '../store/evidence.ts';
import { findProducts } from '../store/products.ts';
import { PayloadTooLargeError } from '../errors.ts';
import { inUseConfidence, IN_USE_THRESHOLD } from '../intelligence/confidence.ts';
import { requireCompany } from './resolve.ts';
import { MAX_PRODUCT_IDS, type ProductsInUseInput, type ProductInUse } from '../schemas/intelligence.ts';
import { currentAsOf, toInstallSignal } from './stacks.ts';

/**
 * Independent verdicts per id. No evidence (or an id that names no product) is
 * `inUse: false, confidence: 0`: the verdict is about observed evidence, not a guess.
 */
export async function productsInUse(primary: Db, input: ProductsInUseInput): Promise<ProductInUse[]> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  // The schema takes 1 or more non-blank, trimmed ids; the upper bound is a 413.
  const ids = input.productIds;
  if (ids.length > MAX_PRODUCT_IDS) throw new PayloadTooLargeError(`productIds: at most ${MAX_PRODUCT_IDS} ids per request (got ${ids.length})`);
  const company = await requireCompany(db, input.companyDomain);
  const unique = [...new Set(ids)];
  const [known, evidence, { asOf }] = await Promise.all([findProducts(db, unique), installSignals(db, [company.id], unique), currentAsOf(db)]);
  const knownIds = new Set(known.map((p) => p.id));
  const byProduct = new Map(evidence.map((e) => [e.productId, e]));
  return unique.map((productId) => {
    const e = knownIds.has(productId) ? byProduct.get(productId) : undefined;
    if (!e) return { productId, inUse: false, confidence: 0 };
    const confidence = inUseConfidence(toInstallSignal(e), asOf.getTime());
    return { productId, inUse: confidence >= IN_USE_THRESHOLD, confidence, lastVerified: e.lastVerified.toISOString(), hitCount: e.hitCount };
  });
}
