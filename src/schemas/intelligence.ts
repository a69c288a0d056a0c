// Response schemas of the intelligence endpoints: peers, usage metrics (simple and
// detailed), products in use and related products. Input schemas live with their
// services (services/cohorts.ts, metrics.ts, products-in-use.ts, related.ts) so the MCP
// tools validate with the very same definitions.
import { z } from 'zod';
import { errorBodySchema, pageSchema } from './common.ts';

export const peerSchema = z
  .object({
    domain: z.string(),
    name: z.string().nullable().describe('Company name; may be null'),
    logo: z.string().nullable().describe('URL of the company logo'),
  })
  .describe('Peer item: a company in a cohort or competitor list');

export const peerPageSchema = pageSchema(peerSchema);

export const usageMetricSchema = z
  .object({
    percentage: z.number().int().min(1).max(100).describe('Share of cohort members using the product, 1-100 (any use shows as at least 1)'),
    product: z.string(),
    category: z.string(),
    productId: z.string(),
    vendorDomain: z.string(),
    companiesUsing: z.number().int().describe('Cohort members using the product'),
    cohortSize: z.number().int().describe('Members in the cohort'),
  })
  .describe('Usage metric, simple form');

export const usageDetailRowSchema = z.object({
  similar: z.boolean().describe('The peer runs one of the company\'s products in this category'),
  missing: z.boolean().describe('The peer runs no product in this category'),
  different: z.boolean().describe('The peer runs another product in this category'),
  category: z.string(),
  categoryId: z.string(),
  product: z.string().optional().describe("The peer's product in the category; absent when missing"),
  productId: z.string().optional(),
  companyProducts: z.array(z.string()).describe("The company's own products in the category"),
});

export const usageDetailSchema = z
  .object({ companyDomain: z.string().describe('The compared company'), products: z.array(usageDetailRowSchema) })
  .describe('UsageMetricDTO: one compared company, category by category over the company\'s categories');

export const productInUseSchema = z
  .object({
    productId: z.string(),
    inUse: z.boolean().describe('confidence >= 0.5'),
    confidence: z.number().min(0).max(1).describe('Calibrated probability that the product is in use now, from the evidence; 0 without evidence'),
    lastVerified: z.string().optional().describe('ISO 8601 time of the latest verification, where evidence exists'),
    hitCount: z.number().int().optional(),
  })
  .describe('Product-in-use result');

export const relatedProductSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    logo: z.string().nullable(),
    category: z.string(),
    categoryId: z.string(),
    reviewCount: z.number().int(),
    starRating: z.number().nullable(),
    avgRating: z.number().nullable(),
    vendor: z.object({ id: z.string(), domain: z.string(), name: z.string(), logo: z.string().nullable() }),
    coUsage: z.number().describe('Estimated share of the anchor\'s users in the cohort who also use this product (0-1)'),
    lift: z.number().describe('coUsage divided by the product\'s share of all companies'),
  })
  .describe('Product related to the anchor');

export const payloadTooLarge = errorBodySchema.describe('Too many items in one request');
