// SQL for data-quality reports: insert, the review queue, one report, a review.
import type { Db, Queryable } from '../db/db.ts';

export interface FeedbackRow {
  id: string;
  client_id: string;
  on_behalf_of: string | null;
  kind: string;
  company_domain: string;
  product_id: string | null;
  field: string | null;
  suggested_value: string | null;
  message: string | null;
  status: string;
  created_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  review_note: string | null;
}

const COLUMNS = `id, client_id, on_behalf_of, kind, company_domain, product_id, field, suggested_value, message, status,
  created_at, reviewed_at, reviewed_by, review_note`;

export async function insertFeedback(
  db: Queryable,
  r: Pick<FeedbackRow, 'id' | 'client_id' | 'on_behalf_of' | 'kind' | 'company_domain' | 'product_id' | 'field' | 'suggested_value' | 'message'>,
): Promise<FeedbackRow> {
  const [row] = await db.query<FeedbackRow>(
    `INSERT INTO feedback_reports (id, client_id, on_behalf_of, kind, company_domain, product_id, field, suggested_value, message)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [r.id, r.client_id, r.on_behalf_of, r.kind, r.company_domain, r.product_id, r.field, r.suggested_value, r.message],
  );
  return row!;
}

export async function countOpenFeedback(db: Queryable, clientId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM feedback_reports WHERE client_id = $1 AND status = 'open'`, [clientId]);
  return row!.n;
}

/** One page of the queue of a status, oldest first, with the total. */
export async function feedbackQueue(db: Db, status: string, offset: number, limit: number): Promise<{ total: number; rows: FeedbackRow[] }> {
  const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback_reports WHERE status = $1', [status]);
  const rows = await db.query<FeedbackRow>(`SELECT ${COLUMNS} FROM feedback_reports WHERE status = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
    status,
    limit,
    offset,
  ]);
  return { total: count!.n, rows };
}

/** Decides an open report; undefined when there is no such report, null when it was decided already. */
export async function reviewFeedback(
  db: Queryable,
  id: string,
  review: { status: string; note: string | null; by: string },
): Promise<FeedbackRow | null | undefined> {
  const [row] = await db.query<FeedbackRow>(
    `UPDATE feedback_reports SET status = $2, review_note = $3, reviewed_by = $4, reviewed_at = now()
     WHERE id = $1 AND status = 'open' RETURNING ${COLUMNS}`,
    [id, review.status, review.note, review.by],
  );
  if (row) return row;
  const [exists] = await db.query<{ id: string }>('SELECT id FROM feedback_reports WHERE id = $1', [id]);
  return exists ? null : undefined;
}
