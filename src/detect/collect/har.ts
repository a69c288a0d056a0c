// HAR reader: a browser's saved network log (HAR 1.2, "Save all as HAR") → one SiteArtifacts
// per site. The file is streamed entry by entry (stream-json), so its size does not matter;
// per page only its main document (HTML capped), the script URLs it loaded and the first-party
// Set-Cookie values are kept. Entries are grouped by `pageref`; the pages of one domain become
// one record. Script URLs count like `<script src>`: a tag manager's late loads are seen too.
import { createReadStream } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { normalizeDomain } from '../../domain.ts';
import { HTML_CAP } from '../page.ts';
import { captureTime, type PageArtifact, type SiteArtifacts } from '../types.ts';

interface HarHeader {
  name?: unknown;
  value?: unknown;
}
interface HarEntry {
  pageref?: unknown;
  startedDateTime?: unknown;
  _resourceType?: unknown;
  request?: { url?: unknown };
  response?: {
    status?: unknown;
    headers?: HarHeader[];
    cookies?: Array<{ name?: unknown; value?: unknown }>;
    content?: { mimeType?: unknown; text?: unknown; encoding?: unknown };
  };
}

const MAX_SCRIPTS = 500;
const MAX_COOKIES = 100;

interface PageGroup {
  firstUrl?: string;
  doc?: PageArtifact;
  /** The document's startedDateTime (ISO 8601). */
  capturedAt?: string;
  /** Set-Cookie values of first-party responses before the document (redirects) and after. */
  cookies: string[];
  scripts: Set<string>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const hostOf = (url: string | undefined): string | undefined => {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
};

function headersOf(list: HarHeader[] | undefined): { headers: Record<string, string | string[]>; setCookies: string[] } {
  const headers: Record<string, string | string[]> = {};
  const setCookies: string[] = [];
  for (const h of Array.isArray(list) ? list.slice(0, 200) : []) {
    const name = str(h?.name)?.toLowerCase();
    const value = str(h?.value);
    if (!name || value === undefined || name.startsWith(':')) continue; // HTTP/2 pseudo-headers
    if (name === 'set-cookie') {
      // Chrome joins several Set-Cookie values of one response with newlines.
      setCookies.push(...value.split('\n').filter(Boolean));
      continue;
    }
    const prev = headers[name];
    headers[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return { headers, setCookies };
}

function bodyText(content: NonNullable<HarEntry['response']>['content']): string | undefined {
  const text = str(content?.text);
  if (text === undefined) return undefined;
  const capped = text.length > HTML_CAP * 2 ? text.slice(0, HTML_CAP * 2) : text;
  const decoded = str(content?.encoding) === 'base64' ? Buffer.from(capped, 'base64').toString('utf8') : capped;
  return decoded.length > HTML_CAP ? decoded.slice(0, HTML_CAP) : decoded;
}

function isScript(entry: HarEntry, mime: string, url: string): boolean {
  const type = str(entry._resourceType);
  if (type) return type === 'script';
  return /javascript|ecmascript/i.test(mime) || /\.m?js(?:[?#]|$)/i.test(url);
}

function isDocument(entry: HarEntry, mime: string): boolean {
  const type = str(entry._resourceType);
  if (type) return type === 'document';
  return /text\/html|application\/xhtml/i.test(mime);
}

/** Adds one entry to its page's group. */
function addEntry(group: PageGroup, entry: HarEntry): void {
  const url = str(entry.request?.url);
  if (!url || !/^https?:/i.test(url)) return;
  group.firstUrl ??= url;
  const res = entry.response ?? {};
  const mime = str(res.content?.mimeType) ?? '';
  const status = typeof res.status === 'number' ? res.status : undefined;
  const { headers, setCookies } = headersOf(res.headers);
  if (!setCookies.length && Array.isArray(res.cookies)) {
    for (const c of res.cookies.slice(0, MAX_COOKIES)) if (str(c?.name)) setCookies.push(`${str(c.name)}=${str(c.value) ?? ''}`);
  }
  const siteHost = normalizeDomain(hostOf(group.doc?.url ?? group.firstUrl) ?? '');
  const host = hostOf(url) ?? '';
  const firstParty = siteHost !== null && (host === siteHost || host.endsWith(`.${siteHost}`));
  if (firstParty) for (const c of setCookies) if (group.cookies.length < MAX_COOKIES) group.cookies.push(c);
  if (!group.doc && isDocument(entry, mime) && status !== undefined && status >= 200 && status < 300) {
    group.doc = { url, status, headers, cookies: group.cookies };
    group.capturedAt = captureTime(entry.startedDateTime);
    const html = bodyText(res.content);
    if (html !== undefined) group.doc.html = html;
    return;
  }
  if (isScript(entry, mime, url) && group.scripts.size < MAX_SCRIPTS) group.scripts.add(url);
}

/**
 * Streams a HAR file (a path, or a readable stream of its bytes) and yields one SiteArtifacts
 * per site: the sites' main documents with their headers, cookies and HTML, and the script
 * URLs their pages loaded. Throws on a file that is not JSON.
 */
export async function* readHar(input: string | Readable): AsyncGenerator<SiteArtifacts> {
  const source = typeof input === 'string' ? createReadStream(input) : input;
  const entries = pipeline(source, parser.asStream(), pick.asStream({ filter: 'log.entries' }), streamArray.asStream(), () => {});
  const groups = new Map<string, PageGroup>();
  for await (const item of entries as AsyncIterable<{ value: HarEntry }>) {
    const entry = item.value;
    if (!entry || typeof entry !== 'object') continue;
    const key = str(entry.pageref) ?? '';
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { cookies: [], scripts: new Set() }));
    addEntry(group, entry);
  }
  const sites = new Map<string, SiteArtifacts>();
  for (const group of groups.values()) {
    const domain = normalizeDomain(hostOf(group.doc?.url ?? group.firstUrl) ?? '');
    if (!domain) continue;
    let site = sites.get(domain);
    if (!site) sites.set(domain, (site = { domain, pages: [], ...(group.capturedAt ? { capturedAt: group.capturedAt } : {}) }));
    const page: PageArtifact = group.doc ?? { url: group.firstUrl!, cookies: group.cookies };
    if (group.scripts.size) page.scripts = [...group.scripts];
    site.pages.push(page);
  }
  yield* sites.values();
}
