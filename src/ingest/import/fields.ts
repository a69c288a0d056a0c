// Field types of the import formats as zod schemas. One parser per type serves CSV (every
// value a string) and JSONL (typed JSON values); absent, empty and null all mean "no value"
// (the reader drops them before validation). Messages name the rule, the reader adds the field.
// Each schema also exposes its plain parser (rawField), so the import hot path can apply the
// very same rules without zod's per-record overhead (kinds/define.ts).
import { z } from 'zod';
import { normalizeDomain } from '../../domain.ts';
import { ID_PATTERN } from '../../schemas/text.ts';

/** A rejected value: the message says why (the field is the object key). */
export class Bad {
  constructor(readonly message: string) {}
}
const bad = (message: string) => new Bad(message);
type Parser<T> = (v: unknown) => T | Bad;

/** The parser behind a field schema: `parse` runs on a present value; an absent one is an
 *  error ('is required') when `required`, else the field is left out. */
export interface RawField {
  readonly parse: Parser<unknown>;
  readonly required: boolean;
}
const RAW = new WeakMap<z.ZodType, RawField>();

/** The plain parser of a schema made here, or undefined for any other zod schema. */
export function rawField(schema: z.ZodType): RawField | undefined {
  return RAW.get(schema);
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `'${s.length > 60 ? `${s.slice(0, 57)}...` : s}'`;
}

function field<T>(parse: Parser<T>) {
  const required = () =>
    z.unknown().transform((v, ctx): T => {
      if (v === undefined) {
        ctx.issues.push({ code: 'custom', message: 'is required', input: v });
        return z.NEVER;
      }
      const out = parse(v);
      if (out instanceof Bad) {
        ctx.issues.push({ code: 'custom', message: out.message, input: v });
        return z.NEVER;
      }
      return out;
    });
  // zod's optional() lets "no value" through without running the parser.
  const optional = () => required().optional();
  const register = <S extends z.ZodType>(schema: S, isRequired: boolean): S => (RAW.set(schema, { parse, required: isRequired }), schema);
  return { required: () => register(required(), true), optional: () => register(optional(), false) };
}

const scalarText = (v: unknown): string | Bad =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : bad('must be text');

export const text = (max = 2000) =>
  field((v) => {
    const s = scalarText(v);
    if (s instanceof Bad) return s;
    if (s === '') return bad('must not be empty');
    return s.length > max ? bad(`must be at most ${max} characters`) : s;
  });

/** Opaque identifier: letters, digits and `_ - . :`, up to 128 characters. */
export const id = () =>
  field((v) => {
    const s = scalarText(v);
    if (s instanceof Bad) return s;
    return ID_PATTERN.test(s) ? s : bad(`${show(s)} is not a valid id (letters, digits, _ - . : up to 128)`);
  });

/** Domains go through the one normalizer (src/domain.ts). A small cache spares repeated
 *  IDN/punycode work: install files name the same companies again and again. */
const domainCache = new Map<string, string | null>();
export const domain = () =>
  field((v) => {
    if (typeof v !== 'string') return bad('must be a domain name (text)');
    let d = domainCache.get(v);
    if (d === undefined) {
      d = normalizeDomain(v);
      if (domainCache.size >= 100_000) domainCache.clear();
      domainCache.set(v, d);
    }
    return d ?? bad(`${show(v)} is not a valid domain name`);
  });

export const int = (min: number, max: number) =>
  field((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : NaN;
    return Number.isInteger(n) && n >= min && n <= max ? n : bad(`${show(v)} must be an integer from ${min} to ${max}`);
  });

export const num = (min: number, max: number) =>
  field((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) && n >= min && n <= max ? n : bad(`${show(v)} must be a number from ${min} to ${max}`);
  });

const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);
export const bool = () =>
  field((v) => {
    if (typeof v === 'boolean') return v;
    const s = String(v).trim().toLowerCase();
    return TRUE.has(s) ? true : FALSE.has(s) ? false : bad(`${show(v)} must be true or false`);
  });

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;

function parseTimestamp(v: unknown): string | Bad {
  const s = typeof v === 'string' ? v.trim() : '';
  const m = ISO.exec(s);
  if (!m) return bad(`${show(v)} must be an ISO 8601 date or date-time`);
  const [y, mo, d, h = 0, mi = 0, sec = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  // Date.UTC rolls 2024-02-30 over to March: a real date reads back the same.
  if (day.getUTCMonth() !== mo! - 1 || day.getUTCDate() !== d || h > 23 || mi > 59 || sec > 59) return bad(`${show(v)} is not a real date`);
  if (y! < 1900 || y! > 2200) return bad(`${show(v)} is out of range (1900-2200)`);
  const ms = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  // No offset means UTC; an offset is subtracted to reach UTC.
  const offset = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  return new Date(day.getTime() + ((h * 60 + mi - offset) * 60 + sec) * 1000 + ms).toISOString();
}

/** ISO 8601 date (`2024-05-01`, midnight UTC) or date-time (UTC unless an offset is given);
 *  normalized to a canonical UTC ISO string so a re-import compares equal. Install files
 *  repeat the same dates, so results are cached. */
const timestampCache = new Map<string, string | Bad>();
export const timestamp = () =>
  field((v) => {
    if (typeof v !== 'string') return parseTimestamp(v);
    let out = timestampCache.get(v);
    if (out === undefined) {
      out = parseTimestamp(v);
      if (timestampCache.size >= 100_000) timestampCache.clear();
      timestampCache.set(v, out);
    }
    return out;
  });

export const url = () =>
  field((v) => {
    const s = typeof v === 'string' ? v.trim() : '';
    if (s.length <= 2048 && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(s) && URL.canParse(s)) return s;
    return bad(`${show(v)} must be an http(s) URL`);
  });

export const country = () =>
  field((v) => {
    const s = typeof v === 'string' ? v.trim().toUpperCase() : '';
    return /^[A-Z]{2}$/.test(s) ? s : bad(`${show(v)} must be an ISO 3166-1 alpha-2 country code such as US or DE`);
  });

/** One of `values`, case-insensitive on input, stored as spelled in `values`. */
export const oneOf = (values: readonly string[]) => {
  const byLower = new Map(values.map((x) => [x.toLowerCase(), x]));
  return field((v) => byLower.get(String(v).trim().toLowerCase()) ?? bad(`${show(v)} must be one of: ${values.join(', ')}`));
};

/** A label from a fixed list, matched exactly (band labels are an interface). */
export const label = (values: readonly string[]) =>
  field((v) => (typeof v === 'string' && values.includes(v.trim()) ? v.trim() : bad(`${show(v)} must be exactly one of: ${values.join(' | ')}`)));

/** A list of short texts: a JSON array, or in CSV one cell with `|` between items. */
export const list = (maxItems = 100, maxLength = 500) =>
  field((v) => {
    const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split('|') : null;
    if (!items) return bad('must be a list of texts (JSON array, or `a|b|c` in CSV)');
    const out: string[] = [];
    for (const item of items) {
      const s = scalarText(item);
      if (s instanceof Bad) return bad('must be a list of texts');
      if (s === '') continue;
      if (s.length > maxLength) return bad(`items must be at most ${maxLength} characters`);
      if (!out.includes(s)) out.push(s);
    }
    return out.length > maxItems ? bad(`must have at most ${maxItems} items`) : out;
  });

/** A JSON object: an object in JSONL, a JSON-encoded cell in CSV. */
export const jsonObject = () =>
  field((v) => {
    let o = v;
    if (typeof v === 'string') {
      try {
        o = JSON.parse(v);
      } catch {
        return bad('must be a JSON object (invalid JSON)');
      }
    }
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : bad('must be a JSON object');
  });

export const email = () =>
  field((v) => {
    const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
    return s.length <= 320 && /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/.test(s) ? s : bad(`${show(v)} is not an email address`);
  });

export const phone = () =>
  field((v) => {
    const s = scalarText(v);
    if (s instanceof Bad) return s;
    return /^\+?[0-9 ().-]{5,30}$/.test(s) && /\d{5,}/.test(s.replace(/\D/g, '')) ? s : bad(`${show(v)} is not a phone number`);
  });
