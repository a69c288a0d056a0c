// Cursors: opaque, HMAC-signed positions in a list the service pages through.
//
// A cursor is base64url(payload ‖ tag): payload = a JSON array naming the position, tag = the
// first 16 bytes of HMAC-SHA256(key, payload).
// - Feed cursors (paginationId) are bound to one company: [version, companyId, publishedAt,
//   itemId] names the last item of the previous page; the next page is the keyset
//   (published_at, id) strictly below it, so pages never repeat or skip items even when new
//   items arrive meanwhile.
// - Event cursors are bound to one client: ['events', clientId, seq], the last event seen;
//   events are numbered in commit order (store/events.ts), so the events after a cursor are
//   exactly the ones not yet seen.
// The key is derived from CURSOR_SECRET or from a random secret stored once per database,
// so cursors survive restarts and work on every instance. Any edit (one flipped
// character), a cursor of another company or a malformed string is rejected as a 400.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { BadRequestError } from '../errors.ts';
import { getOrCreateSecret } from '../store/service-secrets.ts';

const VERSION = 1;
const TAG_BYTES = 16;
const MAX_CURSOR_CHARS = 1000;

interface FeedPosition {
  /** published_at of the last item returned, exact to the microsecond (ISO 8601, UTC). */
  publishedAt: string;
  id: string;
}

/** The signing key for cursors (feed and events), derived from the configured or stored secret. */
export function cursorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('stacklens feed cursor v1').digest();
}

// The stored secret keeps its first name: renaming it would invalidate the cursors clients hold.
const SECRET_NAME = 'feed_cursor';
const keys = new WeakMap<Db, Promise<Buffer>>();

/** The cursor key: from CURSOR_SECRET when set, else the per-database stored secret (cached). */
export function serviceCursorKey(db: Db, configuredSecret: string | undefined): Promise<Buffer> {
  if (configuredSecret) return Promise.resolve(cursorKey(configuredSecret));
  let key = keys.get(db);
  if (!key) {
    key = getOrCreateSecret(db, SECRET_NAME, randomBytes(32).toString('base64url')).then(cursorKey);
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

function tag(key: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, TAG_BYTES);
}

function seal(key: Buffer, values: readonly unknown[]): string {
  const payload = Buffer.from(JSON.stringify(values), 'utf8');
  return Buffer.concat([payload, tag(key, payload)]).toString('base64url');
}

/** The values a cursor we issued holds, or undefined for anything else (edited, malformed, foreign). */
function unseal(key: Buffer, cursor: string): unknown[] | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  // Only the canonical spelling is accepted: base64 has spare bits in its last character,
  // and a cursor differing in them would otherwise decode to the same bytes.
  if (bytes.toString('base64url') !== cursor || bytes.length <= TAG_BYTES) return undefined;
  const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
  const given = bytes.subarray(bytes.length - TAG_BYTES);
  if (!timingSafeEqual(given, tag(key, payload))) return undefined;
  try {
    const parsed: unknown = JSON.parse(payload.toString('utf8'));
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function signCursor(key: Buffer, companyId: string, pos: FeedPosition): string {
  return seal(key, [VERSION, companyId, pos.publishedAt, pos.id]);
}

/** The position a cursor names, or a 400 when it was not issued by us for this company. */
export function verifyCursor(key: Buffer, companyId: string, cursor: string): FeedPosition {
  const invalid = () => new BadRequestError('paginationId: not a cursor issued by this service for this company; start again without paginationId');
  const parsed = unseal(key, cursor);
  if (!parsed || parsed.length !== 4 || parsed[0] !== VERSION || typeof parsed[2] !== 'string' || typeof parsed[3] !== 'string') throw invalid();
  if (parsed[1] !== companyId) throw new BadRequestError('paginationId: this cursor belongs to another company; start again without paginationId');
  return { publishedAt: parsed[2], id: parsed[3] };
}

const EVENTS = 'events';

/** The cursor after event `seq` for this client. */
export function signEventCursor(key: Buffer, clientId: string, seq: number): string {
  return seal(key, [EVENTS, clientId, seq]);
}

/** The seq a client's event cursor names, or a 400 naming `field` when it is not one we issued to this client. */
export function verifyEventCursor(key: Buffer, clientId: string, cursor: string, field = 'cursor'): number {
  const parsed = unseal(key, cursor);
  if (!parsed || parsed.length !== 3 || parsed[0] !== EVENTS || !Number.isSafeInteger(parsed[2]) || (parsed[2] as number) < 0)
    throw new BadRequestError(`${field}: not an event cursor issued by this service; start again without it`);
  if (parsed[1] !== clientId) throw new BadRequestError(`${field}: this cursor was issued to another client; start again without it`);
  return parsed[2] as number;
}
