// Prompt understanding for the AI helper endpoints: the catalog (cached), the companies the
// prompt may name (people and tech-stack prompts), then the model or the embedded parser.
// The endpoints call this once per request and expose `described` (and the query) so a user
// can see why they got what they got.
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { findPromptCompanies, loadPromptCatalog } from '../store/catalog.ts';
import { understandPrompt, type Understood } from '../llm/client.ts';
import { companyCandidates, describeQuery, type PromptMode } from '../intelligence/prompt/index.ts';

export interface UnderstoodPrompt extends Understood {
  /** One line: what was understood ("vendors=HubSpot (typo 'hubspt'); countries=DE"). */
  described: string;
}

export async function understandAiPrompt(
  db: Db,
  config: Pick<Config, 'ai'>,
  prompt: string,
  mode: PromptMode,
  deps: { fetch?: typeof fetch } = {},
): Promise<UnderstoodPrompt> {
  const catalog = await loadPromptCatalog(db);
  const companies = mode === 'customers' ? [] : await findPromptCompanies(db, companyCandidates(prompt));
  const result = await understandPrompt(prompt, catalog, mode, config, { companies, fetch: deps.fetch });
  return { ...result, described: describeQuery(result.query) };
}
