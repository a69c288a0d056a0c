// The evidence behind a company's product: the observations the detector logged,
// each a trace on a page, in DNS or in a job post. A paged list per (company, product), and
// the newest few inside the Company product record with `include=evidence`.
import { z } from 'zod';
import { idInput } from './text.ts';
import { pageQuery, pageSchema } from './common.ts';
import { domainSchema } from './params.ts';
import { defineOperation } from './operation.ts';
import { EVIDENCE_SOURCES } from '../technographics/evidence.ts';

export const evidenceRecordSchema = z
  .object({
    source: z.enum(EVIDENCE_SOURCES).describe('Where the trace was: html, script, meta, header, cookie, dns or job'),
    url: z.string().nullable().describe('The page the trace was on; null for DNS records and job posts'),
    ruleId: z.string().describe('The detection rule that matched: `<technology>/<field>/<key or index>`'),
    excerpt: z.string().describe('At most 200 characters of the matched text'),
    version: z.string().nullable().describe('The version the trace carried, if any'),
    weight: z.number().describe('How much this trace alone says the product is in use, in (0, 1]'),
    seenAt: z.string().describe('When it was observed (ISO 8601 timestamp)'),
  })
  .meta({ id: 'Evidence', description: 'One observation behind "the company uses the product"' });
export type EvidenceRecord = z.output<typeof evidenceRecordSchema>;

export const evidencePageSchema = pageSchema(evidenceRecordSchema).meta({ id: 'EvidencePage' });

/** Evidence items a Company product record carries with `include=evidence`. */
export const EVIDENCE_PER_RECORD = 5;

export const evidenceParamsSchema = z.object({
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
