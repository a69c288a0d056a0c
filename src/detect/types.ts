// The detector's plain data: artifacts in (what a crawler, a HAR/WARC reader, a DNS lookup
// or a job-post import collected about one site), detections with their evidence out.
// Every collector produces SiteArtifacts; every surface prints Detection[]. The evidence
// vocabulary is technographics/evidence.ts.
import type { EvidenceItem } from '../technographics/evidence.ts';

/** What one fetched page carried. Header names are lower-case; cookies are raw Set-Cookie values. */
export interface PageArtifact {
  url: string;
  status?: number;
  headers?: Record<string, string | string[]>;
  cookies?: string[];
  html?: string;
  /** URLs of scripts the page loaded (a HAR's subresources, a browser's network log): matched like `<script src>`. */
  scripts?: string[];
  /** The body reached the collector's byte cap and was cut there: not the whole page. */
  truncated?: boolean;
  /**
   * The page as a headless browser had it (the rendered pass, collect/render.ts): its DOM after
   * the scripts ran, the scripts it loaded, the cookies they set. Evidence found on it says so;
   * it adds traces but never changes what a visit covers (visit.ts reads the fetched pages).
   */
  rendered?: boolean;
}

/** How the rendered pass went for a site (collect/render.ts); the detector does not read it. */
export interface RenderReport {
  url: string;
  /** `ok`: the page settled; `cut`: stopped at a bound (`reason`: deadline, requests, bytes, unresponsive), what it had is kept; `failed`: nothing rendered. */
  outcome: 'ok' | 'cut' | 'failed';
  reason?: string;
  /** Scripts loaded, requests fetched and requests refused by the network policy. */
  scripts: number;
  requests: number;
  blocked: number;
  /** Wall time of the page, from its slot in the pool to its results. */
  ms: number;
}

/** DNS records of the site's domain (and of its www host, DKIM selectors, ... as the collector chose). */
export interface DnsRecords {
  MX?: string[];
  TXT?: string[];
  CNAME?: string[];
  A?: string[];
  AAAA?: string[];
  NS?: string[];
}

/** One site: its pages, its DNS records and the text of its job posts. */
export interface SiteArtifacts {
  domain: string;
  pages: PageArtifact[];
  dns?: DnsRecords;
  /** Job-post texts (title and body), matched with the `job` phrase rules. */
  jobs?: string[];
  /**
   * When the artifacts were captured (ISO 8601), when the input says so: a WARC record's
   * WARC-Date, a HAR document's startedDateTime. Saved observations are dated by it, so an
   * archive from 2023 is evidence from 2023, not from the day it was read.
   */
  capturedAt?: string;
  /** The rendered pass's outcome, when the crawl rendered the site (`--render`). */
  render?: RenderReport;
}

/** An ISO 8601 instant from an input's date text, or undefined when it is not a date. */
export function captureTime(text: unknown): string | undefined {
  if (typeof text !== 'string' || !text.trim()) return undefined;
  const ms = Date.parse(text.trim());
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

export interface Detection {
  name: string;
  vendor: string;
  vendorDomain: string;
  category: string;
  version?: string;
  /** The noisy-OR of each trace's strongest weight (technographics/evidence.ts traceStrength), in [0, 1]. */
  confidence: number;
  evidence: EvidenceItem[];
  /** Technologies whose detection implied this one (absent when it was seen itself). */
  impliedBy?: string[];
}
