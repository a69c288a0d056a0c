// Related products: products co-used with an anchor product inside the company's cohort,
// blended with the whole population's co-usage when the cohort says little
// (intelligence/related.ts), ranked, paged; never the anchor itself.
import type { Db } from '../db/db.ts';
import type { CohortKind, RelatedInput, RelatedProduct } from '../schemas/intelligence.ts';
import type { CompanyRef } from '../store/companies.ts';
import { anchorCoUsage, productUserCounts } from '../store/cousage.ts';
import { productDetails } from '../store/products.ts';
import { toPage, type Page } from '../schemas/common.ts';
import { coAdoptedPartners, cohortCounts, rankPartners, type RelatedScore } from '../intelligence/related.ts';
import { cohortMembers } from './cohorts.ts';
import { requireCompany, requireProducts } from './resolve.ts';
import { currentAsOf, currentStackIds } from './stacks.ts';

/**
 * The full ranking (no paging, no product details): used by the endpoint and the evaluation.
 * Only product ids are read for the peers' stacks, and user counts only for the few
 * partners that pass the co-adoption rule (the base rate of their lift).
 */
export async function relatedScores(
  db: Db,
  company: Pick<CompanyRef, 'id' | 'domain'> & Partial<CompanyRef>,
  anchorId: string,
  kind: CohortKind,
): Promise<RelatedScore[]> {
  const members = (await cohortMembers(db, company, kind)).filter((id) => id !== company.id);
  const { asOf, population } = await currentAsOf(db);
  const stacks = await currentStackIds(db, [...members, company.id], asOf);
  // Every member's stack counts, the anchor's users weighing more; the company's own too.
  const cohort = cohortCounts(
    anchorId,
    members.map((id) => stacks.get(id)!),
    stacks.get(company.id)!,
  );
  const global = await anchorCoUsage(db, anchorId);
  const partners = coAdoptedPartners(anchorId, cohort, global);
  const users = await productUserCounts(
    db,
    partners.map((p) => p.productId),
  );
  return rankPartners(partners, { population, users });
}

/** A ranked page of related products (a plain array: the public API's shape). */
export async function relatedProducts(db: Db, input: RelatedInput): Promise<RelatedProduct[]> {
  return (await relatedProductsPage(db, input)).content;
}

/** The same page with the number of related products in all pages (the MCP tool pages with it). */
export async function relatedProductsPage(primary: Db, input: RelatedInput): Promise<Page<RelatedProduct>> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  const company = await requireCompany(db, input.companyDomain);
  await requireProducts(db, [input.productId], 'productId');
  const ranked = await relatedScores(db, company, input.productId, input.cohort);
  const page = ranked.slice(input.page * input.size, (input.page + 1) * input.size);
  return toPage(await relatedDetails(db, page), ranked.length, input.size);
}

async function relatedDetails(db: Db, page: RelatedScore[]): Promise<RelatedProduct[]> {
  if (page.length === 0) return [];
  const details = new Map(
    (
      await productDetails(
        db,
        page.map((r) => r.productId),
      )
    ).map((d) => [d.id, d]),
  );
  return page.flatMap((r) => {
    const d = details.get(r.productId);
    if (!d) return [];
    return [
      {
        id: d.id,
        name: d.name,
        description: d.description,
        logo: d.logo,
        category: d.category,
        categoryId: d.categoryId,
        reviewCount: d.reviewCount,
        starRating: d.starRating,
        avgRating: d.avgRating,
        vendor: { id: d.vendorId, domain: d.vendorDomain, name: d.vendorName, logo: d.vendorLogo },
        coUsage: r.confidence,
        lift: r.lift,
      },
    ];
  });
}
