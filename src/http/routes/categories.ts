// GET /categories (JSON array or CSV), GET /categories/{categoryId}, and the alias
// GET /dictionary/product-categories.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onBehalfOfHeaders } from '../../schemas/params.ts';

import { commonErrors } from '../../schemas/common.ts';
import { CATEGORY_COLUMNS, categoriesQuerySchema, categoryListSchema, categoryParamsSchema, categorySchema } from '../../schemas/categories.ts';
import { exportCategories, getCategory, listCategories } from '../../services/categories.ts';
import { principalOf, requireAttributedAction } from '../plugins/auth.ts';
import { sendCsv } from '../replies.ts';

export async function categoryRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [url, operationId] of [['/categories', 'listCategories'], ['/dictionary/product-categories', 'listProductCategories']] as const) {
    r.get(url, {
      schema: {
        operationId,
        summary: url === '/categories' ? 'Every product category' : 'Every product category (alias of GET /categories)',
        description: `The whole taxonomy as one array, sorted by id. \`export=true\`: a CSV file with columns ${CATEGORY_COLUMNS.map((c) => c.header).join(', ')} (export permission and X-On-Behalf-Of-User; audited).`,
        tags: ['Taxonomy'],
        querystring: categoriesQuerySchema,
        headers: onBehalfOfHeaders,
        response: {
          200: {
            description: 'The category list, or the CSV export',
            content: {
              'application/json': { schema: categoryListSchema },
              'text/csv': { schema: z.string().describe('CSV with a header row') },
            },
          },
          ...commonErrors,
        },
      },
    }, async (request, reply) => {
      if (request.query.export) {
        const onBehalfOf = requireAttributedAction(request, 'export');
        return sendCsv(reply, 'categories.csv', exportCategories(app.db, { clientId: principalOf(request).clientId, onBehalfOf }), CATEGORY_COLUMNS);
      }
      return listCategories(app.db);
    });
  }

  r.get('/categories/:categoryId', {
    schema: {
      operationId: 'getCategory',
      summary: 'One product category',
      tags: ['Taxonomy'],
      params: categoryParamsSchema,
      response: { 200: categorySchema, ...commonErrors },
    },
  }, async (request) => getCategory(app.db, request.params.categoryId));
}
