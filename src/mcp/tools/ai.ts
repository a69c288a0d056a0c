// AI helper tools: grounded, calibrated suggestions. Same services as /api/ai/*; the answer
// carries what the prompt was understood as, so a model can see why it got what it got.
import { defineTool, onBehalfOf } from '../registry.ts';
import { findCustomersOfProductsOp, findPeopleProfilesOp, findTechStacksForCompanyOp } from '../../schemas/ai.ts';
import { findCustomersOfProducts, findPeopleProfiles, findTechStacksForCompany, type AiAnswer } from '../../services/ai.ts';

/** Items plus the understood query (the REST routes put it in a header). */
function answer<T>(a: AiAnswer<T>) {
  return { items: a.items, understood: a.understood.described, parser: a.understood.parser };
}

export const aiTools = [
  defineTool(findCustomersOfProductsOp, async (args, ctx) =>
    answer(await findCustomersOfProducts(ctx.db, ctx.config, ctx.principal, onBehalfOf(ctx), args))),
  defineTool(findTechStacksForCompanyOp, async (args, ctx) =>
    answer(await findTechStacksForCompany(ctx.db, ctx.config, ctx.principal, onBehalfOf(ctx), args))),
  defineTool(findPeopleProfilesOp, async (args, ctx) =>
    answer(await findPeopleProfiles(ctx.db, ctx.config, ctx.principal, onBehalfOf(ctx), args))),
];
