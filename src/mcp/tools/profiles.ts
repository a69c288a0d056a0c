// People tools: search profiles, read one, buy contact details, read the credit balance.
// Each calls the same service as its REST route with the same validated input.
import { z } from 'zod';
import { defineTool, onBehalfOf } from '../registry.ts';
import { compactOf, detailArgument, pageAnswer, pageOutput, toolPage } from '../shapes.ts';
import {
  creditsSchema,
  getCreditsOp,
  getProfileOp,
  profileDetailSchema,
  profileSummarySchema,
  purchaseProfilesOp,
  purchaseResponseSchema,
  searchProfilesOp,
} from '../../schemas/profiles.ts';
import { getCredits, purchaseProfiles } from '../../services/purchases.ts';
import { getProfile, searchProfiles } from '../../services/profiles.ts';

const profile = compactOf(profileSummarySchema, ['id', 'fullName', 'title', 'companyDomain', 'country']);
const profileDetail = compactOf(profileDetailSchema, ['id', 'fullName', 'title', 'companyDomain', 'purchased', 'emails', 'phones']);

export const profileTools = [
  defineTool(searchProfilesOp, {
    args: { detail: detailArgument },
    output: pageOutput(profile.schema),
    run: async ({ detail, ...input }, ctx) =>
      pageAnswer(
        toolPage(await searchProfiles(ctx.db, input), { ...input, ...(detail === 'full' ? { detail } : {}) }, (p) => profile.pick(p, detail)),
        'profiles',
        (p) => `${p.fullName}${p.title ? `, ${p.title}` : ''}${p.companyDomain ? ` at ${p.companyDomain}` : ''} (${p.id})`,
      ),
  }),
  defineTool(getProfileOp, {
    args: { detail: detailArgument },
    output: profileDetail.schema,
    run: async ({ detail, ...args }, ctx) => {
      const p = await getProfile(ctx.db, ctx.principal.clientId, args.profileId);
      const contact = p.purchased
        ? `contact details bought: ${p.emails?.length ?? 0} emails, ${p.phones?.length ?? 0} phones`
        : 'contact details not bought (profiles_purchase)';
      return {
        structured: profileDetail.pick(p, detail),
        summary: `${p.fullName}${p.title ? `, ${p.title}` : ''}${p.companyName ? ` at ${p.companyName}` : ''}; ${contact}.`,
      };
    },
  }),
  defineTool(purchaseProfilesOp, {
    output: purchaseResponseSchema.extend({ replayed: z.boolean().describe('true: the answer of an earlier call with the same idempotencyKey') }),
    run: async (args, ctx) => {
      const { idempotencyKey, ...input } = args;
      const outcome = await purchaseProfiles(ctx.db, ctx.principal, onBehalfOf(ctx), input, { idempotencyKey });
      const by = (s: string) => outcome.body.results.filter((r) => r.status === s).length;
      const summary = `${by('purchased')} bought, ${by('already_purchased')} already bought, ${by('not_found')} not found; ${outcome.body.charged} credits charged, balance ${outcome.body.balance}${outcome.replayed ? ' (replayed answer)' : ''}.`;
      return { structured: { ...outcome.body, replayed: outcome.replayed }, summary };
    },
  }),
  defineTool(getCreditsOp, {
    output: creditsSchema,
    run: async (args, ctx) => {
      const credits = await getCredits(ctx.db, ctx.principal.clientId, args);
      return { structured: credits, summary: `Balance: ${credits.balance} credits; ${credits.ledger.length} recent ledger entries.` };
    },
  }),
];
