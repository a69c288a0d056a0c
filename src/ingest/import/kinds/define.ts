// How an import kind is declared: its input fields (zod, strict: an unknown field is an
// error) and the mapping of a valid record to a staging row keyed by stage column.
// Each kind gets two equal validators: `schema` (zod, the definition) and `validate`, the
// same field parsers and mapping run in a plain loop for the import hot path (zod's
// per-record machinery cost about 3 µs a row, as much as parsing the CSV). The loop mirrors
// zod's object rules: fields in declaration order, absent optional fields left out, unknown
// fields reported after the field errors, and the mapping run only when every field passed.
// test/ingest/import-validate.test.ts proves both give the same rows and the same errors.
import { z } from 'zod';
import { Bad, rawField, type RawField } from '../fields.ts';

export type StageRow = Record<string, unknown>;

/** One problem with one record; the caller adds the line number. */
export interface FieldIssue {
  field: string;
  message: string;
}

export type Validated = { ok: true; row: StageRow } | { ok: false; issues: FieldIssue[] };

export interface KindDef {
  /** Input fields, in documentation order. */
  readonly fields: readonly string[];
  /** Fields every record must carry (CSV: columns the header must have). */
  readonly required: readonly string[];
  /** Validates one record and maps it to a staging row (the definition). */
  readonly schema: z.ZodType<StageRow>;
  /** The same rules and messages as `schema`, fast: what the importer runs per record. */
  readonly validate: (values: Record<string, unknown>) => Validated;
}

/** Where a mapping reports cross-field problems (zod's transform context has this shape). */
interface Ctx {
  issues: { code: 'custom'; message: string; path: PropertyKey[]; input: unknown }[];
}

/** Reports a cross-field problem from inside a mapping. */
export function issue(ctx: Ctx, field: string, message: string): void {
  ctx.issues.push({ code: 'custom', message, path: [field], input: undefined });
}

const unknownFieldMessage = (fields: readonly string[]) => `unknown field (expected: ${fields.join(', ')})`;

/** zod issues as field issues: the path names the field, `(row)` when there is none. */
export function zodIssues(issues: readonly z.core.$ZodIssue[], fields: readonly string[]): FieldIssue[] {
  return issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? { field: i.keys.join(', '), message: unknownFieldMessage(fields) }
      : { field: i.path.length > 0 ? i.path.join('.') : '(row)', message: i.message },
  );
}

export function defineKind<S extends z.core.$ZodLooseShape>(
  shape: S,
  toRow: (record: z.output<z.ZodObject<S, z.core.$strict>>, ctx: Ctx) => StageRow,
): KindDef {
  const object = z.strictObject(shape);
  const fields = Object.keys(shape);
  // A field is required when its schema rejects "no value".
  const required = fields.filter((f) => !(shape[f] as z.ZodType).safeParse(undefined).success);
  const schema = object.transform((r, ctx) => toRow(r as never, ctx as unknown as Ctx)) as z.ZodType<StageRow>;
  const raws = fields.map((f) => rawField(shape[f] as z.ZodType));
  const validate = raws.every((r) => r !== undefined)
    ? fastValidator(fields, raws as RawField[], toRow as (record: StageRow, ctx: Ctx) => StageRow)
    : (values: Record<string, unknown>): Validated => {
        const parsed = schema.safeParse(values);
        return parsed.success ? { ok: true, row: parsed.data } : { ok: false, issues: zodIssues(parsed.error.issues, fields) };
      };
  return { fields, required, schema, validate };
}

function fastValidator(fields: readonly string[], raws: readonly RawField[], toRow: (record: StageRow, ctx: Ctx) => StageRow) {
  const known = new Set(fields);
  const unknownMessage = unknownFieldMessage(fields);
  return (values: Record<string, unknown>): Validated => {
    let issues: FieldIssue[] | undefined;
    const record: StageRow = {};
    for (let i = 0; i < fields.length; i++) {
      const name = fields[i]!;
      const value = values[name];
      if (value === undefined) {
        if (raws[i]!.required) (issues ??= []).push({ field: name, message: 'is required' });
        continue;
      }
      const out = raws[i]!.parse(value);
      if (out instanceof Bad) (issues ??= []).push({ field: name, message: out.message });
      else record[name] = out;
    }
    const fieldFailed = issues !== undefined;
    // Like zod: `for...in` (what zod walks), reported after the field errors.
    let unknown: string[] | undefined;
    for (const key in values) if (!known.has(key)) (unknown ??= []).push(key);
    if (unknown) (issues ??= []).push({ field: unknown.join(', '), message: unknownMessage });
    if (fieldFailed) return { ok: false, issues: issues! };
    const ctx: Ctx = { issues: [] };
    const row = toRow(record, ctx);
    for (const i of ctx.issues) (issues ??= []).push({ field: i.path.length > 0 ? i.path.join('.') : '(row)', message: i.message });
    return issues ? { ok: false, issues } : { ok: true, row };
  };
}

/** A stable id from a domain for files that omit ids: dots become underscores (a domain
 *  label never holds `_`, so distinct domains get distinct ids). */
export function idFromDomain(prefix: string, domain: string): string {
  return `${prefix}${domain.replaceAll('.', '_')}`;
}
