// Feed cursors (paginationId): opaque, HMAC-signed and bound to one company.
//
// A cursor is base64url(payload ‖ tag): payload = JSON [version, companyId, publishedAt,
// itemId] naming the last item of the previous page, tag = the first 16 bytes of
// HMAC-SHA256(key, payload). The next page is the keyset (published_at, id) strictly below
// that item, so pages never repeat or skip items even when new items arrive meanwhile.
// The key is derived from CURSOR_SECRET or from a random secret stored once per database,
// so cursors survive restarts and work on every instance. Any edit (one flipped
// character), a cursor of another company or a malformed string is rejected as a 400.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from '../errors.ts';

const VERSION = 1;
const TAG_BYTES = 16;
const MAX_CURSOR_CHARS = 1000;

interface FeedPosition {
  /** published_at of the last item returned, exact to the microsecond (ISO 8601, UTC). */
  publishedAt: string;
  id: string;
}

/** The signing key for cursors, derived from the configured or stored secret. */
export function cursorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('stacklens feed cursor v1').digest();
}

function tag(key: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, TAG_BYTES);
}

export function signCursor(key: Buffer, companyId: string, pos: FeedPosition): string {
  const payload = Buffer.from(JSON.stringify([VERSION, companyId, pos.publishedAt, pos.id]), 'utf8');
  return Buffer.concat([payload, tag(key, payload)]).toString('base64url');
}

/** The position a cursor names, or a 400 when it was not issued by us for this company. */
export function verifyCursor(key: Buffer, companyId: string, cursor: string): FeedPosition {
  const invalid = () => new BadRequestError('paginationId: not a cursor issued by this service for this company; start again without paginationId');
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const bytes = Buffer.from(cursor, 'base64url');
  // Only the canonical spelling is accepted: base64 has spare bits in its last character,
  // and a cursor differing in them would otherwise decode to the same bytes.
  if (bytes.toString('base64url') !== cursor || bytes.length <= TAG_BYTES) throw invalid();
  const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
  const given = bytes.subarray(bytes.length - TAG_BYTES);
  if (!timingSafeEqual(given, tag(key, payload))) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== VERSION || typeof parsed[2] !== 'string' || typeof parsed[3] !== 'string') throw invalid();
  if (parsed[1] !== companyId) throw new BadRequestError('paginationId: this cursor belongs to another company; start again without paginationId');
  return { publishedAt: parsed[2], id: parsed[3] };
}
