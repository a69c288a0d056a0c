// AI helper tools: grounded, calibrated suggestions. Same services as /api/ai/*; the answer
// carries what the prompt was understood as, so a model can see why it got what it got.
import { defineTool } from '../registry.ts';
import { customersInput, peopleInput, techStackInput } from '../../schemas/ai.ts';
import { findCustomersOfProducts, findPeopleProfiles, findTechStacksForCompany, type AiAnswer } from '../../services/ai.ts';

/** Items plus the understood query (the REST routes put it in a header). */
function answer<T>(a: AiAnswer<T>) {
  return { items: a.items, understood: a.understood.described, parser: a.understood.parser };
}

const VERIFY = 'Suggestions are probabilistic: verify them with products_in_use, company_products_paged or profile_get.';

export const aiTools = [
  defineTool({
    name: 'find_customers_of_products',
    title: 'Find companies that use given products',
    aliases: ['FindCustomersOfProducts'],
    description:
      'From a plain-language prompt naming products, vendors or categories (typos tolerated) and optionally which companies ' +
      '(industry, country, size, revenue, "adopted in the last 6 months"), suggests companies that use them: first those with ' +
      'evidence (probability from the evidence), then likely users inferred from their peers (lower probability, no dates). Each item ' +
      `names its source and companyDomain. size 1-200, default 10. Needs the ai permission and onBehalfOfUser. ${VERIFY}`,
    input: customersInput,
    permission: () => 'ai',
    rateClass: () => 'ai',
    run: async (args, ctx) => answer(await findCustomersOfProducts(ctx.db, ctx.config, ctx.principal, ctx.onBehalfOf!, args)),
  }),
  defineTool({
    name: 'find_techstacks_for_company',
    title: "Suggest a company's technology stack",
    description:
      'The software a company (companyDomain, or named in the prompt) uses: its evidenced products and products its nearest peers ' +
      'run that it shows no evidence of, each with software, reason, source and a calibrated probability 0-100. The prompt can narrow ' +
      `to products, vendors or categories. Give prompt or companyDomain (or both); size 1-200, default 20. Needs the ai permission and onBehalfOfUser. ${VERIFY}`,
    input: techStackInput,
    permission: () => 'ai',
    rateClass: () => 'ai',
    run: async (args, ctx) => answer(await findTechStacksForCompany(ctx.db, ctx.config, ctx.principal, ctx.onBehalfOf!, args)),
  }),
  defineTool({
    name: 'find_people_profiles',
    title: 'Find people from a description',
    description:
      'People matching a plain-language description of titles, seniority, functions, companies, industries and places ("VP of sales ' +
      'at German fintechs"), each with a confidence 0-1 from how well it matches. Never emails or phones: buy those with ' +
      'profiles_purchase. size 1-200, default 10. Needs the ai permission and onBehalfOfUser.',
    input: peopleInput,
    permission: () => 'ai',
    rateClass: () => 'ai',
    run: async (args, ctx) => answer(await findPeopleProfiles(ctx.db, ctx.config, ctx.principal, ctx.onBehalfOf!, args)),
  }),
];
