// Tech stack of one company for the AI helper: its evidenced installs (probability from the
// in-use confidence model) and the products its nearest peers run that it shows no
// evidence of (probability from the peer-inference model). Also used by `stacklens eval ai`.
import type { Db } from '../db/db.ts';
import { companyEvidence, type EvidenceDetail } from '../store/ai.ts';
import { categoryUserCounts, coUsagePairs, productUserCounts } from '../store/cousage.ts';
import { cohortMemberIds } from '../store/cohorts.ts';
import { inUseConfidence, IN_USE_THRESHOLD } from '../intelligence/confidence.ts';
import { inferredProbability, smoothedPeerShare, type PeerSignal } from '../intelligence/peer-inference.ts';
import { inUseStacks } from './stacks.ts';

interface ObservedProduct {
  evidence: EvidenceDetail;
  probability: number;
}

interface InferredProduct {
  productId: string;
  product: string;
  category: string;
  vendorDomain: string;
  signal: PeerSignal;
  probability: number;
  /** The company's in-use product that co-occurs with this one most (population), when any. */
  coUsedWith: { product: string; share: number } | null;
}

interface StackCandidates {
  observed: ObservedProduct[];
  inferred: InferredProduct[];
  cohortSize: number;
}

/**
 * Every evidenced product and every product used by at least one Default-cohort member
 * without evidence at the company, each with its probability, unsorted. `restrict`
 * limits both to a set of product ids (a prompt that names products, vendors or categories).
 */
export async function stackCandidates(
  db: Db,
  companyId: string,
  asOf: Date,
  population: number,
  restrict: ReadonlySet<string> | null = null,
): Promise<StackCandidates> {
  const asOfMs = asOf.getTime();
  const evidence = await companyEvidence(db, companyId);
  const observed = evidence.map((e) => ({
    evidence: e,
    probability: inUseConfidence(
      {
        firstVerified: e.firstVerified.getTime(),
        lastVerified: e.lastVerified.getTime(),
        hitCount: e.hitCount,
        intensity: e.intensity,
        sourceCount: e.sources.length,
      },
      asOfMs,
    ),
  }));
  const evidenced = new Set(evidence.map((e) => e.productId));
  const inUse = observed.filter((o) => o.probability >= IN_USE_THRESHOLD).map((o) => o.evidence);
  const coveredCategories = new Set(inUse.map((e) => e.categoryId));

  const members = await cohortMemberIds(db, companyId, 'default');
  const peers = new Map<string, { users: number; product: string; category: string; categoryId: string; vendorDomain: string }>();
  const categoryPeers = new Map<string, number>();
  for (const rows of (await inUseStacks(db, members, asOf)).values()) {
    for (const categoryId of new Set(rows.map((r) => r.categoryId))) categoryPeers.set(categoryId, (categoryPeers.get(categoryId) ?? 0) + 1);
    for (const r of rows) {
      if (evidenced.has(r.productId) || (restrict && !restrict.has(r.productId))) continue;
      const hit = peers.get(r.productId);
      if (hit) hit.users++;
      else peers.set(r.productId, { users: 1, product: r.productName, category: r.categoryName, categoryId: r.categoryId, vendorDomain: r.vendorDomain });
    }
  }
  const candidateIds = [...peers.keys()].sort();
  const anchorIds = inUse.map((e) => e.productId);
  const [userCounts, pairs, categoryUsers] = await Promise.all([
    productUserCounts(db, [...candidateIds, ...anchorIds]),
    coUsagePairs(db, anchorIds, candidateIds),
    categoryUserCounts(db, [...new Set([...peers.values()].map((p) => p.categoryId))].sort()),
  ]);
  const anchorName = new Map(inUse.map((e) => [e.productId, e.product]));
  const bestCoUse = new Map<string, { product: string; share: number }>();
  for (const pair of [...pairs].sort((a, b) => (a.anchorId < b.anchorId ? -1 : a.anchorId > b.anchorId ? 1 : 0))) {
    const users = userCounts.get(pair.anchorId) ?? 0;
    if (users <= 0) continue;
    const share = Math.min(1, pair.together / users);
    const best = bestCoUse.get(pair.productId);
    if (!best || share > best.share) bestCoUse.set(pair.productId, { product: anchorName.get(pair.anchorId) ?? pair.anchorId, share });
  }
  const inferred = candidateIds.map((productId) => {
    const p = peers.get(productId)!;
    const coUse = bestCoUse.get(productId) ?? null;
    const signal: PeerSignal = {
      cohortSize: members.length,
      peerUsers: p.users,
      populationShare: population > 0 ? Math.min(1, (userCounts.get(productId) ?? 0) / population) : 0,
      categoryPeerUsers: categoryPeers.get(p.categoryId) ?? 0,
      categoryPopulationShare: population > 0 ? Math.min(1, (categoryUsers.get(p.categoryId) ?? 0) / population) : 0,
      categoryCovered: coveredCategories.has(p.categoryId),
      coUsage: coUse?.share ?? 0,
    };
    return {
      productId,
      product: p.product,
      category: p.category,
      vendorDomain: p.vendorDomain,
      signal,
      probability: inferredProbability(signal),
      coUsedWith: coUse,
    };
  });
  return { observed: restrict ? observed.filter((o) => restrict.has(o.evidence.productId)) : observed, inferred, cohortSize: members.length };
}

/** The peer share shown in texts (the smoothed share the model reads). */
export function peerShareOf(s: PeerSignal): number {
  return s.cohortSize > 0 ? s.peerUsers / s.cohortSize : smoothedPeerShare(s);
}
