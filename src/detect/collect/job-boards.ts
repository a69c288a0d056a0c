// Job boards: a company's applicant-tracking board, found from the links, frames and scripts of
// its own pages (its careers page links to `jobs.lever.co/<account>`, embeds
// `boards.greenhouse.io/embed/job_board?for=<account>`, …), read through the board's public
// JSON endpoint (the one the vendor documents for careers pages to list their postings). The
// postings' text joins the site's job posts, which the catalog's `job` phrase rules read.
// Pure parts (discovery, endpoints, parsing) here; fetch-site.ts does the requests.

/** The applicant-tracking systems whose public boards are read. */
const BOARD_PROVIDERS = ['greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee', 'personio', 'workday'] as const;
type Provider = (typeof BOARD_PROVIDERS)[number];

export interface JobBoard {
  provider: Provider;
  /** The account on the provider (board token, site name, company identifier, sub-domain). */
  account: string;
  /** Lever: the EU instance; Personio: `de` or `com`; Workday: the data centre (`wd5`) and the careers site. */
  region?: string;
  site?: string;
}

/** How a board's address looks on a company's page (scheme-less, matched in the raw HTML; no nested repetition). */
const BOARD_ADDRESSES: ReadonlyArray<{ provider: Provider; re: RegExp; board: (m: RegExpMatchArray) => JobBoard | null }> = [
  {
    provider: 'greenhouse',
    re: /\/\/(?:job-)?boards\.greenhouse\.io\/(?:embed\/job_board(?:\/js)?\?for=)?([a-z0-9_-]+)/gi,
    board: (m) => (m[1]!.toLowerCase() === 'embed' ? null : { provider: 'greenhouse', account: m[1]! }),
  },
  {
    provider: 'lever',
    re: /\/\/jobs\.(eu\.)?lever\.co\/([a-z0-9._-]+)/gi,
    board: (m) => ({ provider: 'lever', account: m[2]!, ...(m[1] ? { region: 'eu' } : {}) }),
  },
  { provider: 'ashby', re: /\/\/jobs\.ashbyhq\.com\/([a-z0-9._-]+)/gi, board: (m) => ({ provider: 'ashby', account: m[1]! }) },
  { provider: 'workable', re: /\/\/apply\.workable\.com\/([a-z0-9-]+)/gi, board: (m) => (m[1] === 'api' ? null : { provider: 'workable', account: m[1]! }) },
  {
    provider: 'smartrecruiters',
    re: /\/\/(?:careers|jobs)\.smartrecruiters\.com\/([a-z0-9-]+)/gi,
    board: (m) => ({ provider: 'smartrecruiters', account: m[1]! }),
  },
  {
    provider: 'recruitee',
    re: /\/\/([a-z0-9-]+)\.recruitee\.com/gi,
    board: (m) => (m[1] === 'www' || m[1] === 'api' ? null : { provider: 'recruitee', account: m[1]! }),
  },
  {
    provider: 'personio',
    re: /\/\/([a-z0-9-]+)\.jobs\.personio\.(de|com)/gi,
    board: (m) => ({ provider: 'personio', account: m[1]!, region: m[2]!.toLowerCase() }),
  },
  {
    provider: 'workday',
    re: /\/\/([a-z0-9-]+)\.(wd\d{1,3})\.myworkdayjobs\.com\/(?:[a-z]{2}-[a-z]{2}\/)?([a-z0-9_-]+)/gi,
    board: (m) => ({ provider: 'workday', account: m[1]!, region: m[2]!.toLowerCase(), site: m[3]! }),
  },
];

/** The boards a page's HTML points to, in the order they appear, each once (at most `max`). */
export function discoverBoards(html: string, max = 2): JobBoard[] {
  const found = new Map<string, { at: number; board: JobBoard }>();
  for (const { re, board } of BOARD_ADDRESSES) {
    for (const m of html.matchAll(re)) {
      const b = board(m);
      if (!b) continue;
      const key = boardKey(b);
      if (!found.has(key)) found.set(key, { at: m.index ?? 0, board: b });
    }
  }
  return [...found.values()]
    .sort((a, b) => a.at - b.at)
    .slice(0, max)
    .map((f) => f.board);
}

const boardKey = (b: JobBoard) => `${b.provider}:${b.account.toLowerCase()}${b.site ? `/${b.site}` : ''}`;

/** A request of a board's public endpoint: a GET, or Workday's search POST. */
export interface BoardRequest {
  url: string;
  post?: unknown;
}

const enc = encodeURIComponent;

/** The endpoint that lists a board's postings (with their text where the provider serves it in the list). */
export function boardListRequest(b: JobBoard): BoardRequest {
  switch (b.provider) {
    case 'greenhouse':
      return { url: `https://boards-api.greenhouse.io/v1/boards/${enc(b.account)}/jobs?content=true` };
    case 'lever':
      return { url: `https://api.${b.region === 'eu' ? 'eu.' : ''}lever.co/v0/postings/${enc(b.account)}?mode=json` };
    case 'ashby':
      return { url: `https://api.ashbyhq.com/posting-api/job-board/${enc(b.account)}?includeCompensation=false` };
    case 'workable':
      return { url: `https://apply.workable.com/api/v1/widget/accounts/${enc(b.account)}?details=true` };
    case 'smartrecruiters':
      return { url: `https://api.smartrecruiters.com/v1/companies/${enc(b.account)}/postings?limit=100` };
    case 'recruitee':
      return { url: `https://${b.account}.recruitee.com/api/offers/` };
    case 'personio':
      return { url: `https://${b.account}.jobs.personio.${b.region ?? 'de'}/xml` };
    case 'workday':
      return {
        url: `https://${b.account}.${b.region}.myworkdayjobs.com/wday/cxs/${enc(b.account)}/${enc(b.site ?? '')}/jobs`,
        post: { appliedFacets: {}, limit: 20, offset: 0, searchText: '' },
      };
  }
}

/** What one listing answer holds: postings' texts, and the detail requests of postings listed without their text. */
interface BoardListing {
  texts: string[];
  details: BoardRequest[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const joined = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n');

/** Parses a listing answer of `b`'s provider; an answer of another shape gives nothing. */
export function parseBoardListing(b: JobBoard, body: string): BoardListing {
  if (b.provider === 'personio') return { texts: personioPositions(body), details: [] };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { texts: [], details: [] };
  }
  switch (b.provider) {
    case 'greenhouse':
      // `content` is HTML escaped once more (`&lt;p&gt;`).
      return { texts: arr(obj(data).jobs).map((j) => joined(str(obj(j).title), htmlText(decodeEntities(str(obj(j).content))))), details: [] };
    case 'lever':
      return {
        texts: arr(data).map((p) => {
          const posting = obj(p);
          const lists = arr(posting.lists).map((l) => joined(str(obj(l).text), htmlText(str(obj(l).content))));
          return joined(str(posting.text), str(posting.descriptionPlain) || htmlText(str(posting.description)), ...lists, str(posting.additionalPlain));
        }),
        details: [],
      };
    case 'ashby':
      return {
        texts: arr(obj(data).jobs).map((j) => joined(str(obj(j).title), str(obj(j).descriptionPlain) || htmlText(str(obj(j).descriptionHtml)))),
        details: [],
      };
    case 'workable':
      return {
        texts: arr(obj(data).jobs).map((j) => joined(str(obj(j).title), htmlText(str(obj(j).description)), htmlText(str(obj(j).requirements)))),
        details: [],
      };
    case 'recruitee':
      return {
        texts: arr(obj(data).offers).map((o) => joined(str(obj(o).title), htmlText(str(obj(o).description)), htmlText(str(obj(o).requirements)))),
        details: [],
      };
    case 'smartrecruiters':
      return {
        texts: [],
        details: arr(obj(data).content)
          .map((p) => str(obj(p).id))
          .filter((id) => /^[\w-]+$/.test(id))
          .map((id) => ({ url: `https://api.smartrecruiters.com/v1/companies/${enc(b.account)}/postings/${id}` })),
      };
    case 'workday':
      return {
        texts: [],
        details: arr(obj(data).jobPostings)
          .map((p) => str(obj(p).externalPath))
          .filter((p) => /^\/[\w./-]+$/.test(p))
          .map((p) => ({ url: `https://${b.account}.${b.region}.myworkdayjobs.com/wday/cxs/${enc(b.account)}/${enc(b.site ?? '')}${p}` })),
      };
  }
}

/** Parses a detail answer (SmartRecruiters, Workday): the posting's text, or '' for another shape. */
export function parseBoardDetail(b: JobBoard, body: string): string {
  let data: Json;
  try {
    data = obj(JSON.parse(body));
  } catch {
    return '';
  }
  if (b.provider === 'smartrecruiters') {
    const sections = obj(obj(data.jobAd).sections);
    return joined(str(data.name), ...['jobDescription', 'qualifications', 'additionalInformation'].map((k) => htmlText(str(obj(sections[k]).text))));
  }
  if (b.provider === 'workday') {
    const info = obj(data.jobPostingInfo);
    return joined(str(info.title), htmlText(str(info.jobDescription)));
  }
  return '';
}

/** Personio's XML feed: each `<position>`'s name and the values of its job descriptions (CDATA HTML). */
function personioPositions(xml: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const start = xml.indexOf('<position>', at);
    if (start < 0) break;
    const end = xml.indexOf('</position>', start);
    const block = xml.slice(start, end < 0 ? xml.length : end);
    at = end < 0 ? xml.length : end + 11;
    const parts: string[] = [];
    for (const tag of ['name', 'value']) {
      let k = 0;
      for (;;) {
        const open = block.indexOf(`<${tag}>`, k);
        if (open < 0) break;
        const close = block.indexOf(`</${tag}>`, open);
        if (close < 0) break;
        parts.push(
          htmlText(
            decodeEntities(
              block
                .slice(open + tag.length + 2, close)
                .replace('<![CDATA[', '')
                .replace(']]>', ''),
            ),
          ),
        );
        k = close;
      }
    }
    out.push(joined(...parts));
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,6}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (ENTITIES[lower] !== undefined) return ENTITIES[lower]!;
    const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : lower.startsWith('#') ? Number(lower.slice(1)) : NaN;
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The text of an HTML fragment: tags become spaces, entities are decoded. One forward pass (no pattern that could rescan). */
export function htmlText(html: string): string {
  if (!html.includes('<')) return decodeEntities(html).trim();
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += `${html.slice(i, lt)} `;
    const gt = html.indexOf('>', lt + 1);
    if (gt < 0) break;
    i = gt + 1;
  }
  return decodeEntities(out)
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}
