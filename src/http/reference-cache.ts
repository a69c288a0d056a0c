// Reference answers (operations with http.referenceData: categories, industries, vendor
// search and a vendor's products; route-config's serve() sends them here) kept in
// memory as the bytes the route would write, with a strong ETag. They depend only on the
// request and on the reference data, whose version (migration 015, bumped by every writer of
// the catalog in its own transaction: store/change-notes.ts) is probed once per request: a
// change made by any process drops every kept answer on the next request. A client that sends the ETag back in
// If-None-Match gets 304 and no body.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/db.ts';
import { referenceDataVersion } from '../services/reference-data.ts';
import { replyWriter } from './reply-serializer.ts';

interface Kept {
  version: number;
  body: string;
  etag: string;
}

/** Most answers kept per process (least recently used dropped first); each is a few KB to ~40 KB. */
const REFERENCE_CACHE_ENTRIES = 500;

/** Tells the client to revalidate (the answer is per credential, so shared caches keep none). */
const CACHE_CONTROL = 'private, no-cache';

export class ReferenceCache {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly db: Db,
    private readonly options: { checkReplies: boolean; maxEntries?: number },
  ) {}

  /**
   * Answers from memory while the reference version is unchanged, else from `load`, whose
   * value is written by the operation's reply writer (the bytes the route would send).
   */
  async reply<T>(request: FastifyRequest, reply: FastifyReply, load: () => Promise<T>): Promise<FastifyReply> {
    const version = await referenceDataVersion(this.db);
    // The route (not the URL as sent) and the validated input: ?a=1&b=2 and ?b=2&a=1 share an entry.
    const key = `${request.routeOptions.url}\n${JSON.stringify(request.params)}\n${JSON.stringify(request.query)}`;
    const hit = this.kept.get(key);
    let entry: Kept;
    if (hit && hit.version === version) {
      entry = hit;
      this.kept.delete(key); // re-inserted below: Map order is the recency order
    } else {
      const output = request.routeOptions.config.operation!.output;
      const body = replyWriter(output, { checkReplies: this.options.checkReplies, what: `${request.method} ${request.routeOptions.url}` })(await load());
      entry = { version, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    }
    this.kept.set(key, entry);
    if (this.kept.size > (this.options.maxEntries ?? REFERENCE_CACHE_ENTRIES)) this.kept.delete(this.kept.keys().next().value!);
    reply.header('etag', entry.etag).header('cache-control', CACHE_CONTROL);
    if (matches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(entry.body);
  }
}

/** If-None-Match holds the ETag (weak comparison, as RFC 9110 asks for GET), or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
