// Job-post reader: a CSV (header row) or JSON Lines file of job posts → SiteArtifacts with the
// posts' text in `jobs`, matched by the catalog's `job` phrase rules. Columns: the company's
// domain (`domain`, `company_domain`, `website` or `url`; `company` if it holds a domain), the
// `title` and the text (`text`, `description` or `body`). Streamed with the import reader;
// consecutive posts of one domain become one record (sort the file by domain for one record
// per company), at most 100 posts and 64 KB of text each, as the detector reads.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { normalizeDomain } from '../../domain.ts';
import { readRecords } from '../../records.ts';
import { LIMITS } from '../detect.ts';
import type { SiteArtifacts } from '../types.ts';

interface JobsOptions {
  /** `csv` or `jsonl`; default from the file name (.csv → csv), else jsonl. */
  format?: 'csv' | 'jsonl';
  /** Called with a row that cannot be used (no domain, no text), by line number. */
  onError?: (line: number, message: string) => void;
}

const DOMAIN_FIELDS = ['domain', 'company_domain', 'companyDomain', 'website', 'url', 'company'];
const TEXT_FIELDS = ['text', 'description', 'body', 'content'];

const first = (values: Record<string, unknown>, names: string[]): string | undefined => {
  for (const n of names) {
    const v = values[n];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return undefined;
};

/** Streams job posts and yields one SiteArtifacts per run of posts of one domain. */
export async function* readJobs(input: string | Readable, opts: JobsOptions = {}): AsyncGenerator<SiteArtifacts> {
  const format = opts.format ?? (typeof input === 'string' && /\.csv$/i.test(input) ? 'csv' : 'jsonl');
  const source = typeof input === 'string' ? createReadStream(input) : input;
  let current: SiteArtifacts | null = null;
  for await (const batch of readRecords(source, format, { present: new Set() })) {
    for (const event of batch) {
      if ('error' in event) {
        opts.onError?.(event.error.line, `${event.error.field}: ${event.error.message}`);
        continue;
      }
      const { line, values } = event;
      const rawDomain = first(values, DOMAIN_FIELDS);
      const domain = rawDomain ? normalizeDomain(rawDomain) : null;
      if (!domain) {
        opts.onError?.(line, rawDomain ? `domain: '${rawDomain.slice(0, 100)}' is not a domain` : `domain: missing (one of ${DOMAIN_FIELDS.join(', ')})`);
        continue;
      }
      const title = first(values, ['title', 'job_title', 'position']) ?? '';
      const text = first(values, TEXT_FIELDS) ?? '';
      if (!title && !text) {
        opts.onError?.(line, `text: missing (title or one of ${TEXT_FIELDS.join(', ')})`);
        continue;
      }
      const post = (title && text ? `${title}\n\n${text}` : title || text).slice(0, LIMITS.jobText);
      if (current && current.domain === domain && current.jobs!.length < LIMITS.jobs) {
        current.jobs!.push(post);
        continue;
      }
      if (current) yield current;
      current = { domain, pages: [], jobs: [post] };
    }
  }
  if (current) yield current;
}
