// POST /api/detect and the detect_technologies tool: one site's technologies, from a URL the
// service fetches (fetchSite: SSRF-safe, byte-capped, robots.txt obeyed) or from artifacts the
// caller uploads. Pure detection over the built-in catalog, on a worker thread when the caller
// has a pool; one deadline covers the fetch and the matching. Nothing is stored.
import { BadRequestError, ServiceUnavailableError, UnprocessableError } from '../errors.ts';
import { toSiteArtifacts } from '../detect/artifacts.ts';
import type { Detection, SiteArtifacts } from '../detect/types.ts';
import { CollectError, fetchSite, Politeness, siteTarget, type NetworkPolicy } from '../detect/collect/index.ts';
import type { DetectInput, DetectResult } from '../schemas/detect.ts';
import { builtInCatalog } from '../detect/catalog.ts';
import { detect, siteRecord } from '../detect/detect.ts';
import { isAbortError, type DetectorPool } from './detect-pool.ts';
import type { Config } from '../config.ts';
import { CLAIM_CONFIDENCE } from '../technographics/evidence.ts';

export interface DetectDeps {
  /** Where fetches may go (default: public addresses on ports 80 and 443). */
  network?: NetworkPolicy;
  /** The time limit of the whole call, fetch and matching: past it the detection's worker is terminated. */
  timeoutMs: number;
  /** Where matching runs (the app's pool); absent: on this thread (the CLI, tests of other paths). */
  detector?: DetectorPool;
  contactUrl?: string;
  /** Replaces the live fetch (tests of the artifacts path need none). */
  fetch?: (url: string, signal: AbortSignal) => Promise<SiteArtifacts>;
}

/** The dependencies of a detection made for a request, from the service's configuration (both doors). */
export function detectDepsOf(detect: Config['detect'], detector: DetectorPool | undefined): DetectDeps {
  return {
    timeoutMs: detect.timeoutMs,
    contactUrl: detect.contactUrl,
    ...(detector ? { detector } : {}),
    // A private network allowed (a deployment inside its own network) allows its ports too.
    network: detect.allowPrivateNetworks ? { allowPrivateNetworks: true, ports: 'any' } : {},
  };
}

/** Body bytes kept of a fetched page. */
const MAX_PAGE_BYTES = 1024 * 1024;

export async function detectTechnologies(input: DetectInput, deps: DetectDeps): Promise<DetectResult> {
  if ((input.url === undefined) === (input.artifacts === undefined)) {
    throw new BadRequestError(
      input.url === undefined ? 'url: give url (a domain or an http(s) URL to fetch) or artifacts (one site)' : 'artifacts: give url or artifacts, not both',
    );
  }
  const deadline = AbortSignal.timeout(deps.timeoutMs);
  const site = input.artifacts ? toSiteArtifacts(input.artifacts) : await fetchOne(input.url!, deps, deadline);
  const detections = await match(
    site,
    input.minConfidence ?? CLAIM_CONFIDENCE,
    deps,
    deadline,
    input.artifacts ? 'artifacts' : `url: ${input.url!.slice(0, 200)}`,
  );
  return siteRecord(site.domain, detections);
}

async function match(site: SiteArtifacts, minConfidence: number, deps: DetectDeps, deadline: AbortSignal, what: string): Promise<Detection[]> {
  if (!deps.detector) return detect(site, builtInCatalog(), { minConfidence });
  try {
    return await deps.detector.run({ site, minConfidence }, deadline);
  } catch (err) {
    if (isAbortError(err)) throw new UnprocessableError(`${what}: the detection did not finish within ${deps.timeoutMs} ms (timeout)`);
    // tinypool's queue is full: every worker busy and as many calls waiting.
    if (err instanceof Error && /queue/i.test(err.message)) throw new ServiceUnavailableError('Every detection worker is busy; retry in a few seconds', 5);
    throw err;
  }
}

async function fetchOne(url: string, deps: DetectDeps, signal: AbortSignal): Promise<SiteArtifacts> {
  if (!siteTarget(url)) throw new BadRequestError(`url: '${url.slice(0, 100)}' is neither a domain nor an http(s) URL`);
  try {
    if (deps.fetch) return await deps.fetch(url, signal);
    return await fetchSite(url, {
      network: deps.network,
      contactUrl: deps.contactUrl,
      signal,
      maxBytes: MAX_PAGE_BYTES,
      retries: 1,
      retryDelayMs: 250,
      maxRetryAfterMs: 2000,
      timeoutMs: Math.min(10_000, deps.timeoutMs),
      politeness: new Politeness(0),
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
