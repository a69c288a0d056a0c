// The demo world's adoption model of each category: the taxonomy (technographics/taxonomy.ts,
// from catalog/categories.txt) with the annotations after each name read as the demo world's
// base adoption rate, skews, industries, evidence sources and product nouns (the file's
// header explains them).
import { taxonomy, type TaxonomyCategory } from '../../technographics/taxonomy.ts';

/** A category of the taxonomy with the demo world's adoption model read from its annotations. */
export interface Category extends Omit<TaxonomyCategory, 'annotations'> {
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

export function parseOutline(categories: readonly TaxonomyCategory[] = taxonomy()): Category[] {
  const byId = new Map<string, Category>();
  return categories.map((c) => {
    const parent = c.parentId ? byId.get(c.parentId) : undefined;
    const cat: Category = {
      id: c.id,
      name: c.name,
      parentId: c.parentId,
      level: c.level,
      topId: c.topId,
      leaf: c.leaf,
      rate: 0,
      modern: false,
      legacy: false,
      enterprise: false,
      small: false,
      only: null,
      boosted: new Set(),
      sources: parent?.sources ?? [],
      nouns: [c.name],
    };
    for (const part of c.annotations) {
      if (/^[\d.]+$/.test(part)) cat.rate = Number(part);
      else if (part.startsWith('i='))
        cat.only = new Set(
          part
            .slice(2)
            .split('/')
            .map((s) => `ind_${s}`),
        );
      else if (part.startsWith('x='))
        cat.boosted = new Set(
          part
            .slice(2)
            .split('/')
            .map((s) => `ind_${s}`),
        );
      else if (part.startsWith('src=')) cat.sources = part.slice(4).split('/');
      else if (part.startsWith('n=')) cat.nouns = part.slice(2).split('/');
      else
        for (const flag of part.split(/\s+/)) {
          if (flag === 'm') cat.modern = true;
          else if (flag === 'l') cat.legacy = true;
          else if (flag === 'E') cat.enterprise = true;
          else if (flag === 'S') cat.small = true;
          else throw new Error(`catalog/categories.txt, ${c.name}: unknown annotation '${flag}'`);
        }
    }
    byId.set(cat.id, cat);
    return cat;
  });
}
