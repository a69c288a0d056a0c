// Parameter schemas shared by the resource schemas: domains (normalized by the one
// normalizer, so every door gets clean values), ISO countries, repeatable query params.
import { z } from 'zod';
import { normalizeDomain } from '../domain.ts';
import { normalizeCountry } from '../countries.ts';

/** A domain: normalized (case, scheme, www., path, trailing dot); invalid → 400 naming the field. */
export function domainSchema(description = 'A DNS domain; scheme, www. and case are ignored') {
  return z
    .string()
    .max(2048)
    .transform((v, ctx) => {
      const d = normalizeDomain(v);
      if (d === null) {
        ctx.addIssue({ code: 'custom', message: `'${v.slice(0, 80)}' is not a valid domain name` });
        return z.NEVER;
      }
      return d;
    })
    .meta({ type: 'string', description, examples: ['example.com'] });
}

/** An ISO 3166-1 alpha-2 code or an English country name → the ISO-2 code. */
export function countrySchema() {
  return z
    .string()
    .max(100)
    .transform((v, ctx) => {
      const code = normalizeCountry(v);
      if (code === null) {
        ctx.addIssue({ code: 'custom', message: `'${v.slice(0, 80)}' is not an ISO 3166-1 alpha-2 country code or a country name` });
        return z.NEVER;
      }
      return code;
    })
    .meta({ type: 'string', description: 'ISO 3166-1 alpha-2 code (e.g. DE) or English country name', examples: ['DE'] });
}

/** A query parameter that may repeat (`?x=a&x=b`); always an array after parsing. */
export function repeatableParam<T extends z.ZodType<unknown, string>>(item: T, description: string, maxItems = 100) {
  return z
    .union([item, z.array(item).max(maxItems)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as z.output<T>[])
    .meta({ type: 'array', items: { type: 'string' }, description });
}

/** Headers of routes that can export: documents X-On-Behalf-Of-User; other headers pass through untouched. */
export const onBehalfOfHeaders = z.looseObject({
  'x-on-behalf-of-user': z.string().optional().describe('Email of the user the export is done for; required when export=true (403 when missing, 400 when not an email)'),
});
