// Tool results: JSON text in content[] (plus structuredContent for objects), bounded in
// size; domain failures as isError results whose text tells the model how to fix the call.
import { AppError } from '../errors.ts';

/** About 25k tokens: a longer result is cut and says how to get the rest. */
export const MAX_RESULT_CHARS = 90_000;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const HINTS: Record<number, string> = {
  400: 'Fix the argument named in the message and call again.',
  401: 'The credentials were refused: use a valid API key or a fresh access token.',
  402: 'Not enough credits: buy fewer profiles or ask the operator to grant credits (credits_balance shows the balance).',
  403: 'This client or call is not allowed as made: the message names the missing permission or the missing onBehalfOfUser argument.',
  404: 'Nothing was found for what the message names: check the domain or id (vendors_search, categories_list and companies_search find valid ones).',
  409: 'The call conflicts with the current state; read the message.',
  413: 'Too many items in one call: split the list into smaller calls.',
  422: 'The Idempotency key was reused with different arguments: use a new key.',
  429: 'Rate limit reached: wait the number of seconds given, then call again.',
  503: 'The service is busy or overloaded: wait the number of seconds given, then call again.',
};

export function toolError(err: unknown): ToolResult {
  if (err instanceof AppError) {
    const retry = err.headers['retry-after'] ? ` Retry after ${err.headers['retry-after']} s.` : '';
    return { content: [{ type: 'text', text: `Error ${err.status}: ${err.message}. ${HINTS[err.status] ?? ''}${retry}`.trim() }], isError: true };
  }
  return { content: [{ type: 'text', text: 'Error 500: the tool failed unexpectedly; retry later.' }], isError: true };
}

/**
 * Serializes a tool's value. Arrays and page objects that do not fit are cut at an item
 * boundary with a `truncated` note naming how to continue (smaller size / next page).
 */
export function toolResult(value: unknown): ToolResult {
  let text = JSON.stringify(value);
  let out: unknown = value;
  if (text.length > MAX_RESULT_CHARS) {
    out = truncate(value);
    text = JSON.stringify(out);
  }
  const structured = out !== null && typeof out === 'object' && !Array.isArray(out) ? (out as Record<string, unknown>) : undefined;
  return structured ? { content: [{ type: 'text', text }], structuredContent: structured } : { content: [{ type: 'text', text }] };
}

function truncate(value: unknown): unknown {
  const list = Array.isArray(value) ? value : isPage(value) ? value.content : undefined;
  if (!list) {
    const text = JSON.stringify(value).slice(0, MAX_RESULT_CHARS);
    return { truncated: true, note: 'The result was too large and was cut; narrow the query.', partialJson: text };
  }
  const kept: unknown[] = [];
  let used = 200;
  for (const item of list) {
    const n = JSON.stringify(item).length + 1;
    if (used + n > MAX_RESULT_CHARS) break;
    kept.push(item);
    used += n;
  }
  const note = `Only the first ${kept.length} of ${list.length} items fit in one result. Call again with size=${Math.max(1, kept.length)} and page through the rest.`;
  return Array.isArray(value) ? { items: kept, truncated: true, note } : { ...(value as object), content: kept, truncated: true, note };
}

function isPage(v: unknown): v is { content: unknown[] } {
  return v !== null && typeof v === 'object' && Array.isArray((v as { content?: unknown }).content);
}

/**
 * A page object plus the arguments of the next page (null on the last one), so a model
 * can continue without computing offsets.
 */
export function withNextPage<T extends { totalPages: number }>(
  page: T,
  args: Record<string, unknown> & { page?: number },
  nextArgs: (nextPage: number) => Record<string, unknown> = (n) => ({ ...args, page: n }),
): T & { nextPage: Record<string, unknown> | null } {
  const current = args.page ?? 0;
  return { ...page, nextPage: current + 1 < page.totalPages ? nextArgs(current + 1) : null };
}
