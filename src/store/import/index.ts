// The import SQL of every kind, by kind name, and the staging machinery that runs it.
import * as catalog from './catalog.ts';
import * as owned from './companies.ts';
import type { StageSpec } from './stage.ts';

export { ImportStage, type RowError, type StageBatch, type StageSpec } from './stage.ts';
export { arrayLiteral } from './load.ts';

export const STAGE_SPECS: Readonly<Record<string, StageSpec>> = {
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
};
