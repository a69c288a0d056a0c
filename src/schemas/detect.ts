// The detector's output as a contract: an evidence item, a detected technology and the site
// record `stacklens detect --json` prints (one per line). The observation log reads these
// lines (services/observations.ts), POST /api/detect and the detect_technologies tool answer
// with them, and the evidence endpoint pages stored evidence items.
import { z } from 'zod';
import { CLAIM_CONFIDENCE, EVIDENCE_SOURCES } from '../technographics/evidence.ts';
import { PAGE_KINDS, VISIT_OUTCOMES } from '../technographics/changes.ts';
import { artifactLineSchema } from '../detect/artifacts.ts';
import { errorBodySchema } from './common.ts';
import { defineOperation } from './operation.ts';

export const evidenceItemSchema = z
  .object({
    source: z.enum(EVIDENCE_SOURCES).describe('Where the trace was: html, script, meta, header, cookie, dns or job'),
    url: z.string().max(4096).nullable().describe('The page the trace was on; null for DNS records and job posts'),
    ruleId: z.string().min(1).max(300).describe('The rule that matched: `<technology>/<field>/<key or index>`'),
    excerpt: z.string().max(200).describe('At most 200 characters of the matched text'),
    version: z.string().max(100).nullable().describe('The version the trace carried; null when it carried none'),
    weight: z.number().gt(0).max(1).describe('How much this one trace says the technology is in use, in (0, 1]'),
  })
  .meta({ id: 'EvidenceItem', description: 'One trace the detector found: where it was, the rule, an excerpt, the version and the weight' });

const detectedTechnologySchema = z
  .object({
    name: z.string().min(1).max(200),
    vendorDomain: z.string().min(1).max(253),
    category: z.string().min(1).max(200),
    version: z.string().max(100).optional(),
    confidence: z.number().min(0).max(1).describe('1 - Π(1 - weight) over the distinct rules that matched'),
    evidence: z.array(evidenceItemSchema).max(200),
  })
  .meta({ id: 'DetectedTechnology', description: 'A technology found on a site, with its evidence' });

const siteResultSchema = z
  .object({
    domain: z.string().min(1).max(253),
    technologies: z.array(detectedTechnologySchema).max(2000),
    seenAt: z.iso.datetime({ offset: true }).optional().describe('When the artifacts were collected (default: when they are recorded)'),
    visit: z
      .object({
        outcome: z.enum(VISIT_OUTCOMES),
        kinds: z.array(z.enum(PAGE_KINDS)).max(PAGE_KINDS.length),
        reason: z.string().max(100).nullable(),
      })
      .optional()
      .describe('How the collection went and which page kinds it had whole (detect/visit.ts); absent: unknown, which never shows an absence'),
  })
  .meta({ id: 'SiteDetections', description: 'The technologies detected on one site (a line of `stacklens detect --json`)' });

/** The null fields of an evidence item, as read back from a file: absent reads as null (lines written before they were always there). */
const absentAsNull = <T extends z.ZodNullable<z.ZodString>>(field: T) => field.optional().transform((v) => v ?? null);

/** A site record read back (`stacklens observe`, `detect --save`): the contract's, with url and version of an evidence item allowed to be absent. */
export const siteResultReadSchema = siteResultSchema.extend({
  technologies: z
    .array(
      detectedTechnologySchema.extend({
        evidence: z
          .array(evidenceItemSchema.extend({ url: absentAsNull(evidenceItemSchema.shape.url), version: absentAsNull(evidenceItemSchema.shape.version) }))
          .max(200),
      }),
    )
    .max(2000),
});
/** A site record as a caller may hand it in (url and version of evidence may be absent). */
export type SiteResult = z.input<typeof siteResultReadSchema>;

// POST /detect ----------------------------------------------------------------------------------

/** One site's artifacts in the body: the artifacts-file line (docs/detection-rules.md), unknown fields refused. */
const siteArtifactsSchema = artifactLineSchema
  .extend({ scripts: artifactLineSchema.shape.scripts.describe('URLs of the scripts the page loaded (a network log), matched like script tags') })
  .strict()
  .meta({
    id: 'SiteArtifacts',
    description: 'One site as a collector saw it: the page (url, status, headers, cookies, html, scripts), DNS records and job-post texts',
  });

export const detectInputSchema = z
  .strictObject({
    url: z.string().min(1).max(2048).optional().describe('A domain or http(s) URL to fetch (public addresses only). Give url or artifacts'),
    artifacts: siteArtifactsSchema.optional().describe("One site's artifacts, instead of a url"),
    minConfidence: z.number().min(0).max(1).optional().describe(`Leave out detections below this confidence (default ${CLAIM_CONFIDENCE})`),
  })
  .meta({
    examples: [
      {
        artifacts: {
          domain: 'shop.example',
          headers: { 'x-powered-by': 'PHP/8.2.1' },
          html: '<meta name="generator" content="WordPress 6.5.2">',
          dns: { MX: ['1 aspmx.l.google.com.'] },
        },
      },
    ],
  });
export type DetectInput = z.output<typeof detectInputSchema>;

/** The tool's arguments: a URL only (a model names a site; uploading a page's artifacts is the REST body's job). */
const detectToolInputSchema = z.strictObject({
  url: z.string().min(1).max(2048).describe('Domain or URL'),
});

export const detectResultSchema = z
  .object({
    domain: z.string(),
    technologies: z.array(detectedTechnologySchema),
  })
  .meta({ id: 'DetectResult', description: 'The technologies detected on the site (the shape of a `stacklens detect --json` line)' });
export type DetectResult = z.output<typeof detectResultSchema>;

export const detectOp = defineOperation({
  id: 'detectTechnologies',
  summary: 'Detect the technologies of one site, from its URL or uploaded artifacts',
  description: [
    'Give `url` (a domain or an http(s) URL: the service fetches the home page, following redirects, with its headers, cookies and DNS records; robots.txt is obeyed; private, loopback and link-local addresses are refused, after DNS resolution and on every redirect) or `artifacts` (one site as a collector saw it, the line format of `stacklens detect --artifacts`).',
    'The answer lists each technology with its confidence and evidence items (source, URL, rule, an excerpt of at most 200 characters, version, weight). Nothing is stored: to keep detections, run `stacklens detect --save`.',
    "Needs the plan's `ai` permission and spends the AI quota. The body is capped (DETECT_BODY_LIMIT_BYTES, 413 beyond) and the call is time-capped (DETECT_TIMEOUT_MS). A site that cannot be fetched is a 422 naming the reason (dns_nxdomain, timeout, http_503, robots_disallowed...).",
  ].join('\n\n'),
  tag: 'Detection',
  input: detectToolInputSchema,
  output: detectResultSchema,
  permission: 'ai',
  rateClass: 'ai',
  readOnly: true,
  attributed: false,
  http: {
    method: 'POST',
    path: '/detect',
    body: detectInputSchema,
    errors: {
      413: errorBodySchema.describe('The body is larger than DETECT_BODY_LIMIT_BYTES'),
      422: errorBodySchema.describe('The site could not be fetched (the reason is in the message) or not within DETECT_TIMEOUT_MS'),
    },
  },
  mcp: {
    name: 'detect_technologies',
    title: 'Detect technologies',
    description: 'Fetches a site: the technologies it runs, with evidence.',
  },
});

export const detectOperations = [detectOp];
