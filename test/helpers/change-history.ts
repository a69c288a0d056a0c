// What the change tests (events, monitors, adoption) build their histories from: the
// intelligence world with Google Analytics in the catalog, the detection of it a site record
// carries, and the coverage of a successful or failed visit.
import type { WorldSpec } from './fixtures.ts';
import { intelligenceWorld } from '../intelligence/world.ts';

/** The intelligence world plus Google Analytics (prd_ga, by Google, in Web Analytics under Analytics). */
export function worldWithGoogleAnalytics(): WorldSpec {
  const world = intelligenceWorld();
  world.categories!.push({ id: 'cat_web_analytics', name: 'Web Analytics', parent_id: 'cat_analytics' });
  world.vendors!.push({ id: 'ven_google', domain: 'google.com', name: 'Google' });
  world.products!.push({ id: 'prd_ga', vendor_id: 'ven_google', category_id: 'cat_web_analytics', name: 'Google Analytics' });
  return world;
}

/** A claim of Google Analytics (confidence 0.9) with one script trace, in the version given. */
export function googleAnalytics(version?: string) {
  return {
    name: 'Google Analytics',
    vendorDomain: 'google.com',
    category: 'Web Analytics',
    confidence: 0.9,
    ...(version ? { version } : {}),
    evidence: [
      {
        source: 'script' as const,
        url: 'https://x.example/',
        ruleId: `Google Analytics/scriptSrc/${version ?? 0}`,
        excerpt: '<script src="ga.js">',
        weight: 0.9,
      },
    ],
  };
}

/** A visit that fetched the site's pages whole (absence counts), and one that failed (it never does). */
export const OK_VISIT = { outcome: 'ok' as const, kinds: ['web' as const], reason: null };
export const FAILED_VISIT = { outcome: 'failed' as const, kinds: [] as never[], reason: 'timeout' };
