// GET /categories (JSON array or CSV) and its alias GET /dictionary/product-categories,
// GET /categories/{categoryId}.
import type { FastifyInstance } from 'fastify';
import { CATEGORY_COLUMNS, getCategoryOp, listCategoriesOp } from '../../schemas/categories.ts';
import { exportCategories, getCategory, listCategories } from '../../services/categories.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { sendCsv } from '../replies.ts';
import { route } from '../route-config.ts';

export function categoryRoutes(app: FastifyInstance) {
  return [
    route(listCategoriesOp, (request, reply) => {
      if (!request.query.export) return listCategories(app.db);
      const actor = { clientId: principalOf(request).clientId, onBehalfOf: onBehalfOf(request) };
      return sendCsv(reply, 'categories.csv', exportCategories(app.db, actor), CATEGORY_COLUMNS);
    }),
    route(getCategoryOp, (request) => getCategory(app.db, request.params.categoryId)),
  ];
}
