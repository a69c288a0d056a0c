// Catalog tools: vendors, vendor products, categories, industries. Same services as REST.
import { defineTool } from '../registry.ts';
import { withNextPage } from '../results.ts';
import { searchVendorsOp, vendorProductsOp } from '../../schemas/vendors.ts';
import { listCategoriesOp } from '../../schemas/categories.ts';
import { listIndustriesOp } from '../../schemas/industries.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { listCategories } from '../../services/categories.ts';
import { listIndustries } from '../../services/industries.ts';

export const catalogTools = [
  defineTool(searchVendorsOp, async (args, ctx) => withNextPage(await searchVendors(ctx.db, args), args)),
  defineTool(vendorProductsOp, async (args, ctx) => withNextPage(await vendorProducts(ctx.db, args), args)),
  // Lists are wrapped in an object: a tool result's structured content is an object.
  defineTool(listCategoriesOp, async (_args, ctx) => ({ categories: await listCategories(ctx.db) })),
  defineTool(listIndustriesOp, async (_args, ctx) => ({ industries: await listIndustries(ctx.db) })),
];
