// The detector's output as a contract: an evidence item, a detected technology and the site
// record `stacklens detect --json` prints (one per line). The observation log reads these
// lines (services/observations.ts), POST /api/detect and the detect_technologies tool answer
// with them, and the evidence endpoint pages stored evidence items.
import { z } from 'zod';
import { EVIDENCE_SOURCES } from '../detect/types.ts';

export const evidenceItemSchema = z
  .object({
    source: z.enum(EVIDENCE_SOURCES).describe('Where the trace was: html, script, meta, header, cookie, dns or job'),
    url: z.string().max(4096).optional().describe('The page the trace was on (absent for DNS records and job posts)'),
    ruleId: z.string().min(1).max(300).describe('The rule that matched: `<technology>/<field>/<key or index>`'),
    excerpt: z.string().max(200).describe('At most 200 characters of the matched text'),
    version: z.string().max(100).optional(),
    weight: z.number().gt(0).max(1).describe('How much this one trace says the technology is in use, in (0, 1]'),
  })
  .meta({ id: 'EvidenceItem', description: 'One trace behind a detection' });
export type EvidenceItem = z.output<typeof evidenceItemSchema>;

export const detectedTechnologySchema = z
  .object({
    name: z.string().min(1).max(200),
    vendorDomain: z.string().min(1).max(253),
    category: z.string().min(1).max(200),
    version: z.string().max(100).optional(),
    confidence: z.number().min(0).max(1).describe('1 - Π(1 - weight) over the distinct rules that matched'),
    evidence: z.array(evidenceItemSchema).max(200),
  })
  .meta({ id: 'DetectedTechnology', description: 'A technology found on a site, with its evidence' });

export const siteResultSchema = z
  .object({
    domain: z.string().min(1).max(253),
    technologies: z.array(detectedTechnologySchema).max(2000),
    seenAt: z.iso.datetime({ offset: true }).optional().describe('When the artifacts were collected (default: when they are recorded)'),
  })
  .meta({ id: 'SiteDetections', description: 'The technologies detected on one site (a line of `stacklens detect --json`)' });
export type SiteResult = z.input<typeof siteResultSchema>;
