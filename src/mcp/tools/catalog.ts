// Catalog tools: vendors, vendor products, categories, industries. Same services as REST;
// compact records by default, every list paged with a total and nextPage.
import { defineTool } from '../registry.ts';
import { compactOf, detailArgument, named, pageAnswer, pageArguments, pageOutput, slicePage, toolPage } from '../shapes.ts';
import { searchVendorsOp, vendorProductsOp, vendorSchema, productSchema } from '../../schemas/vendors.ts';
import { categorySchema, listCategoriesOp } from '../../schemas/categories.ts';
import { industrySchema, listIndustriesOp } from '../../schemas/industries.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { listCategories } from '../../services/categories.ts';
import { listIndustries } from '../../services/industries.ts';
import { lookupOp, lookupResultSchema } from '../../schemas/lookup.ts';
import { lookup } from '../../services/lookup.ts';

// Vendors without their logo, the only field left out: no detail argument.
const vendor = compactOf(vendorSchema, ['id', 'domain', 'name']);
const product = compactOf(productSchema, ['id', 'name', 'category', 'categoryId', 'avgRating']);
const category = compactOf(categorySchema, ['id', 'name', 'parentId', 'level']);

/** The lookup summary's budget: the best matches that fit, then a count of the rest. */
const SUMMARY_CHARS = 700;
const full = (detail: string) => (detail === 'full' ? { detail } : {});

export const catalogTools = [
  defineTool(searchVendorsOp, {
    output: pageOutput(vendor.schema),
    run: async (input, ctx) =>
      pageAnswer(
        toolPage(await searchVendors(ctx.db, input), input, (v) => vendor.pick(v, 'compact')),
        'vendors',
        (v) => named(v.name as string, v.domain as string),
      ),
  }),
  defineTool(vendorProductsOp, {
    args: { detail: detailArgument },
    output: pageOutput(product.schema),
    run: async ({ detail, ...input }, ctx) =>
      pageAnswer(
        toolPage(await vendorProducts(ctx.db, input), { ...input, ...full(detail) }, (p) => product.pick(p, detail)),
        `products of ${input.vendorDomain}`,
        (p) => `${p.name} (${p.id})`,
      ),
  }),
  defineTool(listCategoriesOp, {
    args: { ...pageArguments, detail: detailArgument },
    output: pageOutput(category.schema),
    run: async ({ detail, ...paging }, ctx) =>
      pageAnswer(
        slicePage(await listCategories(ctx.db), { ...paging, ...full(detail) }, (c) => category.pick(c, detail)),
        'categories',
        (c) => `${c.name} (${c.id})`,
      ),
  }),
  defineTool(listIndustriesOp, {
    args: pageArguments,
    output: pageOutput(industrySchema),
    run: async (paging, ctx) =>
      pageAnswer(
        slicePage(await listIndustries(ctx.db), paging, (i) => i),
        'industries',
        (i) => `${i.name} (${i.id})`,
      ),
  }),
  defineTool(lookupOp, {
    output: lookupResultSchema,
    run: async (input, ctx) => {
      const result = await lookup(ctx.db, input);
      if (result.matches.length === 0) return { structured: result, summary: `Nothing matches '${result.q}'.` };
      // The best matches, as many as fit a short summary; every match is in the structured result.
      const lines: string[] = [];
      let length = 0;
      for (const m of result.matches) {
        const line = `${m.kind} ${m.name} → ${m.filter}: ${m.id}${m.detail ? ` (${m.detail})` : ''}`;
        if (lines.length > 0 && length + line.length > SUMMARY_CHARS) break;
        lines.push(line);
        length += line.length + 1;
      }
      const more = result.matches.length - lines.length;
      return {
        structured: result,
        summary: `Matches for '${result.q}', best first:\n${lines.join('\n')}${more ? `\n… and ${more} more in the structured result.` : ''}`,
      };
    },
  }),
];
