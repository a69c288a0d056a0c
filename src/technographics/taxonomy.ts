// The category taxonomy: the tree of catalog/categories.txt (three levels, children indented
// under their parent). The technology catalog names its categories from it (detect/catalog.ts),
// the observation log files a new technology under it (services/observations.ts), and the demo
// world reads its adoption model from the annotations after each name (ingest/seed/outline.ts).
import { readFileSync } from 'node:fs';
import { slugify } from '../slug.ts';

/** The taxonomy file, beside the technology catalog (dist/technographics → ../../catalog as well). */
const TAXONOMY_FILE = new URL('../../catalog/categories.txt', import.meta.url);

export interface TaxonomyCategory {
  /** `cat_` + the slug of the name, suffixed `_2`, `_3` when a name repeats. */
  id: string;
  name: string;
  parentId: string | null;
  /** 0 for a top-level category. */
  level: number;
  /** The top-level category it belongs to (itself at level 0). */
  topId: string;
  leaf: boolean;
  /** What the line says after the name (`;`-separated, trimmed): the demo world's adoption model. */
  annotations: string[];
}

/** Parses the outline: `#` lines and blank lines are skipped; two spaces of indent per level. */
function parseTaxonomy(text: string): TaxonomyCategory[] {
  const out: TaxonomyCategory[] = [];
  const stack: TaxonomyCategory[] = [];
  const used = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim() || raw.trimStart().startsWith('#')) return;
    const indent = raw.length - raw.trimStart().length;
    const level = indent / 2;
    if (!Number.isInteger(level) || level > stack.length) throw new Error(`categories line ${i + 1}: indent by two spaces per level under a parent`);
    const [name = '', ...annotations] = raw
      .trim()
      .split(';')
      .map((s) => s.trim());
    if (!name) throw new Error(`categories line ${i + 1}: a category needs a name`);
    let id = `cat_${slugify(name, '_')}`;
    for (let n = 2; used.has(id); n++) id = `cat_${slugify(name, '_')}_${n}`;
    used.add(id);
    const parent = level > 0 ? stack[level - 1] : undefined;
    const category: TaxonomyCategory = { id, name, parentId: parent?.id ?? null, level, topId: parent?.topId ?? id, leaf: true, annotations };
    if (parent) parent.leaf = false;
    stack[level] = category;
    stack.length = level + 1;
    out.push(category);
  });
  return out;
}

let loaded: readonly TaxonomyCategory[] | undefined;

/** The taxonomy of catalog/categories.txt, read once. */
export function taxonomy(): readonly TaxonomyCategory[] {
  return (loaded ??= parseTaxonomy(readFileSync(TAXONOMY_FILE, 'utf8')));
}

/** The names of every category of the taxonomy. */
export function categoryNames(): ReadonlySet<string> {
  return new Set(taxonomy().map((c) => c.name));
}
