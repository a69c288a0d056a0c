// Event tools: what changed at a company (its history), and a product's adoption trend.
import { z } from 'zod';
import { defineTool } from '../registry.ts';
import { compactOf, detailArgument, pageAnswer, stripDescriptions, toolPage } from '../shapes.ts';
import { companyHistoryOp, eventSchema, type EventRecord } from '../../schemas/events.ts';
import { companyHistory } from '../../services/events.ts';
import { productAdoptionOp } from '../../schemas/adoption.ts';
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
      return `${day} hiring for ${what} (${e.jobPosts?.last30Days ?? 0} posts in 30 days, ${e.jobPosts?.last180Days ?? 0} in 180)`;
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

// Sized for a model: the fields most questions need (detail="full" for the whole record), without
// the REST record's field descriptions (the tool's description says what they are).
const event = compactOf(stripDescriptions(eventSchema), [
  'id',
  'type',
  'company',
  'product',
  'jobPosts',
  'field',
  'to',
  'feedItem',
  'occurredAt',
  'confidence',
]);
/** An event in its compact form (what a monitor's events resource carries). */
export const compactEvent = (e: EventRecord) => event.pick(e, 'compact');
// The trend without the REST record's field descriptions (the tool's description says what they are).
const trendOutput = z.object({
  subject: z.object({ kind: z.string(), id: z.string(), name: z.string() }),
  interval: z.string(),
  points: z.array(z.object({ period: z.string(), companies: z.number(), adoptions: z.number(), drops: z.number(), netChange: z.number() })),
});

export const eventTools = [
  defineTool(companyHistoryOp, {
    args: { detail: detailArgument },
    output: z.object({ total: z.number().int(), items: z.array(event.schema), nextPage: z.record(z.string(), z.unknown()).nullable() }),
    run: async ({ detail, ...input }, ctx) => {
      const page = await companyHistory(ctx.db, ctx.principal.clientId, input);
      const lines = new Map(page.content.map((e) => [e.id, eventLine(e)]));
      const args = detail === 'full' ? { ...input, detail } : input;
      return pageAnswer(
        toolPage(page, args, (e) => event.pick(e, detail)),
        `changes at ${input.companyDomain}`,
        (e) => lines.get(String(e.id)) ?? '',
      );
    },
  }),
  defineTool(productAdoptionOp, {
    output: trendOutput,
    run: async ({ productId, ...query }, ctx) => {
      const filters = { interval: 'month' as const, industries: [], employeeRange: [], ...query };
      const trend = await adoptionTrend(ctx.db, { kind: 'product', productId }, filters, ctx.config.detect.staleAfterDays);
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
