// Account list tools: upload a small list inline (≤ 1,000 rows) and read one by id; each calls
// the service of its REST route.
import { defineTool } from '../registry.ts';
import { stripDescriptions } from '../shapes.ts';
import { accountListSchema, createListOp, getListOp, type AccountList } from '../../schemas/lists.ts';
import { getList, uploadList } from '../../services/lists.ts';

const output = stripDescriptions(accountListSchema);

function line(l: AccountList): string {
  const misses = Object.entries(l.missReasons)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `List ${l.id} '${l.name}' v${l.version}: ${l.matched} of ${l.rows} matched (${Math.round(l.matchRate * 1000) / 10} %), ${l.review} in review${misses ? `; misses: ${misses}` : ''}.`;
}

export const listTools = [
  defineTool(createListOp, {
    output,
    run: async ({ name, ...body }, ctx) => {
      const list = await uploadList(ctx.db, ctx.principal.clientId, undefined, { ...body, queryName: name });
      return { structured: list, summary: line(list) };
    },
  }),
  defineTool(getListOp, {
    output,
    run: async ({ listId }, ctx) => {
      const list = await getList(ctx.db, ctx.principal.clientId, listId);
      return { structured: list, summary: line(list) };
    },
  }),
];
