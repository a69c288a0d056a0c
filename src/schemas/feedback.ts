// Data-quality feedback: a client (or its agent) reports a technology a company does not use,
// one we miss, or a wrong firmographic field; an operator reviews the reports in a queue
// (Admin API and the console's Admin screen).
import { z } from 'zod';
import { idInput, textInput } from './text.ts';
import { errorBodySchema, pageQuery, pageSchema, requestExamples } from './common.ts';
import { domainSchema } from './params.ts';
import { defineOperation } from './operation.ts';

const FEEDBACK_KINDS = ['wrong_technology', 'missing_technology', 'wrong_firmographics', 'other'] as const;
const FEEDBACK_STATUSES = ['open', 'accepted', 'rejected'] as const;
/** The firmographic fields a report can name (the common fields of GET /companies/{domain}/firmographics). */
const FEEDBACK_FIELDS = [
  'name',
  'industry',
  'employeeRange',
  'revenueRange',
  'foundedYear',
  'hqCountry',
  'hqCity',
  'description',
  'linkedinUrl',
  'website',
] as const;
/** Open reports one client may have waiting for review: a runaway agent cannot flood the queue. */
export const MAX_OPEN_FEEDBACK_PER_CLIENT = 1_000;

export const submitFeedbackBody = z
  .strictObject({
    kind: z
      .enum(FEEDBACK_KINDS)
      .describe(
        'wrong_technology: the company does not use productId; missing_technology: it uses productId and we miss it; wrong_firmographics: field is wrong',
      ),
    companyDomain: domainSchema('The company the report is about'),
    productId: idInput('prd_hubspot_crm').optional().describe('The technology (required for wrong_technology and missing_technology)'),
    field: z.enum(FEEDBACK_FIELDS).optional().describe('The wrong field (required for wrong_firmographics)'),
    suggestedValue: textInput(200).trim().optional().describe('What it should be, when known'),
    message: textInput(2_000, { multiline: true }).trim().optional().describe('How you know: a source, a page, what you saw'),
  })
  .superRefine((b, ctx) => {
    if ((b.kind === 'wrong_technology' || b.kind === 'missing_technology') && !b.productId)
      ctx.addIssue({ code: 'custom', path: ['productId'], message: `is required when kind is ${b.kind}` });
    if (b.kind === 'wrong_firmographics' && !b.field)
      ctx.addIssue({ code: 'custom', path: ['field'], message: 'is required when kind is wrong_firmographics' });
    if (b.kind === 'other' && !b.message) ctx.addIssue({ code: 'custom', path: ['message'], message: 'is required when kind is other' });
  })
  .meta({
    id: 'FeedbackRequest',
    description: 'What is wrong: the kind, the company, and the technology or field it is about',
    ...requestExamples({ kind: 'wrong_technology', companyDomain: 'acme.com', productId: 'prd_hubspot_crm', message: 'Their site moved to Pipedrive in 2025' }),
  });
export type SubmitFeedbackInput = z.output<typeof submitFeedbackBody>;

export const feedbackSchema = z
  .object({
    id: z.string(),
    kind: z.enum(FEEDBACK_KINDS),
    companyDomain: z.string(),
    productId: z.string().nullable(),
    field: z.string().nullable(),
    suggestedValue: z.string().nullable(),
    message: z.string().nullable(),
    status: z.enum(FEEDBACK_STATUSES),
    createdAt: z.string(),
    reviewedAt: z.string().nullable(),
    reviewNote: z.string().nullable(),
  })
  .meta({ id: 'FeedbackReport', description: 'A data-quality report and its review' });
export type FeedbackReport = z.output<typeof feedbackSchema>;

export const adminFeedbackSchema = feedbackSchema
  .extend({
    clientId: z.string(),
    onBehalfOf: z.string().nullable().describe('The user the report was made for, when the call named one'),
    reviewedBy: z.string().nullable(),
  })
  .meta({ id: 'AdminFeedbackReport' });
export type AdminFeedbackReport = z.output<typeof adminFeedbackSchema>;

export const submitFeedbackOp = defineOperation({
  id: 'submitFeedback',
  summary: 'Report wrong or missing data',
  description: `A technology a company does not use (wrong_technology), one it uses that is missing (missing_technology), a wrong firmographic field (wrong_firmographics), or anything else (other, with a message). The company and the product must be on record (404). The report waits in the operators' review queue; a client has at most ${MAX_OPEN_FEEDBACK_PER_CLIENT} open reports (409 beyond).`,
  tag: 'Feedback',
  input: submitFeedbackBody,
  output: feedbackSchema,
  readOnly: false,
  attributed: false,
  http: {
    method: 'POST',
    path: '/feedback',
    body: submitFeedbackBody,
    errors: { 409: errorBodySchema.describe('The client has as many open reports as it may have') },
  },
  mcp: {
    name: 'submit_feedback',
    title: 'Report wrong data',
    description: 'Report a wrong or missing technology (productId) or a wrong firmographic field of a company, for an operator to review.',
  },
});

const feedbackQueueQuery = z.object({
  status: z.enum(FEEDBACK_STATUSES).optional().describe('Only reports of this status (default open)'),
  ...pageQuery,
});

export const listAdminFeedbackOp = defineOperation({
  id: 'listAdminFeedback',
  summary: 'The feedback review queue',
  description: 'Reports of every client, oldest first (the queue order), by status (default open), paged.',
  tag: 'Admin',
  role: 'admin',
  input: feedbackQueueQuery,
  output: pageSchema(adminFeedbackSchema).meta({ id: 'AdminFeedbackPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/admin/feedback', query: feedbackQueueQuery },
});

const feedbackParams = z.object({ feedbackId: idInput('fbk_3fa1c2d4e5f60718').describe('Report id') });
const reviewFeedbackBody = z.strictObject({
  status: z.enum(['accepted', 'rejected']).describe('accepted: the data is wrong and will be corrected; rejected: it is right'),
  note: textInput(1_000, { multiline: true }).trim().optional().describe('Why, for the record'),
});
export type ReviewFeedbackInput = z.output<typeof reviewFeedbackBody>;

export const reviewAdminFeedbackOp = defineOperation({
  id: 'reviewAdminFeedback',
  summary: 'Decide a feedback report',
  description: 'Accept or reject a report (audited). A report already decided is a 409.',
  tag: 'Admin',
  role: 'admin',
  input: feedbackParams.extend(reviewFeedbackBody.shape),
  output: adminFeedbackSchema,
  readOnly: false,
  attributed: false,
  http: { method: 'POST', path: '/admin/feedback/:feedbackId', params: feedbackParams, body: reviewFeedbackBody },
});

export const feedbackOperations = [submitFeedbackOp];
export const adminFeedbackOperations = [listAdminFeedbackOp, reviewAdminFeedbackOp];
