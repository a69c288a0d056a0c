// Vendors and their catalogs: search query, vendor item, Product item. Reused by MCP tools.
import { z } from 'zod';
import { textInput } from './text.ts';
import { boolParam, pageQuery, pageSchema } from './common.ts';
import { domainSchema } from './params.ts';
import { defineOperation } from './operation.ts';

export const vendorSearchInputSchema = z.object({
  vendor: textInput(200).trim().optional().describe('Vendor name or domain. Absent: every vendor, by name'),
  fuzzy: boolParam('fuzzy', false).describe(
    'false: case-insensitive exact name or domain; true: trigram similarity on name and domain (typos and partial names match), best first',
  ),
  ...pageQuery,
});
export type VendorSearchInput = z.output<typeof vendorSearchInputSchema>;

const vendorParamsSchema = z.object({ vendorDomain: domainSchema('Vendor domain') });

const vendorProductsQuerySchema = z.object({
  productName: textInput(200).trim().optional().describe('Case-insensitive substring of the product name'),
  ...pageQuery,
});
export const productSearchInputSchema = z.object({
  productName: textInput(200).trim().optional().describe('Case-insensitive substring of the product name. Absent: every product, by name'),
  ...pageQuery,
});
export type ProductSearchInput = z.output<typeof productSearchInputSchema>;

export const vendorProductsInputSchema = vendorParamsSchema.extend(vendorProductsQuerySchema.shape);
export type VendorProductsInput = z.output<typeof vendorProductsInputSchema>;

export const vendorSchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    name: z.string(),
    logo: z.string().nullable().describe('Logo image URL'),
  })
  .meta({
    id: 'Vendor',
    description: 'A vendor (peer-item shape with its id)',
    examples: [{ id: 'ven_salesforce', domain: 'salesforce.com', name: 'Salesforce', logo: 'https://logo.example/salesforce.com.png' }],
  });
export type Vendor = z.output<typeof vendorSchema>;

const vendorPageSchema = pageSchema(vendorSchema).meta({ id: 'VendorPage' });

export const productSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    description: z.string().describe('May be empty'),
    logo: z.string().nullable().describe('Product image URL'),
    category: z.string(),
    categoryId: z.string(),
    features: z.array(z.string()),
    reviewCount: z.number().int(),
    starRating: z.number().nullable(),
    avgRating: z.number().nullable(),
    productUrl: z.string().nullable(),
    publicDetailUrl: z.string().nullable(),
    vendor: vendorSchema,
  })
  .meta({ id: 'Product', description: 'A product of the catalog' });
export type Product = z.output<typeof productSchema>;

const productPageSchema = pageSchema(productSchema).meta({ id: 'ProductPage' });

// Operations -----------------------------------------------------------------------------------
/** Minimum trigram score of a fuzzy vendor hit (pg_trgm similarity / word_similarity); substring hits always qualify. */
export const FUZZY_THRESHOLD = 0.3;

export const searchVendorsOp = defineOperation({
  id: 'searchVendors',
  summary: 'Search vendors by name or domain',
  description: `\`fuzzy=false\`: case-insensitive exact match on the name, or on the domain (normalized). \`fuzzy=true\`: vendors whose name or domain contains the text or has a trigram similarity of at least ${FUZZY_THRESHOLD} (pg_trgm similarity / word_similarity), best score first, then by name. Without \`vendor\`: every vendor by name. No match is an empty page. Answers carry an ETag (If-None-Match → 304).`,
  tag: 'Vendors',
  input: vendorSearchInputSchema,
  output: vendorPageSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/vendors', query: vendorSearchInputSchema, referenceData: true },
  mcp: {
    name: 'vendors_search',
    title: 'Search software vendors',
    description: 'Finds software vendors by name or domain (fuzzy=true tolerates typos). Vendor domains feed vendor_products and companies_search.',
  },
});

export const vendorProductsOp = defineOperation({
  id: 'vendorProducts',
  summary: "A vendor's products",
  description: 'Products of the vendor sorted by name then id; `productName` filters by case-insensitive substring. Unknown vendor → 404.',
  tag: 'Vendors',
  input: vendorProductsInputSchema,
  output: productPageSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/vendors/:vendorDomain/products', params: vendorParamsSchema, query: vendorProductsQuerySchema, referenceData: true },
  mcp: {
    name: 'vendor_products',
    title: 'Products of a vendor',
    description:
      "A vendor's products, optionally by productName (contains). Product ids feed companies_search, products_in_use and products_related_in_cohort.",
  },
});

export const searchProductsOp = defineOperation({
  id: 'searchProducts',
  summary: 'Search the product catalog by name',
  description:
    'Products of every vendor whose name contains `productName` (case-insensitive): an exact name first, then names starting with it, then by name. ' +
    'For a technology picker that does not know the vendor (a product is often not named after its vendor). No match is an empty page. ' +
    'Answers carry an ETag (If-None-Match → 304). REST only: MCP clients use vendors_search and vendor_products.',
  tag: 'Vendors',
  input: productSearchInputSchema,
  output: productPageSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/products', query: productSearchInputSchema, referenceData: true },
});

export const vendorOperations = [searchVendorsOp, vendorProductsOp, searchProductsOp];
