// The product-category taxonomy: Category item, list, CSV columns, query and params.
import { z } from 'zod';
import { boolParam, csvColumnsOf } from './common.ts';
import type { CsvColumn } from '../csv.ts';

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

export const categoryListSchema = z.array(categorySchema).meta({ id: 'CategoryList' });

export const categoriesQuerySchema = z.object({
  export: boolParam('export', false).describe('true: CSV file (needs the export permission and X-On-Behalf-Of-User; audited)'),
});

export const categoryParamsSchema = z.object({ categoryId: z.string().min(1).max(100).meta({ examples: ['cat_crm'] }).describe('Category id') });

/** Columns of the category CSV export: the Category fields, in order. */
export const CATEGORY_COLUMNS: CsvColumn<Category>[] = csvColumnsOf(categorySchema);
