// Detailed comparison of a company's stack with a peer's, category by category over the
// company's own categories: `similar` when the peer runs one of the company's products
// in that category, `different` when it runs another one (named), `missing` otherwise.

interface StackItem {
  productId: string;
  productName: string;
  categoryId: string;
  categoryName: string;
}

interface ComparisonRow {
  categoryId: string;
  category: string;
  similar: boolean;
  different: boolean;
  missing: boolean;
  /** The peer's product in the category (absent when missing). */
  productId?: string;
  product?: string;
  /** The company's own product(s) in the category, for reference. */
  companyProducts: string[];
}

const byName = (a: StackItem, b: StackItem) => a.productName.localeCompare(b.productName) || (a.productId < b.productId ? -1 : 1);

/**
 * `categories`, when given, limits the rows to those category ids (the filters of the
 * endpoint resolve to a category set). Rows come in category-name order.
 */
export function compareStacks(company: StackItem[], peer: StackItem[], categories?: ReadonlySet<string>): ComparisonRow[] {
  const own = new Map<string, StackItem[]>();
  for (const item of company) {
    if (categories && !categories.has(item.categoryId)) continue;
    const list = own.get(item.categoryId);
    if (list) list.push(item);
    else own.set(item.categoryId, [item]);
  }
  const theirs = new Map<string, StackItem[]>();
  for (const item of peer) {
    const list = theirs.get(item.categoryId);
    if (list) list.push(item);
    else theirs.set(item.categoryId, [item]);
  }
  const rows: ComparisonRow[] = [];
  for (const [categoryId, mine] of own) {
    mine.sort(byName);
    const ownIds = new Set(mine.map((i) => i.productId));
    const other = (theirs.get(categoryId) ?? []).sort(byName);
    const same = other.find((i) => ownIds.has(i.productId));
    const pick = same ?? other[0];
    rows.push({
      categoryId,
      category: mine[0]!.categoryName,
      similar: same !== undefined,
      different: same === undefined && pick !== undefined,
      missing: pick === undefined,
      ...(pick ? { productId: pick.productId, product: pick.productName } : {}),
      companyProducts: [...new Set(mine.map((i) => i.productName))],
    });
  }
  return rows.sort((a, b) => a.category.localeCompare(b.category) || (a.categoryId < b.categoryId ? -1 : 1));
}
