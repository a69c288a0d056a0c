// People tools: search profiles, read one, buy contact details, read the credit balance.
// Each calls the same service as its REST route with the same validated input.
import { z } from 'zod';
import { defineTool } from '../registry.ts';
import { creditsInput, getCredits, profilePurchaseInput, purchaseProfiles } from '../../services/purchases.ts';
import { getProfile, profileGetInput, profileSearchInput, searchProfiles } from '../../services/profiles.ts';
import { MAX_PURCHASE_IDS } from '../../schemas/profiles.ts';

export const profileTools = [
  defineTool({
    name: 'profiles_search',
    title: 'Search people profiles',
    description:
      'Finds people by free text (name, title, company name) and filters: titles (contains), seniority and functions (exact), ' +
      'countries (ISO-2 or names), companyDomains, industries (id or name). Give at least one filter. Returns a page of profile ' +
      'summaries ordered by id, never emails or phones: use profiles_purchase to buy contact details, profile_get to read one.',
    input: profileSearchInput,
    run: (args, ctx) => searchProfiles(ctx.db, args),
  }),
  defineTool({
    name: 'profile_get',
    title: 'Read one people profile',
    description:
      'One profile summary by id, with purchased: true|false. Emails and phones are included only when this client has bought the profile (profiles_purchase).',
    input: profileGetInput,
    run: (args, ctx) => getProfile(ctx.db, ctx.principal.clientId, args.profileId),
  }),
  defineTool({
    name: 'profiles_purchase',
    title: 'Buy contact details of profiles',
    description:
      `Buys emails and phones of 1-${MAX_PURCHASE_IDS} profile ids (from profiles_search). One credit per profile not bought before; ` +
      'already_purchased and not_found cost nothing. All-or-nothing: if credits do not cover the new profiles nothing is bought (error 402). ' +
      'Needs the purchase permission and onBehalfOfUser. Pass an idempotencyKey to make a retry safe. credits_balance shows the balance.',
    input: profilePurchaseInput.extend({
      idempotencyKey: z.string().optional().describe('Optional key (1-255 visible ASCII characters): a retry with the same key and ids returns the first answer'),
    }),
    permission: () => 'purchase',
    run: async (args, ctx) => {
      const { idempotencyKey, ...input } = args;
      // The server has checked the permission and the on-behalf user before run().
      const outcome = await purchaseProfiles(ctx.db, ctx.principal, ctx.onBehalfOf!, input, { idempotencyKey });
      return { ...outcome.body, replayed: outcome.replayed };
    },
  }),
  defineTool({
    name: 'credits_balance',
    title: 'Credit balance',
    description: 'The credits left for buying contact details and the most recent ledger entries (newest first).',
    input: creditsInput,
    run: (args, ctx) => getCredits(ctx.db, ctx.principal.clientId, args),
  }),
];
