// Data-quality feedback: reports from clients and their agents, checked against what is on
// record, capped per client, and decided by an operator (audited).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { toPage, type Page } from '../schemas/common.ts';
import {
  MAX_OPEN_FEEDBACK_PER_CLIENT,
  type AdminFeedbackReport,
  type FeedbackReport,
  type ReviewFeedbackInput,
  type SubmitFeedbackInput,
} from '../schemas/feedback.ts';
import { countOpenFeedback, feedbackQueue, insertFeedback, reviewFeedback, type FeedbackRow } from '../store/feedback.ts';
import { requireCompany, requireProducts } from './resolve.ts';
import { adminAction, type AdminActor } from './audit.ts';

function toReport(r: FeedbackRow): FeedbackReport {
  return {
    id: r.id,
    kind: r.kind as FeedbackReport['kind'],
    companyDomain: r.company_domain,
    productId: r.product_id,
    field: r.field,
    suggestedValue: r.suggested_value,
    message: r.message,
    status: r.status as FeedbackReport['status'],
    createdAt: r.created_at.toISOString(),
    reviewedAt: r.reviewed_at?.toISOString() ?? null,
    reviewNote: r.review_note,
  };
}

const toAdminReport = (r: FeedbackRow): AdminFeedbackReport => ({
  ...toReport(r),
  clientId: r.client_id,
  onBehalfOf: r.on_behalf_of,
  reviewedBy: r.reviewed_by,
});

/** Files a report: the company and the product must be on record; at most MAX_OPEN_FEEDBACK_PER_CLIENT open per client. */
export async function submitFeedback(db: Db, by: { clientId: string; onBehalfOf: string | null }, input: SubmitFeedbackInput): Promise<FeedbackReport> {
  await requireCompany(db, input.companyDomain);
  if (input.productId) await requireProducts(db, [input.productId]);
  const row = await db.transaction(async (tx) => {
    // Under a lock per client, so that two reports at once cannot both pass the cap.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`feedback:${by.clientId}`]);
    if ((await countOpenFeedback(tx, by.clientId)) >= MAX_OPEN_FEEDBACK_PER_CLIENT) {
      throw new ConflictError(`This client has ${MAX_OPEN_FEEDBACK_PER_CLIENT} open feedback reports, the most it may have until an operator reviews them`);
    }
    return insertFeedback(tx, {
      id: `fbk_${randomBytes(8).toString('hex')}`,
      client_id: by.clientId,
      on_behalf_of: by.onBehalfOf,
      kind: input.kind,
      company_domain: input.companyDomain,
      product_id: input.productId ?? null,
      field: input.field ?? null,
      suggested_value: input.suggestedValue ?? null,
      message: input.message ?? null,
    });
  });
  return toReport(row);
}

export async function listFeedbackQueue(db: Db, q: { status?: string | undefined; page: number; size: number }): Promise<Page<AdminFeedbackReport>> {
  const { total, rows } = await feedbackQueue(db, q.status ?? 'open', q.page * q.size, q.size);
  return toPage(rows.map(toAdminReport), total, q.size);
}

export async function decideFeedback(db: Db, actor: AdminActor, id: string, input: ReviewFeedbackInput): Promise<AdminFeedbackReport> {
  const by = actor === 'cli' ? 'cli' : (actor.person?.email ?? actor.clientId);
  return adminAction(db, actor, 'admin.feedback.review', { feedbackId: id, status: input.status }, async () => {
    const row = await reviewFeedback(db, id, { status: input.status, note: input.note ?? null, by });
    if (row === undefined) throw new NotFoundError(`feedbackId: no report '${id}'`);
    if (row === null) throw new ConflictError(`feedbackId: report '${id}' was decided already`);
    return toAdminReport(row);
  });
}
