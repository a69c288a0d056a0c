// Usage benchmarks in a cohort: the simple form (share of members using each product,
// 1-100) and the detailed form (the company's categories compared with chosen peers:
// similar / different / missing).
import type { Db } from '../db/db.ts';
import { categoryWithDescendants } from '../store/categories.ts';
import { PayloadTooLargeError } from '../errors.ts';
import { usageShares } from '../intelligence/usage.ts';
import { compareStacks } from '../intelligence/comparison.ts';
import { cohortMembers } from './cohorts.ts';
import { requireCategories, requireCompanies, requireCompany, requireProducts, requireVendor } from './resolve.ts';
import { MAX_COMPARED_COMPANIES, type DetailsInput, type UsageInput, type UsageMetric, type UsageDetail } from '../schemas/intelligence.ts';
import { currentAsOf, currentStackIds, currentStacks } from './stacks.ts';
import { loadProductLabels } from '../store/catalog.ts';

/** Share of cohort members using each product any member uses, 1-100; unknown filters are 404s. */
export async function usageMetrics(db: Db, input: UsageInput): Promise<UsageMetric[]> {
  const company = await requireCompany(db, input.companyDomain);
  const vendorId = input.vendorDomain ? (await requireVendor(db, input.vendorDomain)).id : undefined;
  if (input.productId) await requireProducts(db, [input.productId]);
  const members = await cohortMembers(db, company, input.cohort);
  const { asOf } = await currentAsOf(db);
  // Ids for the counting, labels only for the answer: no per-peer product objects.
  const stacks = await currentStackIds(db, members, asOf);
  const labels = await loadProductLabels(db);
  const out: UsageMetric[] = [];
  for (const s of usageShares([...stacks.values()], members.length)) {
    const r = labels.get(s.productId);
    // A product deleted since the refresh has no label: left out, as from the stacks.
    if (!r || (input.productId && s.productId !== input.productId) || (vendorId && r.vendorId !== vendorId)) continue;
    out.push({
      percentage: s.percentage,
      product: r.productName,
      category: r.categoryName,
      productId: s.productId,
      vendorDomain: r.vendorDomain,
      companiesUsing: s.companiesUsing,
      cohortSize: s.cohortSize,
    });
  }
  return out;
}

/** One entry per compared company, in request order, each over the company's categories. */
export async function usageDetails(db: Db, input: DetailsInput): Promise<UsageDetail[]> {
  const list = input.cohortCompanyDomain;
  // The schema takes 1 or more domains; the upper bound is a 413, as for products-in-use.
  if (list.length > MAX_COMPARED_COMPANIES)
    throw new PayloadTooLargeError(`cohortCompanyDomain: at most ${MAX_COMPARED_COMPANIES} domains per request (got ${list.length})`);
  const company = await requireCompany(db, input.companyDomain);
  const peers = await requireCompanies(db, list, 'cohortCompanyDomain');

  const { asOf } = await currentAsOf(db);
  const stacks = await currentStacks(db, [company.id, ...peers.map((p) => p.id)], asOf);
  const own = stacks.get(company.id)!;
  let categories: Set<string> | undefined;
  if (input.categoryId) {
    await requireCategories(db, [input.categoryId], 'categoryId');
    categories = new Set(await categoryWithDescendants(db, input.categoryId));
  }
  if (input.productId) {
    const [product] = await requireProducts(db, [input.productId], 'productId');
    categories = intersect(categories, new Set([product!.categoryId]));
  }
  if (input.vendorDomain) {
    const vendorId = (await requireVendor(db, input.vendorDomain)).id;
    categories = intersect(categories, new Set(own.filter((r) => r.vendorId === vendorId).map((r) => r.categoryId)));
  }
  return peers.map((peer) => {
    const rows = compareStacks(own, stacks.get(peer.id) ?? [], categories);
    return {
      companyDomain: peer.domain,
      products: rows.map((r) => ({
        similar: r.similar,
        missing: r.missing,
        different: r.different,
        category: r.category,
        categoryId: r.categoryId,
        ...(r.product !== undefined ? { product: r.product, productId: r.productId } : {}),
        companyProducts: r.companyProducts,
      })),
    };
  });
}

function intersect(a: Set<string> | undefined, b: Set<string>): Set<string> {
  return a ? new Set([...a].filter((x) => b.has(x))) : b;
}
