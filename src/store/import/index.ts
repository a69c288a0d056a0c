// The import SQL of every kind, by kind name, and the staging machinery that runs it.
import * as catalog from './catalog.ts';
import * as owned from './companies.ts';
import type { StageSpec } from './spec.ts';

export { ImportStage } from './stage.ts';
export type { StageBatch } from './load.ts';

/**
 * The spec of every kind. `satisfies` keeps the exact keys in the type, so a lookup by an
 * import kind compiles only when every kind has a spec: there is no missing entry to
 * guard against at run time.
 */
export const STAGE_SPECS = {
  industries: catalog.industries,
  categories: catalog.categories,
  vendors: catalog.vendors,
  products: catalog.products,
  companies: owned.companies,
  firmographics: owned.firmographics,
  installs: owned.installs,
  people: owned.people,
  contacts: owned.contacts,
  feed: owned.feed,
  cohorts: owned.cohorts,
} satisfies Record<string, StageSpec>;
