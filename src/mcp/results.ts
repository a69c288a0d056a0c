// Tool results. A structured answer goes out as structuredContent (valid against the tool's
// outputSchema), a short text summary and resource_link items, for clients of 2025-06-18 and
// later; clients of earlier revisions, which know neither structuredContent nor
// resource_link, get the same data as JSON text, with the links as text lines. Failures are
// isError results whose text names the argument or the problem and tells the model how to
// fix the call.
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import type { ResourceLink, ToolAnswer, ToolDef } from './registry.ts';

/** About 25k tokens: a longer result is cut and says how to get the rest. */
export const MAX_RESULT_CHARS = 90_000;

/** The first revision with structuredContent, outputSchema and resource_link. */
const STRUCTURED_SINCE = '2025-06-18';

/** Revisions are dates (YYYY-MM-DD): they compare as strings. */
const knowsStructuredContent = (protocolVersion: string): boolean => protocolVersion >= STRUCTURED_SINCE;

type Content = { type: 'text'; text: string } | ({ type: 'resource_link' } & ResourceLink);

interface ToolResult {
  [key: string]: unknown;
  content: Content[];
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
  // 422 has several causes (a site that cannot be fetched, a reused idempotency key): the
  // message names the cause, so the hint only says to read it.
  422: 'The arguments are valid but the call could not be carried out: the message says why; change what it names (another address, a new key) or try again later.',
  429: 'Rate limit reached: wait the number of seconds given, then call again.',
  503: 'The service is busy or overloaded: wait the number of seconds given, then call again.',
};

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

export function toolError(err: unknown): ToolResult {
  if (err instanceof AppError) {
    const retry = err.headers['retry-after'] ? ` Retry after ${err.headers['retry-after']} s.` : '';
    return errorResult(`Error ${err.status}: ${err.message}. ${HINTS[err.status] ?? ''}${retry}`.trim());
  }
  return errorResult('Error 500: the tool failed unexpectedly; retry later.');
}

/**
 * Arguments that break the tool's input schema, as an isError result naming each argument
 * and its rule (an unknown argument is named as such, with the arguments the tool takes).
 */
export function invalidArguments(tool: ToolDef, error: z.ZodError, accepted: readonly string[]): ToolResult {
  const problems = error.issues.slice(0, 10).map((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((k) => (at ? `${at}.${k}` : k)).join(', ');
      return `${names}: unknown argument${issue.keys.length > 1 ? 's' : ''}${at ? '' : ` (${tool.name} takes ${accepted.join(', ')})`}`;
    }
    return `${at || '(arguments)'}: ${issue.message}`;
  });
  return errorResult(`Error 400: Invalid arguments for ${tool.name}: ${problems.join('; ')}. ${HINTS[400]}`);
}

/** A structured answer as the client's revision reads it. */
export function renderAnswer(answer: ToolAnswer, protocolVersion: string): ToolResult {
  const structured = bounded(answer.structured);
  const links = answer.links ?? [];
  if (knowsStructuredContent(protocolVersion)) {
    return {
      content: [{ type: 'text', text: answer.summary }, ...links.map((link): Content => ({ type: 'resource_link', ...link }))],
      structuredContent: structured,
    };
  }
  const linkLines = links.map((link) => `\n${link.description}: ${link.uri} (resources/read)`).join('');
  return { content: [{ type: 'text', text: `${answer.summary}${linkLines}\n${JSON.stringify(structured)}` }], structuredContent: structured };
}

/** A list answer that does not fit is cut at an item boundary, saying how to page through the rest. */
function bounded(structured: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(structured).length <= MAX_RESULT_CHARS || !Array.isArray(structured.items)) return structured;
  const kept = fitting(structured.items);
  return {
    ...structured,
    items: kept,
    truncated: true,
    note: `Only the first ${kept.length} of ${structured.items.length} items fit in one result. Call again with size=${Math.max(1, kept.length)} (or detail="compact") and page through the rest.`,
  };
}

function fitting(list: unknown[]): unknown[] {
  const kept: unknown[] = [];
  let used = 500;
  for (const item of list) {
    const n = JSON.stringify(item).length + 1;
    if (used + n > MAX_RESULT_CHARS) break;
    kept.push(item);
    used += n;
  }
  return kept;
}

/**
 * The value of a tool without an output schema (test doubles), as JSON text (plus
 * structuredContent for objects); bounded like a structured answer.
 */
export function rawResult(value: unknown): ToolResult {
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
  const kept = fitting(list);
  const note = `Only the first ${kept.length} of ${list.length} items fit in one result. Call again with size=${Math.max(1, kept.length)} and page through the rest.`;
  return Array.isArray(value) ? { items: kept, truncated: true, note } : { ...(value as object), content: kept, truncated: true, note };
}

function isPage(v: unknown): v is { content: unknown[] } {
  return v !== null && typeof v === 'object' && Array.isArray((v as { content?: unknown }).content);
}
