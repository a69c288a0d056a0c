// Every import kind's input format, by kind name.
import type { ImportKind } from '../types.ts';
import type { KindDef } from './define.ts';
import * as catalog from './catalog.ts';
import * as owned from './companies.ts';

export const KINDS: Readonly<Record<ImportKind, KindDef>> = {
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
