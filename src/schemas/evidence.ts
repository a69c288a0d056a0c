// The evidence behind a company's product: the observations the detector logged,
// each a trace on a page, in DNS or in a job post. A paged list per (company, product), and
// the newest few inside the Company product record with `include=evidence`.
import { z } from 'zod';
import { idInput } from './text.ts';
import { pageQuery, pageSchema } from './common.ts';
import { domainSchema } from './params.ts';
import { defineOperation } from './operation.ts';
import { evidenceItemSchema } from './detect.ts';

/** An evidence item as the observation log keeps it: the detector's item and when it was seen. */
export const observationSchema = evidenceItemSchema.extend({ seenAt: z.string().describe('When it was observed (ISO 8601 timestamp)') }).meta({
  id: 'Observation',
  description: 'An evidence item as the observation log keeps it: one trace behind "the company uses the product", and when it was seen',
});
export type ObservationRecord = z.output<typeof observationSchema>;

const evidencePageSchema = pageSchema(observationSchema).meta({ id: 'EvidencePage' });

/** Evidence items a Company product record carries with `include=evidence`. */
export const EVIDENCE_PER_RECORD = 5;

const evidenceParamsSchema = z.object({
  companyDomain: domainSchema('Company domain'),
  productId: idInput('prd_google_analytics').describe('Product id'),
});

export const evidenceInputSchema = evidenceParamsSchema.extend(pageQuery);
export type EvidenceInput = z.output<typeof evidenceInputSchema>;

export const companyProductEvidenceOp = defineOperation({
  id: 'companyProductEvidence',
  summary: 'The evidence behind a product a company uses, paged',
  description: [
    'The observations behind "the company uses the product": one item per trace the detector found (a script URL, a cookie, a header, a meta tag, a DNS record, a job-post phrase), with the page, the rule, an excerpt of at most 200 characters, the version and the weight, newest first. The same trace is kept once per day it was seen.',
    'Unknown company or product → 404; a product the company has neither an install nor any observation of → 404. An install imported by the operator (no observation) answers an empty page.',
  ].join('\n\n'),
  tag: 'Company products',
  input: evidenceInputSchema,
  output: evidencePageSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/companies/:companyDomain/products/:productId/evidence', params: evidenceParamsSchema, query: z.object(pageQuery) },
});

export const evidenceOperations = [companyProductEvidenceOp];
