// AI helper tools: grounded, calibrated suggestions. Same services as /api/ai/*; the answer
// carries what the prompt was understood as, so a model can see why it got what it got.
import { z } from 'zod';
import { defineTool, onBehalfOf } from '../registry.ts';
import { compactOf, detailArgument, type Detail } from '../shapes.ts';
import {
  customerItemSchema,
  findCustomersOfProductsOp,
  findPeopleProfilesOp,
  findTechStacksForCompanyOp,
  peopleItemSchema,
  techStackItemSchema,
} from '../../schemas/ai.ts';
import { findCustomersOfProducts, findPeopleProfiles, findTechStacksForCompany, type AiAnswer } from '../../services/ai.ts';

const customer = compactOf(customerItemSchema, ['companyName', 'companyDomain', 'productId', 'product', 'evidence', 'probability']);
const techStack = compactOf(techStackItemSchema, ['software', 'productId', 'vendorDomain', 'category', 'evidence', 'probability']);
const person = compactOf(peopleItemSchema, ['id', 'fullName', 'title', 'companyDomain', 'country', 'confidence']);

const answerOf = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    understood: z.string().describe('What the prompt was understood as'),
  });

/** Items (compact unless detail=full) plus the understood query (the REST routes put it in a header; the parser used is REST's header alone). */
function answer<T extends Record<string, unknown>>(
  a: AiAnswer<T>,
  detail: Detail,
  pick: (item: T, detail: Detail) => Record<string, unknown>,
  noun: string,
  label: (item: T) => string,
) {
  const shown = a.items.slice(0, 5).map(label).join('; ');
  return {
    structured: { items: a.items.map((i) => pick(i, detail)), understood: a.understood.described },
    summary: `${a.items.length} ${noun} for "${a.understood.described}"${shown ? `: ${shown}${a.items.length > 5 ? '; …' : ''}` : ''}. Suggestions: verify with products_in_use or profile_get.`,
  };
}

export const aiTools = [
  defineTool(findCustomersOfProductsOp, {
    args: { detail: detailArgument },
    output: answerOf(customer.schema),
    run: async ({ detail, ...input }, ctx) =>
      answer(
        await findCustomersOfProducts(ctx.db, ctx.config, ctx.principal, onBehalfOf(ctx), input),
        detail,
        customer.pick,
        'companies',
        (c) => `${c.companyDomain} uses ${c.product} (${c.probability})`,
      ),
  }),
  defineTool(findTechStacksForCompanyOp, {
    args: { detail: detailArgument },
    output: answerOf(techStack.schema),
    run: async ({ detail, ...input }, ctx) =>
      answer(
        await findTechStacksForCompany(ctx.db, ctx.config, ctx.principal, onBehalfOf(ctx), input),
        detail,
        techStack.pick,
        'products',
        (p) => `${p.software} (${p.probability})`,
      ),
  }),
  defineTool(findPeopleProfilesOp, {
    args: { detail: detailArgument },
    output: answerOf(person.schema),
    run: async ({ detail, ...input }, ctx) =>
      answer(
        await findPeopleProfiles(ctx.db, ctx.config, ctx.principal, onBehalfOf(ctx), input),
        detail,
        person.pick,
        'people',
        (p) => `${p.fullName}${p.title ? `, ${p.title}` : ''} (${p.id})`,
      ),
  }),
];
