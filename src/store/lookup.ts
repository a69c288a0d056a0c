// SQL for lookup: the names of one kind of thing ranked by how well they match a text.
// Exact name (or alternative name: a product's short name, a vendor's domain) scores 1; else
// the best of pg_trgm's similarity and word similarity, from FUZZY_THRESHOLD up. No trigram
// index: catalogs are thousands of names, scanned in a few milliseconds.
import type { Db } from '../db/db.ts';
import { Params } from '../db/sql.ts';
import { FUZZY_THRESHOLD } from '../schemas/vendors.ts';

export interface NamedMatch {
  id: string;
  name: string;
  detail: string | null;
  score: number;
}

type CatalogKind = 'technology' | 'vendor' | 'category' | 'industry';

/** Each kind's names: id, name, a word of context, and an alternative name matched exactly. */
const SOURCES: Record<CatalogKind, string> = {
  technology: `SELECT p.id, p.name, concat_ws(' · ', v.name, c.name) AS detail, p.short_name AS alt
               FROM products p JOIN vendors v ON v.id = p.vendor_id LEFT JOIN categories c ON c.id = p.category_id`,
  vendor: 'SELECT v.domain AS id, v.name, NULL::text AS detail, v.domain AS alt FROM vendors v',
  category: 'SELECT c.id, c.name, pc.name AS detail, NULL::text AS alt FROM categories c LEFT JOIN categories pc ON pc.id = c.parent_id',
  industry: 'SELECT i.id, i.name, i.sector AS detail, NULL::text AS alt FROM industries i',
};

function ranked(source: string, p: Params, text: string, limit: number): string {
  const q = p.add(text.toLowerCase());
  return `SELECT id, name, detail, score FROM (
            SELECT s.id, s.name, s.detail,
                   CASE WHEN lower(s.name) = ${q} OR lower(s.alt) = ${q} THEN 1
                        ELSE GREATEST(similarity(lower(s.name), ${q}), word_similarity(${q}, lower(s.name)), coalesce(similarity(lower(s.alt), ${q}), 0)) END AS score
            FROM (${source}) s) m
          WHERE score >= ${p.add(FUZZY_THRESHOLD, 'real')}
          ORDER BY score DESC, lower(name), id LIMIT ${p.add(limit, 'int')}`;
}

export async function lookupCatalog(db: Db, kind: CatalogKind, text: string, limit: number): Promise<NamedMatch[]> {
  const p = new Params();
  const rows = await db.query<NamedMatch>(ranked(SOURCES[kind], p, text, limit), p.values);
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}

/** The same ranking over names given here (countries: the runtime's list, not a table). */
export async function lookupNames(db: Db, names: readonly { id: string; name: string; alt?: string }[], text: string, limit: number): Promise<NamedMatch[]> {
  const p = new Params();
  const ids = p.add(
    names.map((n) => n.id),
    'text[]',
  );
  const labels = p.add(
    names.map((n) => n.name),
    'text[]',
  );
  const alts = p.add(
    names.map((n) => n.alt ?? null),
    'text[]',
  );
  const source = `SELECT t.id, t.name, NULL::text AS detail, t.alt FROM unnest(${ids}, ${labels}, ${alts}) AS t(id, name, alt)`;
  const rows = await db.query<NamedMatch>(ranked(source, p, text, limit), p.values);
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}
