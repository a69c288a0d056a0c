// How an import kind is declared: its input fields (zod, strict: an unknown field is an
// error) and the mapping of a valid record to a staging row keyed by stage column.
import { z } from 'zod';

export type StageRow = Record<string, unknown>;

export interface KindDef {
  /** Input fields, in documentation order. */
  readonly fields: readonly string[];
  /** Fields every record must carry (CSV: columns the header must have). */
  readonly required: readonly string[];
  /** Validates one record and maps it to a staging row. */
  readonly schema: z.ZodType<StageRow>;
}

type Ctx = z.core.$RefinementCtx<unknown>;

/** Reports a cross-field problem from inside a mapping. */
export function issue(ctx: Ctx, field: string, message: string): void {
  ctx.issues.push({ code: 'custom', message, path: [field], input: undefined });
}

export function defineKind<S extends z.core.$ZodLooseShape>(
  shape: S,
  toRow: (record: z.output<z.ZodObject<S, z.core.$strict>>, ctx: Ctx) => StageRow,
): KindDef {
  const object = z.strictObject(shape);
  const fields = Object.keys(shape);
  // A field is required when its schema rejects "no value".
  const required = fields.filter((f) => !(shape[f] as z.ZodType).safeParse(undefined).success);
  return { fields, required, schema: object.transform((r, ctx) => toRow(r as never, ctx)) as z.ZodType<StageRow> };
}

/** A stable id from a domain for files that omit ids: dots become underscores (a domain
 *  label never holds `_`, so distinct domains get distinct ids). */
export function idFromDomain(prefix: string, domain: string): string {
  return `${prefix}${domain.replaceAll('.', '_')}`;
}
