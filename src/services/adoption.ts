// Adoption trends of a product, a category (with its subcategories) or a vendor.
import type { Db } from '../db/db.ts';
import { nowDate } from '../clock.ts';
import { BadRequestError } from '../errors.ts';
import { DEFAULT_ADOPTION_MONTHS, MAX_ADOPTION_PERIODS, type AdoptionQuery, type AdoptionTrend } from '../schemas/adoption.ts';
import { adoptionByMonth, productName, trendProductIds } from '../store/adoption.ts';
import { categorySubtrees } from '../store/categories.ts';
import { toCriteria } from './companies.ts';
import { requireCategories, requireProducts, requireVendor } from './resolve.ts';

type Subject = { kind: 'product'; productId: string } | { kind: 'category'; categoryId: string } | { kind: 'vendor'; vendorDomain: string };

const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const day = (s: string) => new Date(`${s}T00:00:00Z`);

export async function adoptionTrend(db: Db, subject: Subject, input: AdoptionQuery, staleAfterDays: number): Promise<AdoptionTrend> {
  const last = monthStart(input.to ? day(input.to) : nowDate());
  const first = input.from ? monthStart(day(input.from)) : new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - (DEFAULT_ADOPTION_MONTHS - 1), 1));
  if (first > last) throw new BadRequestError('from: must not be after to');
  const periods = (last.getUTCFullYear() - first.getUTCFullYear()) * 12 + last.getUTCMonth() - first.getUTCMonth() + 1;
  if (periods > MAX_ADOPTION_PERIODS) throw new BadRequestError(`from: at most ${MAX_ADOPTION_PERIODS} months from from to to, got ${periods}`);

  const { id, name, productIds } = await resolveSubject(db, subject);
  const criteria = await toCriteria(db, { countries: input.countries, industries: input.industries, employeeRange: input.employeeRange }, nowDate());
  const rows = productIds.length === 0 ? [] : await adoptionByMonth(db.read, productIds, first, last, staleAfterDays, criteria);
  const points = (rows.length > 0 ? rows : emptyMonths(first, periods)).map((r) => ({
    period: r.start.toISOString().slice(0, 7),
    companies: r.companies,
    adoptions: r.adoptions,
    drops: r.drops,
    netChange: r.adoptions - r.drops,
  }));
  return { subject: { kind: subject.kind, id, name }, interval: 'month', points };
}

function emptyMonths(first: Date, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    start: new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1)),
    companies: 0,
    adoptions: 0,
    drops: 0,
  }));
}

async function resolveSubject(db: Db, subject: Subject): Promise<{ id: string; name: string; productIds: string[] }> {
  switch (subject.kind) {
    case 'product': {
      const [product] = await requireProducts(db, [subject.productId]);
      return { id: product!.id, name: (await productName(db, product!.id)) ?? product!.id, productIds: [product!.id] };
    }
    case 'category': {
      const [category] = await requireCategories(db, [subject.categoryId], 'categoryId');
      const ids = (await categorySubtrees(db, [category!.id])).map((r) => r.id);
      return { id: category!.id, name: category!.name, productIds: await trendProductIds(db, { categoryIds: ids }) };
    }
    case 'vendor': {
      const vendor = await requireVendor(db, subject.vendorDomain);
      return { id: vendor.domain, name: vendor.name, productIds: await trendProductIds(db, { vendorId: vendor.id }) };
    }
  }
}
