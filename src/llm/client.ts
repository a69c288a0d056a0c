// The one client of the optional language model (LLM), and the rule for when its answer is
// used. Prompt understanding with an optional model: when AI_BASE_URL and AI_MODEL are set, an
// OpenAI-compatible chat-completions endpoint parses the prompt into the structured query
// (JSON checked against modelQuerySchema, then grounded onto the catalog); on a timeout, an
// HTTP or network error, invalid output, or an answer that grounds to nothing while the
// embedded parser finds something, the embedded parser answers. Only the user's prompt (and
// fixed instructions) leave the process. The result says which parser answered and why.
import type { Config } from '../config.ts';
import {
  groundModelQuery,
  MAX_PROMPT_CHARS,
  modelQuerySchema,
  parsePrompt,
  type CatalogCompany,
  type ModelQuery,
  type ParsedQuery,
  type PromptCatalog,
  type PromptMode,
} from '../intelligence/prompt/index.ts';
import { systemPrompt } from './system-prompt.ts';

export type ParserName = 'embedded' | 'model';
export type FallbackReason = 'timeout' | 'http_error' | 'network_error' | 'invalid_output' | 'ungrounded';

export interface Understood {
  query: ParsedQuery;
  parser: ParserName;
  /** Why the model's answer was not used (only when a model is configured). */
  fallbackReason?: FallbackReason;
}

interface UnderstandOptions {
  /** Companies the prompt may name (see store/catalog.ts findPromptCompanies). */
  companies?: readonly CatalogCompany[];
  /** HTTP client, for tests; default the global fetch. */
  fetch?: typeof fetch;
}

/** Largest model reply read (bytes); a structured query is a few hundred. */
const MAX_REPLY_BYTES = 256 * 1024;

type ModelAnswer = { ok: true; value: ModelQuery } | { ok: false; reason: FallbackReason };

export async function understandPrompt(
  prompt: string,
  catalog: PromptCatalog,
  mode: PromptMode,
  config: Pick<Config, 'ai'>,
  options: UnderstandOptions = {},
): Promise<Understood> {
  const embedded = () => parsePrompt(prompt, catalog, { mode, companies: options.companies });
  if (!config.ai) return { query: embedded(), parser: 'embedded' };
  const answer = await askModel(prompt.slice(0, MAX_PROMPT_CHARS), mode, config.ai, options.fetch ?? fetch);
  if (!answer.ok) return { query: embedded(), parser: 'embedded', fallbackReason: answer.reason };
  const grounded = groundModelQuery(answer.value, prompt, catalog, mode, options.companies ?? []);
  if (isEmpty(grounded)) {
    const own = embedded();
    if (!isEmpty(own)) return { query: own, parser: 'embedded', fallbackReason: 'ungrounded' };
  }
  return { query: grounded, parser: 'model' };
}

/** Nothing to search by: no entity, filter or term. */
function isEmpty(q: ParsedQuery): boolean {
  return (
    q.products.length +
      q.vendors.length +
      q.categories.length +
      q.industries.length +
      q.countries.length +
      q.employeeRanges.length +
      q.revenueRanges.length +
      q.titles.length +
      q.seniority.length +
      q.functions.length +
      q.companies.length +
      q.terms.length ===
      0 && q.timeWindow === null
  );
}

async function askModel(prompt: string, mode: PromptMode, ai: NonNullable<Config['ai']>, fetchImpl: typeof fetch): Promise<ModelAnswer> {
  let text: string;
  try {
    const res = await fetchImpl(`${ai.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: ai.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: systemPrompt(mode) },
          { role: 'user', content: prompt },
        ],
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(ai.timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, reason: 'http_error' };
    }
    if (Number(res.headers.get('content-length') ?? 0) > MAX_REPLY_BYTES) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, reason: 'invalid_output' };
    }
    text = await res.text();
  } catch (err) {
    const name = (err as Error | undefined)?.name;
    return { ok: false, reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error' };
  }
  if (text.length > MAX_REPLY_BYTES) return { ok: false, reason: 'invalid_output' };
  const value = parseReply(text);
  return value ? { ok: true, value } : { ok: false, reason: 'invalid_output' };
}

/** The structured query inside a chat-completions reply, or null when it is not one. */
export function parseReply(text: string): ModelQuery | null {
  try {
    const body = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') return null;
    // Some models wrap JSON in a Markdown fence even in JSON mode.
    const json = content
      .trim()
      .replace(/^```(?:json)?\s*/i, '')
      .replace(/\s*```$/, '');
    const parsed = modelQuerySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
