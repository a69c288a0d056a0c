// MCP resources: reference data (the category tree, the industries), the full tables a
// tool answer links to instead of carrying them inline (a cohort's whole usage table, a
// whole comparison, every product of a company, an export), and each monitor's events (the
// one kind a client may subscribe to: subscriptions.ts), read through resources/read.
// Each read runs as a call of the operation that produces it: same permission, rate class,
// bulkhead and services as REST and the tools.
import { z } from 'zod';
import type { Operation } from '../schemas/operation.ts';
import { csvColumnsOf } from '../schemas/common.ts';
import { domainSchema } from '../schemas/params.ts';
import { cohortParam, usageMetricSchema, usageMetricsDetailsOp, usageMetricsOp, type DetailRow } from '../schemas/intelligence.ts';
import { listCategoriesOp, type Category } from '../schemas/categories.ts';
import { listIndustriesOp } from '../schemas/industries.ts';
import { COMPANY_PRODUCT_COLUMNS, companyProductsJsonlOp } from '../schemas/company-products.ts';
import { listCategories } from '../services/categories.ts';
import { listIndustries } from '../services/industries.ts';
import { usageDetails, usageMetrics } from '../services/metrics.ts';
import { streamAllCompanyProducts } from '../services/company-products.ts';
import { COMPANY_SUMMARY_COLUMNS, searchCompaniesOp, type CompanySearchInput } from '../schemas/companies.ts';
import { exportCompanySearch } from '../services/companies.ts';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../errors.ts';
import { csvStream, type CsvColumn } from '../csv.ts';
import type { CallContext, ResourceLink, ToolContext } from './registry.ts';
import { EXPORT_LINK_TTL_MS, EXPORT_URI_PREFIX, exportOfLink, type ExportLink } from './exports.ts';
import type { McpExportRow } from '../store/mcp-exports.ts';
import { eventsInputSchema, listEventsOp } from '../schemas/events.ts';
import { recentEvents } from '../services/events.ts';
import { listMonitors } from '../services/monitors.ts';
import { compactEvent } from './tools/events.ts';

const SCHEME = 'stacklens://';

interface ResourceContents {
  uri: string;
  mimeType: string;
  text: string;
}

/** A resource (or a family of them, by URI template) and how to read one. */
interface ResourceKind {
  /** The operation a read counts as (rate class, bulkhead). */
  operation: Operation;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** A fixed URI (listed in resources/list) or a template (resources/templates/list). */
  uri?: string;
  uriTemplate?: string;
  /** The template's variables, or undefined when the URI is not of this kind. */
  match(uri: string): Record<string, string> | undefined;
  /**
   * What a read counts as before it runs, when not a plain call of the operation: the
   * operation's arguments (for its permission and rate class), the user it is made for,
   * and what `read` gets as `state`.
   */
  prepare?(vars: Record<string, string>, ctx: ToolContext): Promise<PreparedRead>;
  read(vars: Record<string, string>, ctx: CallContext, state?: unknown): Promise<string>;
}

interface PreparedRead {
  args: Record<string, unknown>;
  onBehalfOf?: string;
  state?: unknown;
}

const fixed = (uri: string) => (candidate: string) => (candidate === uri ? {} : undefined);
const pattern = (re: RegExp) => (candidate: string) => re.exec(candidate)?.groups;

/** A URI part as the tool argument of the same name would validate it (a bad one is -32602). */
function parsed<T extends z.ZodType>(schema: T, value: string, name: string): z.output<T> {
  const result = schema.safeParse(decodeURIComponent(value));
  if (!result.success) throw new BadRequestError(`${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

/** The most text one read carries (a JSON-RPC reply is one message, held whole in memory). */
const MAX_RESOURCE_CHARS = 16_000_000;

async function csvText<T>(rows: AsyncIterable<T> | Iterable<T>, columns: CsvColumn<T>[], whole = 'use the REST API for the whole table'): Promise<string> {
  let out = '';
  for await (const chunk of csvStream(rows, columns)) {
    out += chunk.toString();
    if (out.length > MAX_RESOURCE_CHARS)
      throw new PayloadTooLargeError(`The resource is larger than one read carries (${MAX_RESOURCE_CHARS} characters): ${whole}`);
  }
  return out;
}

const SEARCH_EXPORT = 'companies.search.export';

/** Events one read of a monitor's events resource carries (the newest; `next` reads on from them). */
const RECENT_EVENTS = 50;
const MONITOR_EVENTS = /^stacklens:\/\/monitors\/(?<monitorId>[^/?]+)\/events(?:\?cursor=(?<cursor>[^&]*))?$/;

/** The feed's input for a monitor's events resource, checked as GET /api/events checks it (a bad part is -32602). */
function monitorEventsInput(vars: Record<string, string>) {
  const result = eventsInputSchema.safeParse({
    monitorId: decodeURIComponent(vars.monitorId!),
    cursor: vars.cursor === undefined ? undefined : decodeURIComponent(vars.cursor),
    limit: RECENT_EVENTS,
  });
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new BadRequestError(`${String(issue?.path[0] ?? 'uri')}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

interface CategoryNode {
  id: string;
  name: string;
  children?: CategoryNode[];
}

/** The flat category list as a tree (ids and names only: the compact reference a model reads). */
function categoryTree(categories: readonly Category[]): CategoryNode[] {
  const nodes = new Map(categories.map((c) => [c.id, { id: c.id, name: c.name } as CategoryNode]));
  const roots: CategoryNode[] = [];
  for (const c of categories) {
    const node = nodes.get(c.id)!;
    const parent = c.parentId ? nodes.get(c.parentId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

const DETAIL_COLUMNS: CsvColumn<DetailRow & { companyDomain: string }>[] = [
  { header: 'companyDomain', value: (r) => r.companyDomain },
  { header: 'category', value: (r) => r.category },
  { header: 'categoryId', value: (r) => r.categoryId },
  { header: 'status', value: (r) => (r.similar ? 'similar' : r.different ? 'different' : 'missing') },
  { header: 'product', value: (r) => r.product },
  { header: 'productId', value: (r) => r.productId },
  { header: 'companyProducts', value: (r) => r.companyProducts.join('; ') },
];

const KINDS: ResourceKind[] = [
  {
    operation: listCategoriesOp,
    uri: `${SCHEME}reference/categories`,
    name: 'categories',
    title: 'Product category tree',
    description:
      'Every product category as a tree of { id, name, children }. Ids feed companies_search (mainCategoryIdIn) and usage_metrics_details (categoryId).',
    mimeType: 'application/json',
    match: fixed(`${SCHEME}reference/categories`),
    read: async (_vars, ctx) => JSON.stringify(categoryTree(await listCategories(ctx.db))),
  },
  {
    operation: listIndustriesOp,
    uri: `${SCHEME}reference/industries`,
    name: 'industries',
    title: 'Industries',
    description: 'Every industry as { id, name, sector }. Names or ids feed companies_search (industries) and profiles_search.',
    mimeType: 'application/json',
    match: fixed(`${SCHEME}reference/industries`),
    read: async (_vars, ctx) => JSON.stringify(await listIndustries(ctx.db)),
  },
  {
    operation: usageMetricsOp,
    uriTemplate: `${SCHEME}companies/{companyDomain}/cohorts/{cohort}/usage`,
    name: 'cohort-usage',
    title: 'Technology usage in a cohort (full table)',
    description: "Every product used in the company's cohort with the share of members using it, as CSV (the whole usage_metrics table).",
    mimeType: 'text/csv',
    match: pattern(/^stacklens:\/\/companies\/(?<companyDomain>[^/]+)\/cohorts\/(?<cohort>[^/]+)\/usage$/),
    read: async (v, ctx) => {
      const input = {
        companyDomain: parsed(domainSchema(), v.companyDomain!, 'companyDomain'),
        cohort: parsed(cohortParam, v.cohort!, 'cohort'),
        vendorDomain: undefined,
        productId: undefined,
      };
      return csvText(await usageMetrics(ctx.db, input), csvColumnsOf(usageMetricSchema));
    },
  },
  {
    operation: usageMetricsDetailsOp,
    uriTemplate: `${SCHEME}companies/{companyDomain}/comparison/{cohortCompanyDomain}`,
    name: 'comparison',
    title: "A company's stack compared with chosen companies (full table)",
    description:
      'Category by category, for each compared company (comma-separated domains): similar, different or missing, as CSV (the whole usage_metrics_details answer).',
    mimeType: 'text/csv',
    match: pattern(/^stacklens:\/\/companies\/(?<companyDomain>[^/]+)\/comparison\/(?<cohortCompanyDomain>[^/]+)$/),
    read: async (v, ctx) => {
      const compared = decodeURIComponent(v.cohortCompanyDomain!)
        .split(',')
        .map((d) => parsed(domainSchema(), d, 'cohortCompanyDomain'));
      const details = await usageDetails(ctx.db, {
        companyDomain: parsed(domainSchema(), v.companyDomain!, 'companyDomain'),
        cohortCompanyDomain: compared,
        vendorDomain: undefined,
        productId: undefined,
        categoryId: undefined,
      });
      return csvText(
        details.flatMap((d) => d.products.map((row) => ({ ...row, companyDomain: d.companyDomain }))),
        DETAIL_COLUMNS,
      );
    },
  },
  {
    operation: companyProductsJsonlOp,
    uriTemplate: `${SCHEME}companies/{companyDomain}/products`,
    name: 'company-products',
    title: 'Every product of a company (full records)',
    description: 'Every Company product record of the company (evidence, categories, vendor), as CSV; audited as an export of the client.',
    mimeType: 'text/csv',
    match: pattern(/^stacklens:\/\/companies\/(?<companyDomain>[^/]+)\/products$/),
    read: async (v, ctx) => {
      const actor = { clientId: ctx.principal.clientId, onBehalfOf: ctx.onBehalfOf ?? null };
      const rows = await streamAllCompanyProducts(
        ctx.db,
        { companyDomain: parsed(domainSchema(), v.companyDomain!, 'companyDomain'), mainCategory: [], mainCategoryId: [] },
        { actor, format: 'csv' },
      );
      return csvText(rows, COMPANY_PRODUCT_COLUMNS);
    },
  },
  {
    operation: searchCompaniesOp,
    uriTemplate: `${EXPORT_URI_PREFIX}{exportId}`,
    name: 'company-export',
    title: 'A company search export (CSV)',
    description: `Every company matching a companies_search made with export=true, as CSV. Its link comes in that tool's answer, lives ${EXPORT_LINK_TTL_MS / 60_000} minutes and is readable by the client that made it; each read is audited as an export.`,
    mimeType: 'text/csv',
    match: pattern(/^stacklens:\/\/exports\/(?<exportId>[^/]+)$/),
    prepare: async (v, ctx) => {
      const row = await exportOfLink(ctx, v.exportId!, SEARCH_EXPORT);
      return { args: { export: true }, onBehalfOf: row.onBehalfOf ?? undefined, state: row };
    },
    read: async (_v, ctx, state) => {
      const row = state as McpExportRow;
      const rows = await exportCompanySearch(ctx.db, row.params as CompanySearchInput, { clientId: ctx.principal.clientId, onBehalfOf: row.onBehalfOf });
      return csvText(rows, COMPANY_SUMMARY_COLUMNS, 'narrow the search, or use the REST export (POST /api/companies/search?export=true) for the whole file');
    },
  },
  {
    operation: listEventsOp,
    uriTemplate: `${SCHEME}monitors/{monitorId}/events{?cursor}`,
    name: 'monitor-events',
    title: "A monitor's events",
    description: `Your monitor's newest events (at most ${RECENT_EVENTS}, oldest first) as JSON { events, cursor, hasMore, next }: companies entering and leaving it, and the events of its wanted types about its companies. Read \`next\` for the events after these; resources/subscribe to its URI (without cursor) tells you when there are new ones.`,
    mimeType: 'application/json',
    match: pattern(MONITOR_EVENTS),
    read: async (v, ctx) => {
      const input = monitorEventsInput(v);
      const page = await recentEvents(ctx.db, ctx.principal.clientId, input, ctx.config.cursorSecret);
      const next = `${links.monitorEvents(input.monitorId!).uri}?cursor=${enc(page.cursor)}`;
      return JSON.stringify({ events: page.events.map(compactEvent), cursor: page.cursor, hasMore: page.hasMore, next });
    },
  },
];

/**
 * The monitor a subscribable URI names: only a monitor's events resource, without a cursor
 * (a BadRequestError for any other URI). Whose monitor it is, is checked by the caller.
 */
export function subscribableMonitor(uri: string): string {
  const vars = MONITOR_EVENTS.exec(uri)?.groups;
  if (!vars || vars.cursor !== undefined)
    throw new BadRequestError(`uri: only a monitor's events resource, ${SCHEME}monitors/{monitorId}/events (without cursor), can be subscribed to`);
  return monitorEventsInput(vars).monitorId!;
}

/** The audited action of an export link made by companies_search. */
export const companySearchExport = SEARCH_EXPORT;

const fixedResources = KINDS.filter((k) => k.uri).map((k) => ({ uri: k.uri!, name: k.name, title: k.title, description: k.description, mimeType: k.mimeType }));

/** Monitors listed by resources/list (the template names any other). */
const LISTED_MONITORS = 200;

/** resources/list: the reference data, then the caller's monitors' events. */
export async function listedResources(ctx: ToolContext) {
  const monitors = await listMonitors(ctx.db, ctx.principal.clientId, { page: 0, size: LISTED_MONITORS });
  return { resources: [...fixedResources, ...monitors.content.map((m) => links.monitorEvents(m.id, m.name))] };
}

export const listedResourceTemplates = {
  resourceTemplates: KINDS.filter((k) => k.uriTemplate).map((k) => ({
    uriTemplate: k.uriTemplate!,
    name: k.name,
    title: k.title,
    description: k.description,
    mimeType: k.mimeType,
  })),
};

/** The kind of resource a URI names and its variables; an unknown URI is a NotFoundError. */
export function resolveResource(uri: string): { kind: ResourceKind; vars: Record<string, string> } {
  for (const kind of KINDS) {
    const vars = kind.match(uri);
    if (vars) return { kind, vars };
  }
  throw new NotFoundError(`Resource '${uri.slice(0, 200)}' not found: resources/list and resources/templates/list name the readable ones`);
}

/** What a read of this kind counts as: by default a plain call of its operation. */
export async function prepareRead(kind: ResourceKind, vars: Record<string, string>, ctx: ToolContext): Promise<PreparedRead> {
  return kind.prepare ? kind.prepare(vars, ctx) : { args: {} };
}

export async function readResource(
  kind: ResourceKind,
  vars: Record<string, string>,
  uri: string,
  ctx: CallContext,
  state?: unknown,
): Promise<ResourceContents> {
  return { uri, mimeType: kind.mimeType, text: await kind.read(vars, ctx, state) };
}

const enc = encodeURIComponent;

/** Links to the full tables, as tool answers carry them. */
export const links = {
  cohortUsage: (companyDomain: string, cohort: string): ResourceLink => ({
    uri: `${SCHEME}companies/${enc(companyDomain)}/cohorts/${enc(cohort)}/usage`,
    name: 'cohort-usage',
    title: `Usage in the ${cohort} cohort of ${companyDomain}`,
    mimeType: 'text/csv',
    description: 'The whole usage table of the cohort as CSV',
  }),
  comparison: (companyDomain: string, compared: readonly string[]): ResourceLink => ({
    uri: `${SCHEME}companies/${enc(companyDomain)}/comparison/${enc(compared.join(','))}`,
    name: 'comparison',
    title: `${companyDomain} compared with ${compared.length} companies`,
    mimeType: 'text/csv',
    description: 'The whole comparison, category by category, as CSV',
  }),
  companyExport: (link: ExportLink, rows: number): ResourceLink => ({
    uri: link.uri,
    name: 'company-export',
    title: `Export of ${rows} companies`,
    mimeType: 'text/csv',
    description: `The companies as CSV (header row, then one row per company), readable until ${link.expiresAt}`,
  }),
  monitorEvents: (monitorId: string, name?: string): ResourceLink => ({
    uri: `${SCHEME}monitors/${enc(monitorId)}/events`,
    name: 'monitor-events',
    title: name === undefined ? `Events of monitor ${monitorId}` : `Events of monitor "${name}"`,
    mimeType: 'application/json',
    description: `The monitor's newest events as JSON; subscribe to be told of new ones`,
  }),
  companyProducts: (companyDomain: string): ResourceLink => ({
    uri: `${SCHEME}companies/${enc(companyDomain)}/products`,
    name: 'company-products',
    title: `Every product of ${companyDomain}`,
    mimeType: 'text/csv',
    description: 'Every product record of the company (full fields) as CSV',
  }),
};
