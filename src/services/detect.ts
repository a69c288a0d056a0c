// POST /api/detect and the detect_technologies tool: one site's technologies, from a URL the
// service fetches (fetchSite: SSRF-safe, byte-capped, robots.txt obeyed) or from artifacts the
// caller uploads. Pure detection over the built-in catalog; nothing is stored.
import { BadRequestError, UnprocessableError } from '../errors.ts';
import { toSiteArtifacts } from '../detect/artifacts.ts';
import { loadCatalog, type CompiledCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import type { SiteArtifacts } from '../detect/types.ts';
import { CollectError, fetchSite, Politeness, siteTarget, type NetworkPolicy } from '../detect/collect/index.ts';
import type { DetectInput, DetectResult } from '../schemas/detect.ts';

export interface DetectDeps {
  /** Where fetches may go (default: public addresses on ports 80 and 443). */
  network?: NetworkPolicy;
  /** The time limit of the whole call, fetch included. */
  timeoutMs: number;
  contactUrl?: string;
  /** Replaces the live fetch (tests of the artifacts path need none). */
  fetch?: (url: string, signal: AbortSignal) => Promise<SiteArtifacts>;
}

/** Body bytes kept of a fetched page. */
const MAX_PAGE_BYTES = 1024 * 1024;

let builtIn: CompiledCatalog | undefined;
const catalog = () => (builtIn ??= loadCatalog());

export async function detectTechnologies(input: DetectInput, deps: DetectDeps): Promise<DetectResult> {
  if ((input.url === undefined) === (input.artifacts === undefined)) {
    throw new BadRequestError(input.url === undefined
      ? 'url: give url (a domain or an http(s) URL to fetch) or artifacts (one site)'
      : 'artifacts: give url or artifacts, not both');
  }
  const site = input.artifacts ? toSiteArtifacts(input.artifacts) : await fetchOne(input.url!, deps);
  const detections = detect(site, catalog(), { minConfidence: input.minConfidence ?? 0.5 });
  return {
    domain: site.domain,
    technologies: detections.map((d) => ({
      name: d.name, vendorDomain: d.vendorDomain, category: d.category, ...(d.version ? { version: d.version } : {}), confidence: d.confidence, evidence: d.evidence,
    })),
  };
}

async function fetchOne(url: string, deps: DetectDeps): Promise<SiteArtifacts> {
  if (!siteTarget(url)) throw new BadRequestError(`url: '${url.slice(0, 100)}' is neither a domain nor an http(s) URL`);
  const signal = AbortSignal.timeout(deps.timeoutMs);
  try {
    if (deps.fetch) return await deps.fetch(url, signal);
    return await fetchSite(url, {
      network: deps.network, contactUrl: deps.contactUrl, signal, maxBytes: MAX_PAGE_BYTES, retries: 1, retryDelayMs: 250, maxRetryAfterMs: 2000,
      timeoutMs: Math.min(10_000, deps.timeoutMs), politeness: new Politeness(0),
    });
  } catch (err) {
    if (signal.aborted) throw new UnprocessableError(`url: ${url.slice(0, 200)} could not be fetched within ${deps.timeoutMs} ms (timeout)`);
    if (err instanceof CollectError) {
      if (err.reason.startsWith('blocked_') || err.reason === 'invalid_target') throw new BadRequestError(`url: refused (${err.reason}): ${err.message}`);
      throw new UnprocessableError(`url: ${url.slice(0, 200)} could not be fetched (${err.reason}): ${err.message}`);
    }
    throw err;
  }
}
