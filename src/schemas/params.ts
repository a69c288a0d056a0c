// Parameter schemas shared by the resource schemas: domains (normalized by the one
// normalizer, so every door gets clean values), ISO countries, repeatable query params.
import { z } from 'zod';
import { textInput, TEXT_PATTERN_DOC } from './text.ts';
import { normalizeDomain } from '../domain.ts';
import { normalizeCountry } from '../countries.ts';
import { requestExamples } from './common.ts';

/**
 * Longest path parameter the router accepts (its maxParamLength, counted as sent, so
 * percent-encoding included); a longer one is refused with 414 URI Too Long.
 */
export const MAX_PATH_PARAM = 500;

/**
 * Longest domain input accepted, in characters. A domain is at most 253 characters, but the
 * input may carry a scheme, `www.`, a port and a path, which are stripped. It equals the
 * router's limit on a path parameter, so a domain is refused at the same length whether it
 * travels in the path, the query string, a body or an MCP argument.
 */
export const MAX_DOMAIN_INPUT = MAX_PATH_PARAM;

export const DOMAIN_RULE =
  'A DNS name (at least two labels, 253 characters at most once normalized). Case, a scheme, credentials, "www.", a port, a path and a trailing dot are accepted and stripped; an internationalized name is converted to punycode';

function normalizedDomain(v: string, ctx: z.RefinementCtx): string {
  const d = normalizeDomain(v);
  if (d === null) {
    ctx.addIssue({ code: 'custom', message: `'${v.length > 80 ? `${v.slice(0, 77)}...` : v}' is not a valid domain name` });
    return z.NEVER;
  }
  return d;
}

// The dots domainToASCII reads as a label separator (full stop, ideographic, full-width,
// half-width), as characters: the pattern is repeated in every MCP tool that takes a domain.
const DOT = '.\u3002\uFF0E\uFF61';
/**
 * What every domain the normalizer accepts looks like, as a pattern the document can carry:
 * an optional scheme and credentials, then a host (up to `/ ? #`, no spaces) holding two
 * labels around a dot. Looser than the normalizer (which also checks labels, the top-level
 * label and the length), never stricter: no valid domain is documented as invalid, and a
 * name with one label, an empty label or a space in it is invalid in the document too.
 */
const DOMAIN_SHAPE = `\\s*([A-Za-z][\\w+.-]*://)?([^/@]*@)?[^\\s/?#@]*[^\\s/?#@${DOT}][${DOT}][^\\s/?#@:${DOT}][^\\s/?#@]*([/?#]|\\s*$)`;
/** The document's pattern of a domain input: its shape and the single-line text rule together. */
const DOMAIN_PATTERN = `^(?=${DOMAIN_SHAPE})${TEXT_PATTERN_DOC.pattern.slice(1)}`;
/** The same where blank means "not given". */
const OPTIONAL_DOMAIN_PATTERN = `^(?=\\s*$|${DOMAIN_SHAPE})${TEXT_PATTERN_DOC.pattern.slice(1)}`;

/** The documented form of a domain input: a string of at most 500 characters, described by its rule. */
const domainDoc = (description: string, pattern = DOMAIN_PATTERN) =>
  ({ type: 'string', maxLength: MAX_DOMAIN_INPUT, pattern, description: `${description}. ${DOMAIN_RULE}` }) as const;

// Examples go on the input side: the document describes what a client sends, and a
// transform's own examples describe its output.
const domainText = () => textInput(MAX_DOMAIN_INPUT).meta({ examples: ['example.com'] });

/** The documented form of one domain in a list that a transform spells out by hand. */
export const domainItemDoc = { type: 'string', minLength: 1, maxLength: MAX_DOMAIN_INPUT, pattern: DOMAIN_PATTERN, examples: ['example.com'] } as const;

/**
 * A domain: normalized once, here (case, scheme, www., path, port, trailing dot, IDN), so
 * services receive the stored form; an invalid one is a 400 naming the field, with the same
 * wording on every operation and both doors.
 */
export function domainSchema(description = 'A company or vendor domain') {
  return domainText()
    .transform(normalizedDomain)
    .meta({ ...domainDoc(description), minLength: 1 });
}

/** An optional domain: absent or blank means "not given"; otherwise as domainSchema. */
export function optionalDomainSchema(description: string) {
  return domainText()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === '' ? undefined : normalizedDomain(v, ctx)))
    .meta({ ...domainDoc(`${description}; blank means not given`, OPTIONAL_DOMAIN_PATTERN) });
}

/** An ISO 3166-1 alpha-2 code or an English country name → the ISO-2 code. */
export function countrySchema() {
  return textInput(100)
    .meta({ examples: ['DE'] })
    .transform((v, ctx) => {
      const code = normalizeCountry(v);
      if (code === null) {
        ctx.addIssue({ code: 'custom', message: `'${v.slice(0, 80)}' is not an ISO 3166-1 alpha-2 country code or a country name` });
        return z.NEVER;
      }
      return code;
    })
    .meta({ type: 'string', maxLength: 100, ...TEXT_PATTERN_DOC, description: 'ISO 3166-1 alpha-2 code (e.g. DE) or English country name' });
}

/** The documented (input) form of a schema, for metadata that has to spell it out. */
function inputDoc(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...doc } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return doc;
}

/**
 * A query parameter that may repeat (`?x=a&x=b`); always an array after parsing. It is
 * documented as an array of the item's own schema (so its length limits show).
 */
export function repeatableParam<T extends z.ZodType<unknown, string>>(item: T, description: string, maxItems = 100) {
  return z
    .union([item, z.array(item).max(maxItems)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as z.output<T>[])
    .meta({ type: 'array', items: inputDoc(item), maxItems, description });
}

/**
 * The X-On-Behalf-Of-User header: the email address of the user an action is attributed
 * to (at most 254 characters). The auth layer checks it before validation: absent where
 * required is a 403, not an email address a 400.
 */
/**
 * The X-On-Behalf-Of-User value as documented: an email of at most 254 characters. Checked by
 * the permission hook (403 missing, 400 malformed), so the schema only documents it.
 */
export const onBehalfOfUserSchema = z.string().meta({ format: 'email', maxLength: 254, examples: ['analyst@example.com'] });

export function onBehalfOfUserHeader(description: string) {
  return onBehalfOfUserSchema.optional().describe(description);
}

/** Headers of routes that can export: documents X-On-Behalf-Of-User; other headers pass through untouched. */
export const onBehalfOfHeaders = z.looseObject({
  'x-on-behalf-of-user': onBehalfOfUserHeader('Email of the user the export is done for; required when export=true (403 when missing, 400 when not an email)'),
});

/** A calendar day the database can store: years 0001-9999 (PostgreSQL has no year 0). */
const DAY_PATTERN = '^(?:000[1-9]|00[1-9]\\d|0[1-9]\\d{2}|[1-9]\\d{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])$';

export const dayParam = (what: string) =>
  z
    .string()
    .regex(new RegExp(DAY_PATTERN), 'must be a date YYYY-MM-DD from 0001-01-01')
    // Runs after a failed regex too: an unparseable text must not reach toISOString().
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'must be a real calendar date')
    .optional()
    .describe(what)
    .meta({ format: 'date', maxLength: 10, examples: ['2026-11-01'] });

// The instants the database can compare with: timestamptz runs from 4713 BC to 294276 AD,
// but its text input takes offsets up to ±15:59 only, so an instant is handed on as UTC.
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An RFC 3339 timestamp with any offset it allows (±23:59), parsed once here and passed on in
 * UTC: a `-23:35` offset is the instant it names, never a database error. An instant before
 * year 1 or after 9999 filters like the bound itself (no entry is that old or that new).
 */
const INSTANT = z.iso.datetime({ offset: true });
/** The instant's exact rule, for the document: `format: date-time` alone would also let `t`, `z` and leap seconds through. */
const INSTANT_PATTERN = (z.toJSONSchema(INSTANT) as { pattern: string }).pattern;

export const instantParam = (what: string) =>
  z
    .string()
    .max(40, 'must be at most 40 characters')
    .refine((s) => INSTANT.safeParse(s).success, 'must be an ISO 8601 timestamp, e.g. 2026-11-01T00:00:00Z')
    .transform((s) => new Date(Math.min(Math.max(Date.parse(s), FIRST_INSTANT), LAST_INSTANT)).toISOString())
    .optional()
    .describe(what)
    // A transform's own examples describe its output: the input's go under x-request-examples.
    .meta({ format: 'date-time', pattern: INSTANT_PATTERN, maxLength: 40, ...requestExamples('2026-11-01T00:00:00Z') });
