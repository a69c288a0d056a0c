// Customers of products for the AI helper: companies with evidence of the products
// (probability from the in-use confidence model), then companies whose nearest peers use
// them (probability from the peer-inference model). One candidate per company: its most
// probable product. Also used by `stacklens eval ai`.
import type { Db } from '../db/db.ts';
import { cohortAdoption, productEvidence, productInstallTuples, type CompanyFilter, type EvidenceDetail, type TimeBounds } from '../store/ai.ts';
import { productDetails, productsInCategory } from '../store/products.ts';
import { categoryUserCounts, coUsagePairs, productUserCounts } from '../store/cousage.ts';
import { inUseConfidence, IN_USE_THRESHOLD } from '../intelligence/confidence.ts';
import { inferredProbability, inferredProbabilityCeiling, maxInferredProbability, smoothedPeerShare, type PeerSignal } from '../intelligence/peer-inference.ts';
import { defaultCohortPairs } from '../store/cohorts.ts';
import { inUseStacks } from './stacks.ts';

/** Products read for peer inference per request (the rest answer from evidence only). */
export const MAX_INFERRED_PRODUCTS = 10;

export interface CustomerCandidate {
  companyId: string;
  productId: string;
  product: string;
  category: string;
  probability: number;
  kind: 'observed' | 'inferred';
  evidence?: EvidenceDetail;
  signal?: PeerSignal;
  /** Median intensity of the product's in-use users (inferred candidates). */
  peerIntensity?: number | null;
}

export interface CustomerSearch {
  productIds: string[];
  filter: CompanyFilter;
  /** Adoption/verification window: evidence only (an inferred user has no dates). */
  time: TimeBounds | null;
  asOf: Date;
  population: number;
  limit: number;
}

/** The answer's order: most probable first, then by company and product id (deterministic). */
export const byProbability = (a: CustomerCandidate, b: CustomerCandidate) =>
  b.probability - a.probability || (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0) || (a.productId < b.productId ? -1 : 1);

/** Ranked candidates, one per company, at most `limit`; deterministic for the same data. */
export async function customerCandidates(db: Db, s: CustomerSearch): Promise<CustomerCandidate[]> {
  const asOfMs = s.asOf.getTime();
  const details = new Map((await productDetails(db, s.productIds)).map((d) => [d.id, d]));
  const best = new Map<string, CustomerCandidate>();
  const offer = (c: CustomerCandidate) => {
    const have = best.get(c.companyId);
    if (!have || byProbability(c, have) < 0) best.set(c.companyId, c);
  };

  // Observed: read the freshest, best-evidenced installs, rank them by calibrated confidence.
  for (const e of await productEvidence(db, s.productIds, s.filter, s.time, Math.max(500, s.limit * 20))) {
    const probability = inUseConfidence(
      {
        firstVerified: e.firstVerified.getTime(),
        lastVerified: e.lastVerified.getTime(),
        hitCount: e.hitCount,
        intensity: e.intensity,
        sourceCount: e.sources.length,
      },
      asOfMs,
    );
    offer({ companyId: e.companyId, productId: e.productId, product: e.product, category: e.category, probability, kind: 'observed', evidence: e });
  }
  if (s.time) return [...best.values()].sort(byProbability).slice(0, s.limit);

  // Inferred: companies without evidence whose Default cohort uses the product. Skipped,
  // whole or for the remaining products, once the answer is full of candidates more
  // probable than any inference can be: it could not change the answer.
  const ceiling = maxInferredProbability();
  /** The probability a new candidate must reach to enter the answer as it stands (-1 while it is not full). */
  const bar = () => (best.size < s.limit ? -1 : [...best.values()].sort(byProbability)[s.limit - 1]!.probability);
  const settled = () => bar() > ceiling;
  const categories = new Map<string, Promise<CategoryUse>>();
  for (const productId of s.productIds.slice(0, MAX_INFERRED_PRODUCTS)) {
    const d = details.get(productId);
    if (!d || settled()) continue;
    // In-use users of the product and of its category (any product of it), read once per category.
    let pending = categories.get(d.categoryId);
    if (!pending) categories.set(d.categoryId, (pending = categoryUse(db, d.categoryId, asOfMs, s.population)));
    const use = await pending;
    const product = use.products.get(productId) ?? { evidenced: new Set<string>(), users: [], intensities: [] };
    const { evidenced, users, intensities } = product;
    const populationShare = s.population > 0 ? Math.min(1, users.length / s.population) : 0;
    const adoption = (await cohortAdoption(db, users, s.filter, Math.max(1000, s.limit * 20)))
      .filter((a) => !evidenced.has(a.companyId))
      .map((a) => ({ ...a, share: smoothedPeerShare({ cohortSize: a.size, peerUsers: a.users, populationShare }) }))
      .sort((a, b) => b.share - a.share || (a.companyId < b.companyId ? -1 : 1))
      .slice(0, Math.max(200, s.limit * 5));
    if (adoption.length === 0) continue;
    // Category users among each candidate's Default peers: counted over the candidates' own
    // cohorts (a few rows each), not over every cohort that holds a category user.
    const categoryPeers = new Map<string, number>();
    for (const [companyId, memberId] of await defaultCohortPairs(
      db,
      adoption.map((a) => a.companyId),
    )) {
      if (use.users.has(memberId)) categoryPeers.set(companyId, (categoryPeers.get(companyId) ?? 0) + 1);
    }
    const partial = (a: (typeof adoption)[number]) => ({
      cohortSize: a.size,
      peerUsers: a.users,
      populationShare,
      categoryPeerUsers: categoryPeers.get(a.companyId) ?? a.users,
      categoryPopulationShare: use.populationShare,
    });
    // Only candidates that could still enter the answer have their stacks read.
    const minimum = bar();
    const contenders = adoption.filter((a) => inferredProbabilityCeiling(partial(a)) >= minimum);
    if (contenders.length === 0) continue;
    const ids = contenders.map((a) => a.companyId);
    const stacks = await inUseStacks(db, ids, s.asOf);
    const anchors = [...new Set([...stacks.values()].flatMap((rows) => rows.map((r) => r.productId)))].sort();
    const [pairs, anchorUsers] = await Promise.all([coUsagePairs(db, anchors, [productId]), productUserCounts(db, anchors)]);
    const rate = new Map(pairs.map((p) => [p.anchorId, (anchorUsers.get(p.anchorId) ?? 0) > 0 ? Math.min(1, p.together / anchorUsers.get(p.anchorId)!) : 0]));
    const peerIntensity = median(intensities);
    for (const a of contenders) {
      const stack = stacks.get(a.companyId) ?? [];
      const signal: PeerSignal = {
        ...partial(a),
        categoryCovered: stack.some((r) => r.categoryId === d.categoryId && r.productId !== productId),
        coUsage: stack.reduce((m, r) => Math.max(m, rate.get(r.productId) ?? 0), 0),
      };
      offer({
        companyId: a.companyId,
        productId,
        product: d.name,
        category: d.category,
        probability: inferredProbability(signal),
        kind: 'inferred',
        signal,
        peerIntensity,
      });
    }
  }
  return [...best.values()].sort(byProbability).slice(0, s.limit);
}

/** Who uses a main category's products: in-use users of the category, and per product its users and evidenced companies. */
interface CategoryUse {
  /** Companies with any product of the category in use. */
  users: Set<string>;
  /** Share of the population with a product of the category in use (approximate: categoryUserCounts). */
  populationShare: number;
  products: Map<string, { evidenced: Set<string>; users: string[]; intensities: number[] }>;
}

async function categoryUse(db: Db, categoryId: string, asOfMs: number, population: number): Promise<CategoryUse> {
  const tuples = await productInstallTuples(db, await productsInCategory(db, categoryId));
  const users = new Set<string>();
  const products: CategoryUse['products'] = new Map();
  for (const [companyId, pid, last, first, hitCount, intensity, sourceCount] of tuples) {
    let product = products.get(pid);
    if (!product) products.set(pid, (product = { evidenced: new Set(), users: [], intensities: [] }));
    product.evidenced.add(companyId);
    if (inUseConfidence({ lastVerified: last, firstVerified: first, hitCount, intensity, sourceCount }, asOfMs) < IN_USE_THRESHOLD) continue;
    users.add(companyId);
    product.users.push(companyId);
    product.intensities.push(intensity);
  }
  const counted = (await categoryUserCounts(db, [categoryId])).get(categoryId) ?? 0;
  return { users, products, populationShare: population > 0 ? Math.min(1, counted / population) : 0 };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}
