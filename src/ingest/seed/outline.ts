// The category taxonomy (3 levels) parsed from the outline in catalog-data.ts. Shared by the
// demo world and the technology catalog (src/detect/catalog.ts), which names its categories
// from it; this module depends on neither, so the two can import it without a cycle.
import { CATEGORY_OUTLINE } from './catalog-data.ts';
import { slugify } from './rng.ts';

export interface Category {
  id: string;
  name: string;
  parentId: string | null;
  level: number;
  topId: string;
  leaf: boolean;
  /** Base adoption rate (leaves only). */
  rate: number;
  modern: boolean;
  legacy: boolean;
  enterprise: boolean;
  small: boolean;
  /** Industry-specific: only these industry ids adopt it. */
  only: Set<string> | null;
  boosted: Set<string>;
  sources: string[];
  nouns: string[];
}

export function parseOutline(outline = CATEGORY_OUTLINE): Category[] {
  const out: Category[] = [];
  const stack: Category[] = [];
  const used = new Set<string>();
  for (const raw of outline.split('\n')) {
    if (!raw.trim()) continue;
    const level = (raw.length - raw.trimStart().length) / 2;
    const [name, ...parts] = raw.trim().split(';').map((s) => s.trim());
    let id = `cat_${slugify(name, '_')}`;
    for (let n = 2; used.has(id); n++) id = `cat_${slugify(name, '_')}_${n}`;
    used.add(id);
    const parent = level > 0 ? stack[level - 1] : undefined;
    const cat: Category = {
      id, name, parentId: parent?.id ?? null, level, topId: parent?.topId ?? id, leaf: true, rate: 0,
      modern: false, legacy: false, enterprise: false, small: false, only: null, boosted: new Set(),
      sources: parent?.sources ?? [], nouns: [name],
    };
    for (const part of parts) {
      if (/^[\d.]+$/.test(part)) cat.rate = Number(part);
      else if (part.startsWith('i=')) cat.only = new Set(part.slice(2).split('/').map((s) => `ind_${s}`));
      else if (part.startsWith('x=')) cat.boosted = new Set(part.slice(2).split('/').map((s) => `ind_${s}`));
      else if (part.startsWith('src=')) cat.sources = part.slice(4).split('/');
      else if (part.startsWith('n=')) cat.nouns = part.slice(2).split('/');
      else for (const flag of part.split(/\s+/)) {
        if (flag === 'm') cat.modern = true;
        else if (flag === 'l') cat.legacy = true;
        else if (flag === 'E') cat.enterprise = true;
        else if (flag === 'S') cat.small = true;
      }
    }
    if (parent) parent.leaf = false;
    stack[level] = cat;
    stack.length = level + 1;
    out.push(cat);
  }
  return out;
}
