// Monitors (saved searches): a company-search request or a list of domains, and the event
// types wanted. Create, list, read, change, delete; their events are read with
// GET /events?monitorId=… (and the live stream).
import { z } from 'zod';
import { companySearchBodySchema } from './companies.ts';
import { errorBodySchema, pageQuery, pageSchema, requestExamples } from './common.ts';
import { EVENT_TYPES } from './events.ts';
import { domainSchema } from './params.ts';
import { idInput, textInput } from './text.ts';
import { defineOperation } from './operation.ts';

/** Domains one list monitor may hold. */
const MAX_MONITOR_DOMAINS = 1000;

/** The event types a monitor wants when it names none: every event about its companies. */
export const DEFAULT_MONITOR_EVENT_TYPES = EVENT_TYPES;

const monitorSearchSchema = companySearchBodySchema
  .omit({ page: true, size: true, sort: true, asOf: true })
  .describe('A company-search request (the body of POST /companies/search, without page, size, sort and asOf): its companies are the members');

const monitorFields = {
  name: textInput(200).trim().min(1).describe('A name of your choice (1-200 characters)'),
  search: monitorSearchSchema.optional(),
  domains: z
    .array(domainSchema('Company domain'))
    .min(1)
    .max(MAX_MONITOR_DOMAINS)
    .optional()
    .describe(`Or a list of company domains (1-${MAX_MONITOR_DOMAINS}; unknown → 404): they are the members`),
  eventTypes: z
    .array(z.enum(EVENT_TYPES))
    .min(1)
    .max(EVENT_TYPES.length)
    .optional()
    .describe(`The event types wanted (default: all): ${EVENT_TYPES.join(', ')}`),
};

const createMonitorBody = z.strictObject(monitorFields).meta({
  id: 'MonitorRequest',
  description: 'Exactly one of `search` and `domains`',
  ...requestExamples({
    name: 'Companies in Norway',
    search: { countries: ['NO'] },
    eventTypes: ['technology.adopted', 'technology.dropped', 'monitor.entered'],
  }),
});
const updateMonitorBody = z
  .strictObject({ ...monitorFields, name: monitorFields.name.optional() })
  .meta({ id: 'MonitorUpdate', description: 'Only the given fields change; giving `search` or `domains` replaces the other' });

const monitorIdParams = z.object({ monitorId: idInput('mon_3fa1c2d4e5f60718').describe('Monitor id') });

export const monitorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    search: z.record(z.string(), z.unknown()).nullable().describe('The company-search request, or null for a list'),
    domains: z.array(z.string()).nullable().describe('The listed domains, or null for a search'),
    eventTypes: z.array(z.enum(EVENT_TYPES)),
    members: z.number().int().describe('Companies in the monitor now'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Monitor' });
export type MonitorRecord = z.output<typeof monitorSchema>;

export type CreateMonitorInput = z.output<typeof createMonitorBody>;
export type UpdateMonitorInput = z.output<typeof updateMonitorBody>;

const tag = 'Events' as const;

export const createMonitorOp = defineOperation({
  id: 'createMonitor',
  summary: 'Create a monitor (a saved search)',
  description: [
    'A monitor watches a company search (`search`, the body of POST /companies/search) or a list of `domains`. Its members are the companies that match now; from then on, a company that starts or stops matching is a `monitor.entered` / `monitor.left` event, and the events of the wanted types about its members are read with GET /events?monitorId=… or the live stream.',
    'Membership is re-evaluated after every import, detection run and refresh, for the changed companies only. Creating a monitor sets its members without events. Exactly one of `search` and `domains` → else 400. A client holds at most the maxMonitors of its plan, capped by MAX_MONITORS_PER_CLIENT of the deployment (409 beyond, naming the limit).',
  ].join('\n\n'),
  tag,
  input: createMonitorBody,
  output: monitorSchema,
  readOnly: false,
  attributed: false,
  http: {
    method: 'POST',
    path: '/monitors',
    body: createMonitorBody,
    errors: { 409: errorBodySchema.describe('The client has as many monitors as it may hold') },
  },
});

export const listMonitorsOp = defineOperation({
  id: 'listMonitors',
  summary: 'Your monitors',
  description: "The calling client's monitors, oldest first, paged.",
  tag,
  input: z.object(pageQuery),
  output: pageSchema(monitorSchema).meta({ id: 'MonitorPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/monitors', query: z.object(pageQuery) },
});

export const getMonitorOp = defineOperation({
  id: 'getMonitor',
  summary: 'One monitor',
  description: "One of the calling client's monitors; another client's monitor is not found (404).",
  tag,
  input: monitorIdParams,
  output: monitorSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/monitors/:monitorId', params: monitorIdParams },
});

export const updateMonitorOp = defineOperation({
  id: 'updateMonitor',
  summary: 'Change a monitor',
  description: 'Changes the given fields. A new `search` or `domains` sets the members again, without events (a new baseline).',
  tag,
  input: monitorIdParams.extend(updateMonitorBody.shape),
  output: monitorSchema,
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'POST', path: '/monitors/:monitorId', params: monitorIdParams, body: updateMonitorBody },
});

export const deleteMonitorOp = defineOperation({
  id: 'deleteMonitor',
  summary: 'Delete a monitor',
  description: 'Deletes the monitor and its membership; its past events stay readable in the feed without the monitor filter. Unknown → 404.',
  tag,
  input: monitorIdParams,
  output: z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'MonitorDeleted' }),
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'DELETE', path: '/monitors/:monitorId', params: monitorIdParams },
});

export const monitorOperations = [createMonitorOp, listMonitorsOp, getMonitorOp, updateMonitorOp, deleteMonitorOp];
