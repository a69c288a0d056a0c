// People tools: search profiles, read one, buy contact details, read the credit balance.
// Each calls the same service as its REST route with the same validated input.
import { defineTool, onBehalfOf } from '../registry.ts';
import { getCreditsOp, getProfileOp, purchaseProfilesOp, searchProfilesOp } from '../../schemas/profiles.ts';
import { getCredits, purchaseProfiles } from '../../services/purchases.ts';
import { getProfile, searchProfiles } from '../../services/profiles.ts';

export const profileTools = [
  defineTool(searchProfilesOp, (args, ctx) => searchProfiles(ctx.db, args)),
  defineTool(getProfileOp, (args, ctx) => getProfile(ctx.db, ctx.principal.clientId, args.profileId)),
  defineTool(purchaseProfilesOp, async (args, ctx) => {
    const { idempotencyKey, ...input } = args;
    const outcome = await purchaseProfiles(ctx.db, ctx.principal, onBehalfOf(ctx), input, { idempotencyKey });
    return { ...outcome.body, replayed: outcome.replayed };
  }),
  defineTool(getCreditsOp, (args, ctx) => getCredits(ctx.db, ctx.principal.clientId, args)),
];
