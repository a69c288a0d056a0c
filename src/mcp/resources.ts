// MCP resources: reference data (the category tree, the industries) and the full tables a
// tool answer links to instead of carrying them inline (a cohort's whole usage table, a
// whole comparison, every product of a company), read through resources/read. Each read
// runs as a call of the operation that produces it: same rate class, same bulkhead, same
// services as REST and the tools.
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
import { BadRequestError, NotFoundError } from '../errors.ts';
import { csvStream, type CsvColumn } from '../csv.ts';
import type { CallContext, ResourceLink } from './registry.ts';

const SCHEME = 'stacklens://';

export interface ResourceContents {
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
  read(vars: Record<string, string>, ctx: CallContext): Promise<string>;
}

const fixed = (uri: string) => (candidate: string) => (candidate === uri ? {} : undefined);
const pattern = (re: RegExp) => (candidate: string) => re.exec(candidate)?.groups;

/** A URI part as the tool argument of the same name would validate it (a bad one is -32602). */
function parsed<T extends z.ZodType>(schema: T, value: string, name: string): z.output<T> {
  const result = schema.safeParse(decodeURIComponent(value));
  if (!result.success) throw new BadRequestError(`${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

async function csvText<T>(rows: AsyncIterable<T> | Iterable<T>, columns: CsvColumn<T>[]): Promise<string> {
  let out = '';
  for await (const chunk of csvStream(rows, columns)) out += chunk.toString();
  return out;
}

interface CategoryNode { id: string; name: string; children?: CategoryNode[] }

/** The flat category list as a tree (ids and names only: the compact reference a model reads). */
export function categoryTree(categories: readonly Category[]): CategoryNode[] {
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
    description: 'Every product category as a tree of { id, name, children }. Ids feed companies_search (mainCategoryIdIn) and usage_metrics_details (categoryId).',
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
    description: 'Every product used in the company\'s cohort with the share of members using it, as CSV (the whole usage_metrics table).',
    mimeType: 'text/csv',
    match: pattern(/^stacklens:\/\/companies\/(?<companyDomain>[^/]+)\/cohorts\/(?<cohort>[^/]+)\/usage$/),
    read: async (v, ctx) => {
      const input = { companyDomain: parsed(domainSchema(), v.companyDomain!, 'companyDomain'), cohort: parsed(cohortParam, v.cohort!, 'cohort'), vendorDomain: undefined, productId: undefined };
      return csvText(await usageMetrics(ctx.db, input), csvColumnsOf(usageMetricSchema));
    },
  },
  {
    operation: usageMetricsDetailsOp,
    uriTemplate: `${SCHEME}companies/{companyDomain}/comparison/{cohortCompanyDomain}`,
    name: 'comparison',
    title: 'A company\'s stack compared with chosen companies (full table)',
    description: 'Category by category, for each compared company (comma-separated domains): similar, different or missing, as CSV (the whole usage_metrics_details answer).',
    mimeType: 'text/csv',
    match: pattern(/^stacklens:\/\/companies\/(?<companyDomain>[^/]+)\/comparison\/(?<cohortCompanyDomain>[^/]+)$/),
    read: async (v, ctx) => {
      const compared = decodeURIComponent(v.cohortCompanyDomain!).split(',').map((d) => parsed(domainSchema(), d, 'cohortCompanyDomain'));
      const details = await usageDetails(ctx.db, { companyDomain: parsed(domainSchema(), v.companyDomain!, 'companyDomain'), cohortCompanyDomain: compared, vendorDomain: undefined, productId: undefined, categoryId: undefined });
      return csvText(details.flatMap((d) => d.products.map((row) => ({ ...row, companyDomain: d.companyDomain }))), DETAIL_COLUMNS);
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
      const rows = await streamAllCompanyProducts(ctx.db, { companyDomain: parsed(domainSchema(), v.companyDomain!, 'companyDomain'), mainCategory: [], mainCategoryId: [] }, { actor, format: 'csv' });
      return csvText(rows, COMPANY_PRODUCT_COLUMNS);
    },
  },
];

export const listedResources = {
  resources: KINDS.filter((k) => k.uri).map((k) => ({ uri: k.uri!, name: k.name, title: k.title, description: k.description, mimeType: k.mimeType })),
};

export const listedResourceTemplates = {
  resourceTemplates: KINDS.filter((k) => k.uriTemplate).map((k) => ({ uriTemplate: k.uriTemplate!, name: k.name, title: k.title, description: k.description, mimeType: k.mimeType })),
};

/** The kind of resource a URI names and its variables; an unknown URI is a NotFoundError. */
export function resolveResource(uri: string): { kind: ResourceKind; vars: Record<string, string> } {
  for (const kind of KINDS) {
    const vars = kind.match(uri);
    if (vars) return { kind, vars };
  }
  throw new NotFoundError(`Resource '${uri.slice(0, 200)}' not found: resources/list and resources/templates/list name the readable ones`);
}

export async function readResource(kind: ResourceKind, vars: Record<string, string>, uri: string, ctx: CallContext): Promise<ResourceContents> {
  return { uri, mimeType: kind.mimeType, text: await kind.read(vars, ctx) };
}

const enc = encodeURIComponent;

/** Links to the full tables, as tool answers carry them. */
export const links = {
  cohortUsage: (companyDomain: string, cohort: string): ResourceLink => ({
    uri: `${SCHEME}companies/${enc(companyDomain)}/cohorts/${enc(cohort)}/usage`,
    name: 'cohort-usage', title: `Usage in the ${cohort} cohort of ${companyDomain}`, mimeType: 'text/csv',
    description: 'The whole usage table of the cohort as CSV',
  }),
  comparison: (companyDomain: string, compared: readonly string[]): ResourceLink => ({
    uri: `${SCHEME}companies/${enc(companyDomain)}/comparison/${enc(compared.join(','))}`,
    name: 'comparison', title: `${companyDomain} compared with ${compared.length} companies`, mimeType: 'text/csv',
    description: 'The whole comparison, category by category, as CSV',
  }),
  companyProducts: (companyDomain: string): ResourceLink => ({
    uri: `${SCHEME}companies/${enc(companyDomain)}/products`,
    name: 'company-products', title: `Every product of ${companyDomain}`, mimeType: 'text/csv',
    description: 'Every product record of the company (full fields) as CSV',
  }),
};
