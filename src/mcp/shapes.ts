// Answers sized for a model: the compact form of a record (the fields most calls need; the
// whole record with detail="full"), pages with a total and the arguments of the next page,
// and short text summaries. Every shape is derived from the contract's own schemas, so a
// tool's outputSchema cannot drift from what the REST API documents for the same record.
import { z } from 'zod';
import { pageQuery } from '../schemas/common.ts';
import type { ToolAnswer, ResourceLink } from './registry.ts';

export type Detail = 'compact' | 'full';

/** The `detail` argument of every tool whose records have a compact form. */
export const detailArgument = z
  .enum(['compact', 'full'])
  .default('compact')
  .describe('compact (default): the fields most questions need; full: every field of the record');

/** Paging arguments of a tool that pages a list the service answers whole (categories, usage). */
export const pageArguments = { page: pageQuery.page, size: pageQuery.size };

/**
 * The compact form of a record schema: the named fields, required as in the record; with
 * detail="full" the other fields of the record follow, which the schema allows.
 */
export function compactOf<S extends z.ZodObject, K extends keyof S['shape'] & string>(record: S, keys: readonly K[]) {
  const schema = record.pick(Object.fromEntries(keys.map((k) => [k, true])) as never).loose();
  const pick = <T extends Record<string, unknown>>(item: T, detail: Detail): Record<string, unknown> => {
    if (detail === 'full') return item;
    const out: Record<string, unknown> = {};
    for (const k of keys) if (k in item) out[k] = item[k];
    return out;
  };
  return { schema, pick };
}

/** The same object schema with no description on its fields (one level): a smaller outputSchema. */
export function stripDescriptions<S extends z.ZodObject>(schema: S): S {
  const shape = Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, (v as z.ZodType).meta({ description: undefined })]));
  return z.object(shape) as unknown as S;
}

export const nextPageSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe('The arguments of the next page (call the tool again with them); null on the last page');

/**
 * The structured answer of a paged list tool. A page too large for one result also carries
 * `truncated: true` and a `note` (results.ts); the schema leaves them unlisted, as it leaves
 * the fields of detail="full" (nothing in an output schema forbids more fields).
 */
export function pageOutput<T extends z.ZodType>(item: T, extra: z.ZodRawShape = {}) {
  return z.object({
    total: z.number().int().describe('Items in all pages'),
    items: z.array(item),
    nextPage: nextPageSchema,
    ...extra,
  });
}

/** A page as a tool answers it: total and the next page's arguments (the page number and count go to the summary). */
interface PageOf<T> {
  total: number;
  items: T[];
  nextPage: Record<string, unknown> | null;
}

interface PageInfo<T> extends PageOf<T> {
  page: number;
  totalPages: number;
}

/** A service page (REST shape) as a tool page, items mapped, with the next page's arguments. */
export function toolPage<T, U>(
  page: { totalElements: number; totalPages: number; content: T[] },
  args: Record<string, unknown> & { page?: number },
  map: (item: T) => U,
): PageInfo<U> {
  const current = args.page ?? 0;
  return {
    total: page.totalElements,
    page: current,
    totalPages: page.totalPages,
    items: page.content.map(map),
    nextPage: current + 1 < page.totalPages ? { ...args, page: current + 1 } : null,
  };
}

/** One page of a list the service answered whole. */
export function slicePage<T, U>(all: readonly T[], args: Record<string, unknown> & { page: number; size: number }, map: (item: T) => U): PageInfo<U> {
  const { page, size } = args;
  return toolPage({ totalElements: all.length, totalPages: Math.ceil(all.length / size), content: all.slice(page * size, (page + 1) * size) }, args, map);
}

/** How many items a summary names before "…". */
const NAMED = 5;

/** "3 of 41 companies (page 1 of 3): a; b; c. More: call again with nextPage." */
function pageSummary<T>(page: PageInfo<T>, noun: string, label: (item: T) => string): string {
  const shown = page.items.slice(0, NAMED).map(label).join('; ');
  const more = page.items.length > NAMED ? '; …' : '';
  const where = page.totalPages > 1 ? ` (page ${page.page + 1} of ${page.totalPages})` : '';
  const next = page.nextPage ? ' More: call again with the arguments in nextPage.' : '';
  if (page.items.length === 0)
    return page.total === 0 ? `No ${noun} found.` : `No ${noun} on page ${page.page + 1}; there are ${page.total} in ${page.totalPages} pages.`;
  return `${page.items.length} of ${page.total} ${noun}${where}: ${shown}${more}.${next}`;
}

/** The answer of a paged tool: the page, its summary, and the links that go with it. */
export function pageAnswer<T>(
  page: PageInfo<T>,
  noun: string,
  label: (item: T) => string,
  extra: Record<string, unknown> = {},
  links?: ResourceLink[],
): ToolAnswer {
  const { total, items, nextPage } = page;
  return { structured: { total, items, nextPage, ...extra }, summary: pageSummary(page, noun, label), links };
}

/** A name with its key, for summaries: "Acme (acme.com)". */
export const named = (name: string | null | undefined, key: string): string => (name ? `${name} (${key})` : key);
