// Change events: the event record, the pull feed (cursor), the live stream (Server-Sent
// Events) and a company's history. Events are derived from the data the service keeps
// (migration 035 says from what); these are the shapes every door shows them in.
import { z } from 'zod';
import { TECHNOLOGY_EVENT_TYPES } from '../technographics/changes.ts';
import { intParam, pageQuery, pageSchema } from './common.ts';
import { companyParamsSchema } from './company-products.ts';
import { dayParam, optionalDomainSchema, repeatableParam } from './params.ts';
import { idInput, textInput } from './text.ts';
import { defineOperation } from './operation.ts';

export const EVENT_TYPES = [...TECHNOLOGY_EVENT_TYPES, 'technology.hiring', 'company.changed', 'feed.item', 'monitor.entered', 'monitor.left'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The firmographic fields a company.changed event names. */
const COMPANY_CHANGE_FIELDS = ['industry', 'country', 'sizeBand', 'revenueBand'] as const;

const MAX_EVENTS_PER_CALL = 1000;
const DEFAULT_EVENTS_PER_CALL = 100;

const eventTypeParam = z.enum(EVENT_TYPES);

export const eventSchema = z
  .object({
    id: z.string().describe('Stable: the same change always has the same id (deliveries and replays repeat it)'),
    type: z.enum(EVENT_TYPES),
    company: z.object({ domain: z.string(), name: z.string().nullable() }),
    product: z
      .object({ id: z.string(), name: z.string().nullable() })
      .optional()
      .describe('technology.* events: the product adopted, dropped, changed in version or hired for'),
    fromVersion: z.string().optional().describe('technology.version_changed: the version seen before'),
    toVersion: z.string().optional().describe('technology.version_changed: the version seen now'),
    field: z.enum(COMPANY_CHANGE_FIELDS).optional().describe('company.changed: the firmographic field that changed'),
    from: z.string().nullable().optional().describe('company.changed: the old value (null: unknown before)'),
    to: z.string().nullable().optional().describe('company.changed: the new value (null: no longer known)'),
    jobPosts: z
      .object({
        last30Days: z.number().int().describe('Distinct job posts naming the product first seen in the 30 days up to detectedAt'),
        last180Days: z.number().int().describe('The same over 180 days'),
      })
      .optional()
      .describe('technology.hiring: how many job posts named the product (each post counted once, when first seen)'),
    feedItem: z.object({ id: z.string(), title: z.string(), category: z.string() }).optional().describe('feed.item: the news item'),
    monitor: z.object({ id: z.string(), name: z.string().nullable() }).optional().describe('monitor.entered / monitor.left: your monitor'),
    occurredAt: z.string().describe('Best estimate of when it happened (ISO 8601): the midpoint of occurredBetween'),
    occurredBetween: z
      .object({
        earliest: z.string().describe('The last time the old state was seen'),
        latest: z.string().describe('The first time the new state was seen'),
      })
      .describe('Bounds of when it happened: the change is known to lie between them'),
    detectedAt: z.string().describe('When the service could tell (a drop: the last of its confirming visits)'),
    confidence: z.number().describe('How sure the change is, 0-1: an adoption carries its detection confidence; a drop 1 − 0.1^absences'),
    evidence: z
      .object({
        hashes: z.array(z.string()).describe('Evidence hashes of the observation log behind the event'),
        url: z.string().nullable().describe('Where the evidence is listed (technology events), else null'),
      })
      .describe('What the event rests on'),
  })
  .meta({
    id: 'Event',
    examples: [
      {
        id: 'evt_1f0c2b9a7d3e4c5b6a798812',
        type: 'technology.adopted',
        company: { domain: 'acme.example', name: 'Acme' },
        product: { id: 'prd_hubspot_crm', name: 'HubSpot CRM' },
        occurredAt: '2026-09-15T00:00:00.000Z',
        occurredBetween: { earliest: '2026-09-01T00:00:00.000Z', latest: '2026-10-01T00:00:00.000Z' },
        detectedAt: '2026-10-01T00:00:00.000Z',
        confidence: 0.93,
        evidence: { hashes: ['9b1c…'], url: '/api/companies/acme.example/products/prd_hubspot_crm/evidence' },
      },
    ],
  });
export type EventRecord = z.output<typeof eventSchema>;

const typesParam = repeatableParam(eventTypeParam, 'Only these event types (repeat the parameter for several)');

const eventsQuerySchema = z.object({
  cursor: textInput(1000).optional().describe('The cursor of the previous answer: the events after it. Absent: from the oldest event'),
  types: typesParam,
  companyDomain: optionalDomainSchema('Only the events of this company'),
  monitorId: idInput('mon_3fa1c2').optional().describe('Only the events of your monitor (monitor.entered / monitor.left)'),
  limit: intParam('limit', 1, MAX_EVENTS_PER_CALL, DEFAULT_EVENTS_PER_CALL),
});
export const eventsInputSchema = eventsQuerySchema;
export type EventsInput = z.output<typeof eventsInputSchema>;

export const eventsPageSchema = z
  .object({
    events: z.array(eventSchema).describe('In the order they were published (oldest first)'),
    cursor: z.string().describe('Pass it back as `cursor` for the events after these; returned on every answer, so a poller keeps it'),
    hasMore: z.boolean().describe('More events are already waiting: call again at once'),
  })
  .meta({ id: 'EventsPage' });
export type EventsPage = z.output<typeof eventsPageSchema>;

const streamQuerySchema = eventsQuerySchema.omit({ limit: true });
export const streamInputSchema = streamQuerySchema.extend({
  lastEventId: textInput(1000).optional().describe('The Last-Event-ID header: the id of the last event received (a cursor)'),
});
export type StreamInput = z.output<typeof streamInputSchema>;

const historyQuerySchema = z.object({
  from: dayParam('First UTC day of the window (when the change happened, by occurredAt)'),
  to: dayParam('Last UTC day of the window, inclusive'),
  types: typesParam,
  ...pageQuery,
});
export const historyInputSchema = companyParamsSchema.extend(historyQuerySchema.shape);
export type HistoryInput = z.output<typeof historyInputSchema>;

const historyPageSchema = pageSchema(eventSchema).meta({ id: 'CompanyHistory', description: 'Events newest first (by occurredAt)' });

// Operations -----------------------------------------------------------------------------------
export const listEventsOp = defineOperation({
  id: 'listEvents',
  summary: 'Change events, after a cursor',
  description: [
    "What changed at companies, oldest first in the order the service published it: technology adopted, dropped or changed in version, firmographic changes, news items, and your monitors' companies entering and leaving. Each event has a stable id, when it happened (a best estimate with bounds), when it was detected, a confidence and its evidence.",
    'Poll with the `cursor` of the previous answer; every answer has one, and following them yields every event exactly once, in order, even while new events arrive. The cursor is opaque and signed: an edited or foreign cursor is 400. Filters apply per call. For a live feed, use GET /events/stream.',
    "A drop is only declared after the product is absent from two consecutive successful visits of the page kind it was seen on; a failed or partial fetch never counts as absence. An adoption needs a claim at the detector's threshold.",
  ].join('\n\n'),
  tag: 'Events',
  input: eventsInputSchema,
  output: eventsPageSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/events', query: eventsQuerySchema },
});

export const streamEventsOp = defineOperation({
  id: 'streamEvents',
  summary: 'Change events as a live stream (Server-Sent Events)',
  description: [
    'The events of GET /events as `text/event-stream`: each message has `id:` (a cursor), `event:` (the type) and `data:` (the event as JSON). Reconnect with the `Last-Event-ID` header (or `cursor`) to resume after the last event received; without either the stream starts with new events only.',
    'A comment line is sent every 15 seconds to keep proxies from closing an idle stream. A client holds at most a few streams at once (429 beyond).',
  ].join('\n\n'),
  tag: 'Events',
  input: streamInputSchema,
  output: eventSchema,
  stream: { media: 'text/event-stream', description: 'Server-Sent Events: `id:` a cursor, `event:` the type, `data:` the event as JSON' },
  readOnly: true,
  attributed: false,
  http: {
    method: 'GET',
    path: '/events/stream',
    query: streamQuerySchema,
    headers: z.looseObject({ 'last-event-id': textInput(1000).optional().describe('The id of the last event received: the stream resumes after it') }),
  },
});

export const companyHistoryOp = defineOperation({
  id: 'companyHistory',
  summary: "A company's history of changes",
  description:
    "The timeline of a company's stack and firmographic changes (and news, and your monitors' entries), newest first by when they happened, paged. `from`/`to` bound the window by occurredAt. Unknown company → 404.",
  tag: 'Events',
  input: historyInputSchema,
  output: historyPageSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/companies/:companyDomain/history', params: companyParamsSchema, query: historyQuerySchema },
  mcp: {
    name: 'company_changes',
    title: 'What changed at a company',
    description:
      'What changed at one company, newest first: technologies adopted and dropped (with evidence and confidence), version changes, size/revenue/industry/country changes, news. Give `from` (YYYY-MM-DD) for "since a date".',
  },
});

export const eventOperations = [listEventsOp, streamEventsOp, companyHistoryOp];
