// The product-category taxonomy: Category item, list, CSV columns, query and params.
import { z } from 'zod';
import { idInput } from './text.ts';
import { boolParam, csvColumnsOf } from './common.ts';
import type { CsvColumn } from '../csv.ts';
import { onBehalfOfHeaders } from './params.ts';
import { defineOperation } from './operation.ts';

export const categorySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable().describe('The parent category; null at the top'),
    level: z.number().int().describe('Depth in the hierarchy, 0 = top'),
    description: z.string().nullable(),
  })
  .meta({
    id: 'Category',
    description: 'A product category; categories form a tree through parentId',
    examples: [{ id: 'cat_crm', name: 'CRM', parentId: 'cat_sales', level: 1, description: 'Customer relationship management' }],
  });
export type Category = z.output<typeof categorySchema>;

const categoryListSchema = z.array(categorySchema).meta({ id: 'CategoryList' });

const categoriesQuerySchema = z.object({
  export: boolParam('export', false).describe('true: CSV file (needs the export permission and X-On-Behalf-Of-User; audited)'),
});

const categoryParamsSchema = z.object({ categoryId: idInput('cat_crm').describe('Category id') });

/** Columns of the category CSV export: the Category fields, in order. */
export const CATEGORY_COLUMNS: CsvColumn<Category>[] = csvColumnsOf(categorySchema);

// Operations -----------------------------------------------------------------------------------
export const listCategoriesOp = defineOperation({
  id: 'listCategories',
  summary: 'Every product category',
  description: `The whole taxonomy as one array, sorted by id. \`export=true\`: a CSV file with columns ${CATEGORY_COLUMNS.map((c) => c.header).join(', ')} (export permission and X-On-Behalf-Of-User; audited).`,
  tag: 'Taxonomy',
  input: z.object({}),
  output: categoryListSchema,
  stream: { media: 'text/csv', when: 'export', description: `CSV with a header row: ${CATEGORY_COLUMNS.map((c) => c.header).join(', ')}` },
  permission: { when: 'export', then: 'export' },
  rateClass: { when: 'export', then: 'export' },
  readOnly: true,
  attributed: true,
  http: {
    method: 'GET',
    path: '/categories',
    query: categoriesQuerySchema,
    headers: onBehalfOfHeaders,
    referenceData: true,
    aliases: [{ id: 'listProductCategories', path: '/dictionary/product-categories', summary: 'Every product category (alias of GET /categories)' }],
  },
  mcp: {
    name: 'categories_list',
    title: 'Product categories',
    description: 'The product categories { id, name, parentId, level }; the resource stacklens://reference/categories is the whole tree.',
  },
});

export const getCategoryOp = defineOperation({
  id: 'getCategory',
  summary: 'One product category',
  description: 'One category by id. Unknown id → 404.',
  tag: 'Taxonomy',
  input: categoryParamsSchema,
  output: categorySchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/categories/:categoryId', params: categoryParamsSchema, referenceData: true },
});

export const categoryOperations = [listCategoriesOp, getCategoryOp];
