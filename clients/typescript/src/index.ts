// @stacklens/client: a typed client for the Stacklens API. Types come from the served
// OpenAPI document (schema.ts, generated); requests go through openapi-fetch, whose fetch
// is wrapped here to add credentials, retries and typed errors. On top: page and feed
// iterators and streaming exports. Written against paths, not operation ids.
import createClient from 'openapi-fetch';
import type { Client, FetchOptions } from 'openapi-fetch';
import type { components, paths } from './schema.ts';
import { TokenSource } from './auth.ts';
import { StacklensError } from './errors.ts';
import { realSleep, sendWithRetries, type RetryOptions, type Sleep } from './retry.ts';

export { StacklensError } from './errors.ts';
export { csvRecords, csvRows, jsonLines, lines, textChunks } from './streams.ts';
export type { RetryOptions, Sleep } from './retry.ts';
export type { components, paths } from './schema.ts';

interface CommonOptions {
  /** The service origin, e.g. `https://stacklens.example.com` (paths start with /api). */
  baseUrl: string;
  /** Default X-On-Behalf-Of-User (the user exports, AI helpers and purchases are done for); a call's own header wins. */
  onBehalfOfUser?: string;
  /** Retries of 429/503 answers (bounded attempts and total wait). */
  retry?: RetryOptions;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Clock and sleep for token expiry and backoff; tests replace them to move time without waiting. */
  now?: () => number;
  sleep?: Sleep;
}

export type StacklensClientOptions = CommonOptions &
  (
    | { apiKey: string; clientId?: never; clientSecret?: never; audience?: never }
    | {
        apiKey?: never;
        /** OAuth 2.0 client credentials, exchanged at POST /oauth/token. */
        clientId: string;
        clientSecret: string;
        /** The API audience (the service's API_AUDIENCE); by default the origin of baseUrl. */
        audience?: string;
        /** Renew a token when less than this is left of its life, in ms (default 60 000). */
        refreshMarginMs?: number;
      }
  );

type Method = 'get' | 'post';
/** Paths that have an operation for `M`. */
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** The init argument: required when the operation has a required parameter or body. */
type Init<O> = RequiredKeys<FetchOptions<O>> extends never ? [init?: FetchOptions<O>] : [init: FetchOptions<O>];
/** The JSON body of the operation's success answer. */
type JsonOf<O> = O extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : unknown;
type QueryOf<P extends keyof paths, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type BodyOf<P extends keyof paths, M extends Method> = Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** A page of any list: `{ totalPages, totalElements, content }`, `page` 0-based. */
export interface Page<T> {
  totalPages: number;
  totalElements: number;
  content: T[];
}
type ItemOf<P> = P extends Page<infer T> ? T : never;

export type CompanySearch = Omit<NonNullable<BodyOf<'/api/companies/search', 'post'>>, 'page' | 'size'>;
export type ProfileSearch = BodyOf<'/api/profiles/search', 'post'>;
export type FeedItem = components['schemas']['FeedItem'];
/** Paging of an iterator: where to start and how many per request (1-200, default 100). */
export interface PagingOptions {
  startPage?: number;
  pageSize?: number;
}

/** Iterates the items of every page from `startPage` on, asking `fetchPage` for one page at a time. */
export async function* paginate<T>(fetchPage: (page: number, size: number) => Promise<Page<T>>, options: PagingOptions = {}): AsyncGenerator<T> {
  const size = options.pageSize ?? 100;
  for (let page = options.startPage ?? 0; ; page++) {
    const result = await fetchPage(page, size);
    yield* result.content;
    // Stop at the last page; an empty page also ends it (the data shrank meanwhile).
    if (page + 1 >= result.totalPages || result.content.length === 0) return;
  }
}

export function createStacklensClient(options: StacklensClientOptions) {
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const tokens =
    options.clientId !== undefined
      ? new TokenSource({ ...options, clientId: options.clientId, clientSecret: options.clientSecret, fetch: baseFetch, now, sleep })
      : undefined;

  /** Sends a request built by openapi-fetch: credentials, retries, one token renewal on 401, typed errors. */
  async function send(request: Request): Promise<Response> {
    if (options.onBehalfOfUser && !request.headers.has('x-on-behalf-of-user')) request.headers.set('x-on-behalf-of-user', options.onBehalfOfUser);
    let renewed = false;
    for (;;) {
      const token = tokens ? await tokens.token() : undefined;
      try {
        return await sendWithRetries(
          () => {
            const attempt = request.clone(); // a body can be read once; every attempt sends a copy
            if (token) attempt.headers.set('authorization', `Bearer ${token}`);
            else attempt.headers.set('x-api-key', options.apiKey!);
            return baseFetch(attempt);
          },
          { ...options.retry, sleep, now, retryNetworkErrors: request.method === 'GET' || request.method === 'HEAD' },
        );
      } catch (err) {
        // A token can be refused before its time (revoked, rotated keys, clock skew): renew once.
        if (!(err instanceof StacklensError && err.status === 401 && tokens && token && !renewed)) throw err;
        tokens.invalidate(token);
        renewed = true;
      }
    }
  }

  // Media 'application/json' types the JSON branch of answers; CSV and JSONL go through `exports`.
  const api: Client<paths, 'application/json'> = createClient<paths, 'application/json'>({ baseUrl: options.baseUrl, fetch: send });

  // The signatures of get/post/stream carry the types; openapi-fetch's own generic init
  // cannot be forwarded through them, hence the casts inside.
  /** GET returning the JSON body; any non-2xx throws StacklensError. */
  async function get<P extends PathsWith<'get'>>(path: P, ...init: Init<Op<P, 'get'>>): Promise<JsonOf<Op<P, 'get'>>> {
    const { data } = await (api.GET as any)(path, init[0]);
    return data;
  }
  /** POST returning the JSON body; any non-2xx throws StacklensError. */
  async function post<P extends PathsWith<'post'>>(path: P, ...init: Init<Op<P, 'post'>>): Promise<JsonOf<Op<P, 'post'>>> {
    const { data } = await (api.POST as any)(path, init[0]);
    return data;
  }
  /** An export's body as a stream (read it with csvRows, csvRecords, jsonLines or lines). */
  async function stream(method: 'GET' | 'POST', path: string, init: Record<string, unknown>, accept: string): Promise<ReadableStream<Uint8Array>> {
    const { response } = await (api[method] as any)(path, { ...init, parseAs: 'stream', headers: { accept } });
    return response.body as ReadableStream<Uint8Array>;
  }
  const headerFor = (onBehalfOfUser?: string) => (onBehalfOfUser ? { 'x-on-behalf-of-user': onBehalfOfUser } : {});

  return {
    /** The openapi-fetch client itself: every operation typed, with the response at hand (headers). */
    api,
    get,
    post,
    /** Async iterators over every item of a paged list, fetching pages as the loop needs them. */
    paginate: {
      searchCompanies: (body: CompanySearch = {}, paging?: PagingOptions) =>
        paginate((page, size) => post('/api/companies/search', { params: { query: { page, size } }, body }), paging),
      companyProducts: (
        companyDomain: string,
        query: Omit<QueryOf<'/api/companies/{companyDomain}/products/paged', 'get'>, 'page' | 'size'> = {},
        paging?: PagingOptions,
      ) =>
        paginate(
          (page, size) => get('/api/companies/{companyDomain}/products/paged', { params: { path: { companyDomain }, query: { ...query, page, size } } }),
          paging,
        ),
      searchVendors: (query: Omit<QueryOf<'/api/vendors', 'get'>, 'page' | 'size'>, paging?: PagingOptions) =>
        paginate((page, size) => get('/api/vendors', { params: { query: { ...query, page, size } } }), paging),
      vendorProducts: (
        vendorDomain: string,
        query: Omit<QueryOf<'/api/vendors/{vendorDomain}/products', 'get'>, 'page' | 'size'> = {},
        paging?: PagingOptions,
      ) =>
        paginate((page, size) => get('/api/vendors/{vendorDomain}/products', { params: { path: { vendorDomain }, query: { ...query, page, size } } }), paging),
      searchProfiles: (body: ProfileSearch, paging?: PagingOptions) =>
        paginate<ItemOf<JsonOf<Op<'/api/profiles/search', 'post'>>>>(
          (page, size) => post('/api/profiles/search', { params: { query: { page, size } }, body }),
          paging,
        ),
      /** Every feed item of a company, newest first, following `paginationId` until a page has none. */
      async *feed(companyDomain: string): AsyncGenerator<FeedItem> {
        let paginationId: string | undefined;
        do {
          const page = await get('/api/companies/{companyDomain}/feed', { params: { path: { companyDomain }, query: paginationId ? { paginationId } : {} } });
          yield* page.feeds;
          paginationId = page.paginationId;
        } while (paginationId);
      },
    },
    /**
     * Exports as streams, never held in memory. Each needs the export permission and an
     * X-On-Behalf-Of-User (the client's default or the argument), and is audited.
     */
    exports: {
      /** CSV of every company matching the search. */
      searchCompaniesCsv: (body: CompanySearch = {}, onBehalfOfUser?: string) =>
        stream('POST', '/api/companies/search', { params: { query: { export: true }, header: headerFor(onBehalfOfUser) }, body }, 'text/csv'),
      /** CSV of every product a company uses. */
      companyProductsCsv: (companyDomain: string, onBehalfOfUser?: string) =>
        stream(
          'GET',
          '/api/companies/{companyDomain}/products',
          { params: { path: { companyDomain }, query: { export: true }, header: headerFor(onBehalfOfUser) } },
          'text/csv',
        ),
      /** JSON Lines of every product a company uses, one full record per line. */
      companyProductsJsonl: (companyDomain: string, onBehalfOfUser?: string) =>
        stream(
          'GET',
          '/api/companies/{companyDomain}/products/json',
          { params: { path: { companyDomain }, query: { export: true }, header: headerFor(onBehalfOfUser) } },
          'application/jsonl',
        ),
      /** CSV of the category taxonomy. */
      categoriesCsv: (onBehalfOfUser?: string) =>
        stream('GET', '/api/categories', { params: { query: { export: true }, header: headerFor(onBehalfOfUser) } }, 'text/csv'),
      /** CSV of every profile matching the search. */
      searchProfilesCsv: (body: ProfileSearch, onBehalfOfUser?: string) =>
        stream('POST', '/api/profiles/search', { params: { query: { export: true }, header: headerFor(onBehalfOfUser) }, body }, 'text/csv'),
    },
  };
}

export type StacklensClient = ReturnType<typeof createStacklensClient>;
