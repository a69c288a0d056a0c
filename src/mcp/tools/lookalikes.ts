// find_lookalikes: the REST operation's answer as it is (already compact: a page of explained
// results), with a summary a model can quote ("uses HubSpot CRM: 4 of 5 seeds").
import { defineTool } from '../registry.ts';
import { findLookalikesOp, lookalikesSchema, type Lookalike, type Lookalikes } from '../../schemas/lookalikes.ts';
import { findLookalikes } from '../../services/lookalikes.ts';
import { named } from '../shapes.ts';

export const lookalikeTools = [
  defineTool(findLookalikesOp, {
    output: lookalikesSchema,
    run: async (input, ctx) => {
      const answer = await findLookalikes(ctx.db, input, ctx.principal.clientId);
      return { structured: answer, summary: lookalikesSummary(answer, input.page) };
    },
  }),
];

function why(l: Lookalike): string {
  const signals = l.sharedSignals.slice(0, 1).map((s) => `uses ${s.product}: ${s.seeds} of ${s.of} seeds`);
  const industry = l.matches.find((m) => m.field === 'industry' && m.seeds > 0);
  if (industry) signals.unshift(`industry ${industry.value}: ${industry.seeds} of ${industry.of} seeds`);
  return signals.join('; ');
}

function lookalikesSummary(a: Lookalikes, page: number): string {
  const head = `${a.totalElements} candidates ranked against ${a.seeds.count} seeds (${a.excluded} left out).`;
  if (a.content.length === 0) return `${head} No results on this page.`;
  const shown = a.content.slice(0, 5).map((l) => `${named(l.name, l.domain)} ${l.score.toFixed(2)} (${why(l)})`);
  const more = a.totalPages > page + 1 ? ` Next: page ${page + 1}.` : '';
  return `${head} Most alike: ${shown.join('; ')}.${more}`;
}
