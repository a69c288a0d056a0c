// A company's installed products: one JSON page, or every record as a stream (CSV, JSONL).
import type { Db } from '../db/db.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { CompanyProduct, CompanyProductsInput } from '../schemas/company-products.ts';
import { companyProductsPage, streamCompanyProducts, type CompanyProductRow } from '../store/company-products.ts';
import type { AsOf } from '../store/installs-as-of.ts';
import { loadCategoryChains, type CategoryChain } from '../store/catalog.ts';
import { categorySubtrees } from '../store/categories.ts';
import { dateBucket, intensityBucket } from '../intelligence/buckets.ts';
import { nowDate } from '../clock.ts';
import { requireCategories, requireCategoriesByName, requireCompany } from './resolve.ts';
import { audited, type Actor } from './exports.ts';
import { DEFAULT_STALE_AFTER_DAYS } from './observations.ts';
import { newestEvidence } from './evidence.ts';
import type { ObservationRecord } from '../schemas/evidence.ts';

type Selection = Pick<CompanyProductsInput, 'mainCategory' | 'mainCategoryId' | 'asOf'>;

/** asOf=YYYY-MM-DD: the end of that UTC day, and the window installs are derived with. */
function asOfOf(day: string | undefined, staleAfterDays = DEFAULT_STALE_AFTER_DAYS): AsOf | null {
  return day ? { before: new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000), staleAfterDays } : null;
}

/**
 * The category ids a selection stands for: named and given categories with their whole
 * subtrees; null when nothing is selected. Unknown names or ids are a 404 naming them.
 */
async function selectedCategoryIds(db: Db, sel: Selection): Promise<string[] | null> {
  if (sel.mainCategory.length === 0 && sel.mainCategoryId.length === 0) return null;
  const byName = await requireCategoriesByName(db, sel.mainCategory, 'mainCategory');
  const byId = await requireCategories(db, sel.mainCategoryId, 'mainCategoryId');
  const roots = [...new Set([...byName, ...byId].map((c) => c.id))];
  return [...new Set((await categorySubtrees(db, roots)).map((s) => s.id))];
}

function toCompanyProduct(r: CompanyProductRow, chains: Map<string, CategoryChain>, now: Date): CompanyProduct {
  const category = chains.get(r.main_category_id);
  return {
    id: `${r.company_id}:${r.product_id}`,
    companyId: r.company_id,
    company: r.company_name,
    companyDomain: r.company_domain,
    industry: r.industry,
    city: r.city,
    state: r.state,
    postalCode: r.postal_code,
    country: r.country,
    phone: r.phone,
    revenueRange: r.revenue_band,
    employeeRange: r.employee_band,
    vendorDomain: r.vendor_domain,
    vendor: r.vendor_name,
    vendorId: r.vendor_id,
    productId: r.product_id,
    product: r.product_name,
    shortName: r.short_name,
    imageUrl: r.image_url,
    productUrl: r.product_url,
    publicDetailUrl: r.public_detail_url,
    reviewCount: r.review_count,
    starRating: r.star_rating,
    avgRating: r.avg_rating,
    mainCategory: category?.name ?? r.main_category_id,
    mainCategoryId: r.main_category_id,
    parentCategory: category?.parentName ?? null,
    parentCategoryId: category?.parentId ?? null,
    level0Category: category?.rootName ?? r.main_category_id,
    level0CategoryId: category?.rootId ?? r.main_category_id,
    dateFirstVerified: r.first_verified.toISOString(),
    dateLastVerified: r.last_verified.toISOString(),
    hitCount: r.hit_count,
    intensity: r.intensity,
    intensityBucket: intensityBucket(r.intensity),
    dateLastVerifiedBucket: dateBucket(r.last_verified, now),
  };
}

/** One JSON page of the company's products; `evidence`: each record with its newest evidence items. */
export async function companyProducts(
  primary: Db,
  input: CompanyProductsInput,
  include: { evidence?: boolean; staleAfterDays?: number } = {},
): Promise<Page<CompanyProduct & { evidence?: ObservationRecord[] }>> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  const company = await requireCompany(db, input.companyDomain);
  const categoryIds = await selectedCategoryIds(db, input);
  const asOf = asOfOf(input.asOf, include.staleAfterDays);
  const [{ rows, total }, chains] = await Promise.all([
    companyProductsPage(db, company.id, categoryIds, input.size, input.page * input.size, asOf),
    loadCategoryChains(primary),
  ]);
  const now = asOf?.before ?? nowDate();
  const records = rows.map((r) => toCompanyProduct(r, chains, now));
  if (!include.evidence) return toPage(records, total, input.size);
  const evidence = await newestEvidence(
    db,
    company.id,
    records.map((r) => r.productId),
  );
  return toPage(
    records.map((r) => ({ ...r, evidence: evidence.get(r.productId) ?? [] })),
    total,
    input.size,
  );
}

/**
 * Every record of the company (by product id), streamed in keyset batches, and audited when
 * the stream ends: every export is, attributed (export=true: the on-behalf user) or not (the
 * plain JSON Lines stream: on_behalf_of null). Unknown company or category fails here,
 * before anything is streamed.
 */
export async function streamAllCompanyProducts(
  db: Db,
  input: Pick<CompanyProductsInput, 'companyDomain'> & Selection,
  exportedBy: { actor: Actor; format: 'csv' | 'jsonl' },
  staleAfterDays?: number,
): Promise<AsyncIterable<CompanyProduct>> {
  const company = await requireCompany(db, input.companyDomain);
  const categoryIds = await selectedCategoryIds(db, input);
  const chains = await loadCategoryChains(db);
  const asOf = asOfOf(input.asOf, staleAfterDays);
  const now = asOf?.before ?? nowDate();
  const records = (async function* () {
    for await (const r of streamCompanyProducts(db, company.id, categoryIds, asOf)) yield toCompanyProduct(r, chains, now);
  })();
  return audited(db, records, {
    actor: exportedBy.actor,
    action: `company-products.export.${exportedBy.format}`,
    params: {
      companyDomain: company.domain,
      mainCategory: input.mainCategory,
      mainCategoryId: input.mainCategoryId,
      asOf: input.asOf,
      attributed: exportedBy.actor.onBehalfOf !== null,
    },
  });
}
