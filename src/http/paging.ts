// The one paging-merge rule of routes that take `page`/`size` from the query string and
// the body alike: either place is fine; both with different values is ambiguous → 400
// naming the field. Absent from both → the default page (0) and size (20).
import { BadRequestError } from '../errors.ts';

interface Paging {
  page?: number | undefined;
  size?: number | undefined;
}

const DEFAULTS = { page: 0, size: 20 } as const;

export function mergePaging(query: Paging, body: Paging | null | undefined): { page: number; size: number } {
  const pick = (name: 'page' | 'size'): number => {
    const fromQuery = query[name];
    const fromBody = body?.[name];
    if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
      throw new BadRequestError(`${name}: given in both the query string (${fromQuery}) and the body (${fromBody}); send it once`);
    }
    return fromQuery ?? fromBody ?? DEFAULTS[name];
  };
  return { page: pick('page'), size: pick('size') };
}
