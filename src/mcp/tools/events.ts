// Event tools: what changed at a company (its history), and the change feed after a cursor.
import { z } from 'zod';
import { defineTool, type ToolAnswer } from '../registry.ts';
import { pageAnswer, toolPage } from '../shapes.ts';
import { companyHistoryOp, eventSchema, listEventsOp, type EventRecord } from '../../schemas/events.ts';
import { companyHistory, listEvents } from '../../services/events.ts';
import { adoptionSchema, productAdoptionOp } from '../../schemas/adoption.ts';
import { adoptionTrend } from '../../services/adoption.ts';

/** One line of a summary: "2026-09-15 adopted HubSpot CRM at acme.com (0.93)". */
function eventLine(e: EventRecord): string {
  const day = e.occurredAt.slice(0, 10);
  const what = e.product?.name ?? e.product?.id;
  switch (e.type) {
    case 'technology.adopted':
      return `${day} adopted ${what}`;
    case 'technology.dropped':
      return `${day} dropped ${what}`;
    case 'technology.version_changed':
      return `${day} ${what} ${e.fromVersion} → ${e.toVersion}`;
    case 'technology.hiring':
      return `${day} hiring for ${what}`;
    case 'company.changed':
      return `${day} ${e.field} ${e.from ?? '?'} → ${e.to ?? '?'}`;
    case 'feed.item':
      return `${day} news: ${e.feedItem?.title}`;
    case 'monitor.entered':
      return `${day} entered monitor ${e.monitor?.name ?? e.monitor?.id}`;
    case 'monitor.left':
      return `${day} left monitor ${e.monitor?.name ?? e.monitor?.id}`;
  }
}

export const eventTools = [
  defineTool(listEventsOp, {
    output: z.object({ events: z.array(eventSchema), cursor: z.string(), hasMore: z.boolean() }),
    run: async (input, ctx): Promise<ToolAnswer> => {
      const page = await listEvents(ctx.db, ctx.principal.clientId, input, ctx.config.cursorSecret);
      const lines = page.events.slice(0, 5).map((e) => `${eventLine(e)} (${e.company.domain})`);
      const summary =
        page.events.length === 0
          ? 'No new events. Call again later with the same cursor.'
          : `${page.events.length} events: ${lines.join('; ')}${page.events.length > 5 ? '; …' : ''}. ${page.hasMore ? 'More are waiting: call again with cursor.' : 'Call again later with cursor for new ones.'}`;
      return { structured: page, summary };
    },
  }),
  defineTool(companyHistoryOp, {
    output: z.object({ total: z.number().int(), items: z.array(eventSchema), nextPage: z.record(z.string(), z.unknown()).nullable() }),
    run: async (input, ctx) => {
      const page = await companyHistory(ctx.db, ctx.principal.clientId, input);
      const answer = pageAnswer(
        toolPage(page, input, (e) => e),
        `changes at ${input.companyDomain}`,
        eventLine,
      );
      return answer;
    },
  }),

  defineTool(productAdoptionOp, {
    output: adoptionSchema,
    run: async ({ productId, ...query }, ctx) => {
      const trend = await adoptionTrend(ctx.db, { kind: 'product', productId }, query, ctx.config.detect.staleAfterDays);
      const first = trend.points[0];
      const last = trend.points.at(-1);
      const adoptions = trend.points.reduce((n, p) => n + p.adoptions, 0);
      const drops = trend.points.reduce((n, p) => n + p.drops, 0);
      const summary =
        first && last
          ? `${trend.subject.name}: ${first.companies} companies in ${first.period}, ${last.companies} in ${last.period}; ${adoptions} adoptions and ${drops} drops over the ${trend.points.length} months.`
          : `${trend.subject.name}: no months in the range.`;
      return { structured: trend, summary };
    },
  }),
];
