// Vendors and their catalogs: search query, vendor item, Product item. Reused by MCP tools.
import { z } from 'zod';
import { boolParam, pageQuery, pageSchema } from './common.ts';
import { domainSchema } from './params.ts';

export const vendorSearchInputSchema = z.object({
  vendor: z.string().trim().max(200).optional().describe('Vendor name or domain. Absent: every vendor, by name'),
  fuzzy: boolParam('fuzzy', false).describe('false: case-insensitive exact name or domain; true: trigram similarity on name and domain (typos and partial names match), best first'),
  ...pageQuery,
});
export type VendorSearchInput = z.output<typeof vendorSearchInputSchema>;

export const vendorParamsSchema = z.object({ vendorDomain: domainSchema('Vendor domain') });

export const vendorProductsQuerySchema = z.object({
  productName: z.string().trim().max(200).optional().describe('Case-insensitive substring of the product name'),
  ...pageQuery,
});
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

export const vendorPageSchema = pageSchema(vendorSchema).meta({ id: 'VendorPage' });

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

export const productPageSchema = pageSchema(productSchema).meta({ id: 'ProductPage' });
