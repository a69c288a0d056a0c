// The plain artifacts file: JSON Lines, one site per line, as a crawler or an export writes it.
// `{ domain, url, status, headers: {lower-case name: value}, cookies: [Set-Cookie values], html,
// dns: { MX, TXT, CNAME, A, AAAA, NS }, jobs: [job-post text], scripts: [script URLs loaded] }`. Validated per line, so one bad
// line is reported with its number and the rest of the file still runs.
import { z } from 'zod';
import type { SiteArtifacts } from './types.ts';

const records = z.array(z.string().max(4096)).max(1000).optional();

export const artifactLineSchema = z.object({
  domain: z.string().min(1).max(253),
  url: z.string().url().optional().describe('the page the html, headers and cookies came from (default https://{domain}/)'),
  status: z.number().int().min(0).max(999).optional(),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  cookies: z.array(z.string()).optional(),
  html: z.string().optional(),
  scripts: z.array(z.string().max(2048)).max(1000).optional().describe('URLs of scripts the page loaded (a network log), matched like <script src>'),
  dns: z.object({ MX: records, TXT: records, CNAME: records, A: records, AAAA: records, NS: records }).strict().optional(),
  jobs: z.array(z.string()).optional(),
});
export type ArtifactLine = z.infer<typeof artifactLineSchema>;

export function toSiteArtifacts(line: ArtifactLine): SiteArtifacts {
  const headers = Object.fromEntries(Object.entries(line.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const hasPage = line.html !== undefined || line.headers !== undefined || line.cookies !== undefined || line.url !== undefined || line.scripts !== undefined;
  return {
    domain: line.domain.toLowerCase(),
    pages: hasPage
      ? [
          {
            url: line.url ?? `https://${line.domain}/`,
            status: line.status,
            headers,
            cookies: line.cookies,
            html: line.html,
            ...(line.scripts ? { scripts: line.scripts } : {}),
          },
        ]
      : [],
    dns: line.dns,
    jobs: line.jobs,
  };
}

/** Parses one line; the error message names the field and the rule. */
export function parseArtifactLine(text: string): { ok: true; site: SiteArtifacts } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not JSON: ${(err as Error).message}` };
  }
  const parsed = artifactLineSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${issue.path.length ? issue.path.join('.') : 'line'}: ${issue.message}` };
  }
  return { ok: true, site: toSiteArtifacts(parsed.data) };
}
