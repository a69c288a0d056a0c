// What one collection of a site says about absence: its outcome and the page kinds it covered
// in full (technographics/changes.ts judges absence on these only). A page that failed, was
// cut at the byte cap or is a bot challenge covers nothing; a failure reported by the collector
// (timeout, 5xx, blocked address) makes the visit failed, or partial when DNS or job posts were
// still had. Only an `ok` visit can show that a technology is gone.
import type { PageKind, VisitOutcome } from '../technographics/changes.ts';
import type { PageArtifact, SiteArtifacts } from './types.ts';

export interface VisitCoverage {
  outcome: VisitOutcome;
  kinds: PageKind[];
  /** Why the visit is not ok (the collector's reason, or what was wrong with the page). */
  reason: string | null;
}

/** Bytes of a page's start searched for a challenge title: a challenge page says so at once. */
const CHALLENGE_SCAN_BYTES = 4096;
/** Titles of bot challenges and block pages (Cloudflare, Akamai, Imperva, generic captchas). Linear: alternatives of literals. */
const CHALLENGE_TITLE =
  /<title[^>]{0,200}>[^<]{0,80}(just a moment|attention required|access denied|checking your browser|are you a robot|captcha|request blocked|pardon our interruption)/i;

/** Why a fetched page does not count as the whole page, or null when it does. */
export function pageProblem(page: PageArtifact): string | null {
  const status = page.status ?? 200;
  if (status === 0 || status >= 400) return `http_${status}`;
  const mitigated = page.headers?.['cf-mitigated'];
  if ((Array.isArray(mitigated) ? mitigated.join(',') : mitigated)?.toLowerCase().includes('challenge')) return 'challenge';
  if (page.html !== undefined && CHALLENGE_TITLE.test(page.html.slice(0, CHALLENGE_SCAN_BYTES))) return 'challenge';
  if (page.truncated) return 'truncated';
  return null;
}

/**
 * The coverage of one collection: `web` when its first page is whole (every page, when it
 * fetched several), `dns` when records came back, `jobs` when job posts were read.
 * `failure`: the collector's reason when it could not have the site (CollectError).
 */
export function visitCoverage(site: SiteArtifacts, failure?: string): VisitCoverage {
  const kinds: PageKind[] = [];
  // A rendered page (the optional browser pass) adds traces; what the visit covers is what was fetched.
  const pages = site.pages.filter((p) => !p.rendered);
  const problems = pages.map(pageProblem).filter((p): p is string => p !== null);
  if (pages.length && !problems.length) kinds.push('web');
  if (site.dns && Object.values(site.dns).some((records) => records && records.length)) kinds.push('dns');
  if (site.jobs?.length) kinds.push('jobs');
  const reason = failure ?? problems[0] ?? null;
  if (!kinds.length) return { outcome: 'failed', kinds, reason: reason ?? 'empty' };
  return { outcome: reason ? 'partial' : 'ok', kinds, reason };
}
