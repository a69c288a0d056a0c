// Vendor search (exact or fuzzy) and a vendor's product catalog.
import type { Db } from '../db/db.ts';
import { normalizeDomain } from '../domain.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { Product, ProductSearchInput, Vendor, VendorProductsInput, VendorSearchInput } from '../schemas/vendors.ts';
import { searchVendors as searchRows, type VendorRow } from '../store/vendors.ts';
import { catalogProducts, type ProductRow } from '../store/products.ts';
import { requireVendor } from './resolve.ts';

const toVendor = (v: VendorRow): Vendor => ({ id: v.id, domain: v.domain, name: v.name, logo: v.logo_url });

export async function searchVendors(db: Db, input: VendorSearchInput): Promise<Page<Vendor>> {
  const text = input.vendor?.trim();
  const query = !text ? {} : input.fuzzy ? { fuzzy: text } : { exact: { name: text, domain: normalizeDomain(text) } };
  const { total, rows } = await searchRows(db, query, input.size, input.page * input.size);
  return toPage(rows.map(toVendor), total, input.size);
}

function toProduct(r: ProductRow): Product {
  return {
    id: r.id,
    name: r.name,
    shortName: r.short_name,
    description: r.description,
    logo: r.image_url,
    category: r.category,
    categoryId: r.category_id,
    features: r.features,
    reviewCount: r.review_count,
    starRating: r.star_rating,
    avgRating: r.avg_rating,
    productUrl: r.product_url,
    publicDetailUrl: r.public_detail_url,
    vendor: { id: r.vendor_id, domain: r.vendor_domain, name: r.vendor_name, logo: r.vendor_logo_url },
  };
}

export async function vendorProducts(db: Db, input: VendorProductsInput): Promise<Page<Product>> {
  const vendor = await requireVendor(db, input.vendorDomain);
  const { total, rows } = await catalogProducts(db, { vendorId: vendor.id, nameContains: input.productName || undefined }, input.size, input.page * input.size);
  return toPage(rows.map(toProduct), total, input.size);
}

/** Products of every vendor by name: what a technology picker needs when the vendor is not known. */
export async function searchProducts(db: Db, input: ProductSearchInput): Promise<Page<Product>> {
  const { total, rows } = await catalogProducts(db, { nameContains: input.productName || undefined }, input.size, input.page * input.size);
  return toPage(rows.map(toProduct), total, input.size);
}
