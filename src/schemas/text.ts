// The character and length rules of every text input, written once: each string a client
// sends (path, query, body, MCP argument) is built from these helpers, so it has a length
// cap and a character rule, both in the validator and in the OpenAPI document (maxLength,
// pattern). Control characters (U+0000 in particular, which PostgreSQL refuses in text) and
// unpaired UTF-16 surrogates (which cannot be encoded as UTF-8) are a 400 naming the field,
// never a database error.
import { z } from 'zod';

/** What the character rule forbids, as a 400 message states it. */
export const TEXT_RULE = 'must not contain control characters (U+0000-U+001F, U+007F-U+009F) or unpaired surrogates';
/** The same for text that may span lines (AI prompts): tab, line feed and carriage return are allowed. */
const MULTILINE_TEXT_RULE = 'must not contain control characters other than tab and line breaks, or unpaired surrogates';

// Written without the `u` flag so that the JSON Schema `pattern` (regex source, no flags)
// means the same in every validator: a surrogate is allowed only as the first half of a pair
// followed by its second half.
const SINGLE_LINE = /^(?:[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const MULTI_LINE = /^(?:[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/** True when the text holds no control character and no unpaired surrogate (the single-line rule). */
export function isSafeText(s: string): boolean {
  return SINGLE_LINE.test(s);
}

/** The rule as zod checks it (a refinement that keeps the string type), for schemas built elsewhere. */
function safeText<S extends z.ZodString>(schema: S, options: { multiline?: boolean } = {}): S {
  return schema.regex(options.multiline ? MULTI_LINE : SINGLE_LINE, options.multiline ? MULTILINE_TEXT_RULE : TEXT_RULE) as S;
}

/**
 * A text input of at most `max` characters, without control characters or unpaired
 * surrogates (with `multiline`, tab and line breaks are allowed).
 */
export function textInput(max: number, options: { multiline?: boolean } = {}) {
  return safeText(z.string().max(max, `must be at most ${max} characters`), options);
}

/** Longest identifier (of a product, category, industry, profile...), as imports accept it. */
export const MAX_ID_LENGTH = 128;
/** The shape of an identifier: a letter or digit, then letters, digits and `_ - . :`. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const ID_RULE = `must be an id: a letter or digit, then letters, digits, _ - . or : (${MAX_ID_LENGTH} characters at most)`;

/** An identifier, validated by shape (an id of 10 KB or with a space is a 400, not a lookup). */
export function idInput(example: string) {
  return z
    .string()
    .regex(ID_PATTERN, ID_RULE)
    .meta({ minLength: 1, maxLength: MAX_ID_LENGTH, examples: [example] });
}

/** An identifier or the empty string (an optional filter left blank). */
export function blankOrIdInput(example: string) {
  return z
    .string()
    .regex(new RegExp(`^(?:${ID_PATTERN.source.slice(1, -1)})?$`), `${ID_RULE}, or empty`)
    .meta({ maxLength: MAX_ID_LENGTH, examples: [example] });
}

/** A JSON Schema fragment of the single-line rule, for documented forms written by hand. */
export const TEXT_PATTERN_DOC = { pattern: SINGLE_LINE.source } as const;
