// Catalog tools: vendors, vendor products, categories, industries. Same services as REST.
import { z } from 'zod';
import { defineTool } from '../registry.ts';
import { withNextPage } from '../results.ts';
import { vendorProductsInputSchema, vendorSearchInputSchema } from '../../schemas/vendors.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { listCategories } from '../../services/categories.ts';
import { listIndustries } from '../../services/industries.ts';

export const catalogTools = [
  defineTool({
    name: 'vendors_search',
    title: 'Search software vendors',
    description:
      'Finds software vendors by name or domain. fuzzy=false (default): case-insensitive exact name or domain; fuzzy=true: ' +
      'similarity ranking that tolerates typos and partial names. Returns a page of { id, domain, name, logo }. Use the domain ' +
      'with vendor_products, or as vendorDomain in companies_search and usage_metrics.',
    input: vendorSearchInputSchema,
    run: async (args, ctx) => withNextPage(await searchVendors(ctx.db, args), args),
  }),
  defineTool({
    name: 'vendor_products',
    title: 'Products of a vendor',
    description:
      "A vendor's product catalog (by vendorDomain, e.g. from vendors_search), optionally narrowed by productName (case-insensitive " +
      'contains). Each product has id, name, description, category, features, ratings and vendor. Product ids feed companies_search ' +
      '(productIdIn), products_in_use and products_related_in_cohort.',
    input: vendorProductsInputSchema,
    run: async (args, ctx) => withNextPage(await vendorProducts(ctx.db, args), args),
  }),
  defineTool({
    name: 'categories_list',
    title: 'Product categories',
    description:
      'The whole product-category tree as a flat list of { id, name, parentId, level } (level 0 = top). Cacheable. Category ids ' +
      'feed companies_search (mainCategoryIdIn) and usage_metrics_details (categoryId); a parent selects its whole subtree.',
    input: z.object({}),
    run: async (_args, ctx) => ({ categories: await listCategories(ctx.db) }),
  }),
  defineTool({
    name: 'industries_list',
    title: 'Industries',
    description: 'The industry taxonomy as a list of { id, name, ... }. Cacheable. Names or ids feed companies_search (industries) and profiles_search.',
    input: z.object({}),
    run: async (_args, ctx) => ({ industries: await listIndustries(ctx.db) }),
  }),
];
