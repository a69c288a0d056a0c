// Schemas shared by every resource: paging, the page object, the error body and the
// documented error responses spread into each route schema.
import { z } from 'zod';
import type { CsvColumn } from '../csv.ts';
import { BadRequestError } from '../errors.ts';

/**
 * A whole-number query parameter. Strict: "1.5", "abc", "" and out-of-range values are
 * 400s naming the parameter (no silent clamping). Numbers are accepted too (MCP arguments).
 */
export function intParam(name: string, min: number, max: number, def: number) {
  return z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return def;
      const n = typeof v === 'number' ? v : /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ type: 'integer', minimum: min, maximum: max, ...requestDefault(def) });
}

/** A boolean query parameter: true/false (any case), 1/0; absent → the default. */
export function boolParam(name: string, def: boolean) {
  return z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return def;
      if (typeof v === 'boolean') return v;
      const s = v.trim().toLowerCase();
      if (s === 'true' || s === '1') return true;
      if (s === 'false' || s === '0') return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    })
    .meta({ type: 'boolean', ...requestDefault(def) });
}

export const MAX_PAGE_SIZE = 200;

export const pageQuery = {
  page: intParam('page', 0, 1_000_000, 0).describe('0-based page number'),
  size: intParam('size', 1, MAX_PAGE_SIZE, 20).describe(`Page size, 1-${MAX_PAGE_SIZE}`),
};

/**
 * The searches (companies, people) page through their first MAX_RESULT_WINDOW matches:
 * page × size must stay below it. A deeper page would have the database sort and skip every
 * match before it (page=1000000 took seconds); export=true streams every match in keyset
 * batches instead. The schema's maximum page is the deepest any size allows (size 1).
 */
export const MAX_RESULT_WINDOW = 10_000;
/** The document's extension on a search's `page` stating the bound: page × size < its value. */
export const RESULT_WINDOW_EXTENSION = 'x-page-times-size-below';

/** The `page` parameter of a search: 0 to MAX_RESULT_WINDOW - 1, and page × size below MAX_RESULT_WINDOW. */
export function searchPageParam(where: string) {
  // JSON Schema cannot bound a product of two fields (and page and size may each come from
  // the query or the body): the bound is stated as an extension beside the prose.
  return intParam('page', 0, MAX_RESULT_WINDOW - 1, 0)
    .meta({ [RESULT_WINDOW_EXTENSION]: MAX_RESULT_WINDOW })
    .describe(
      `0-based page number, default 0 (${where}). page × size must stay below ${MAX_RESULT_WINDOW}: a search pages through its first ${MAX_RESULT_WINDOW} matches (at size 20 the last page is ${lastSearchPage(20)}; at ${MAX_PAGE_SIZE}, ${lastSearchPage(MAX_PAGE_SIZE)}); export=true streams every match. Deeper → 400`,
    );
}

/** The deepest page a search answers at this size. */
function lastSearchPage(size: number): number {
  return Math.floor((MAX_RESULT_WINDOW - 1) / size);
}

/** Refuses a search page that starts past the result window (400 naming the field and the limit). */
export function checkResultWindow(page: number, size: number): void {
  if (page * size < MAX_RESULT_WINDOW) return;
  throw new BadRequestError(
    `page: page × size must stay below ${MAX_RESULT_WINDOW} (a search pages through its first ${MAX_RESULT_WINDOW} matches); at size ${size} the last page is ${lastSearchPage(size)}. Narrow the filters, or export every match with export=true`,
  );
}

export interface Page<T> {
  totalPages: number;
  totalElements: number;
  content: T[];
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    totalPages: z.number().int(),
    totalElements: z.number().int(),
    content: z.array(item),
  });
}

export function toPage<T>(content: T[], totalElements: number, size: number): Page<T> {
  return { totalPages: Math.ceil(totalElements / size), totalElements, content };
}

/**
 * Examples of a request schema that contains a transform. zod leaves `examples` out of the
 * input (request) form of such a schema, as they would describe its output; under this key
 * they reach the OpenAPI document, which restores them as `examples`.
 */
export const requestExamples = (...examples: unknown[]) => ({ 'x-request-examples': examples });

/** The default of a request schema that contains a transform (zod leaves it out likewise). */
function requestDefault(value: unknown) {
  return { 'x-request-default': value };
}

/** The field names of an object schema, in declaration order (CSV headers follow the schema). */
export function fieldsOf<S extends z.ZodObject>(schema: S): (keyof z.output<S> & string)[] {
  return Object.keys(schema.shape) as (keyof z.output<S> & string)[];
}

/** CSV columns of an object schema: every field, in declaration order, headed by its name. */
export function csvColumnsOf<S extends z.ZodObject>(schema: S): CsvColumn<z.output<S>>[] {
  return fieldsOf(schema).map((k) => ({ header: k, value: (r: z.output<S>) => r[k] as ReturnType<CsvColumn<z.output<S>>['value']> }));
}

export const errorBodySchema = z
  .object({
    status: z.number().int(),
    error: z.string(),
    message: z.string(),
    path: z.string().optional(),
    requestId: z.string().optional(),
  })
  .describe('Error body, the same for every 4xx/5xx');

const describeError = (text: string) => errorBodySchema.describe(text);

/** The error responses every authenticated route can answer; spread into `response`. */
export const commonErrors = {
  400: describeError('Bad request: a parameter or body field breaks a rule; the message names it'),
  401: describeError('Missing, invalid or expired credentials'),
  403: describeError('The plan lacks a permission, or X-On-Behalf-Of-User is missing where required'),
  404: describeError('Unknown company, product, vendor, category or profile; or nothing matched'),
  429: describeError('Rate limit exceeded; wait Retry-After seconds'),
} as const;
