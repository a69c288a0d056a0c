// `stacklens eval detect`, third measurement: the detector on real pages saved from real sites
// (test/fixtures/real-pages: two Apache-2.0 test suites' pages, labelled by hand from the evidence
// in each page; README.md there gives the rules). Only the HTML was saved — no response headers,
// cookies or DNS — so this measures what the markup and the scripts and links inside it show.
// Detections the page cannot confirm or deny are not scored: those carried only by an `implies`
// relation (WordPress → PHP) and those the labels mark unsure (whose S3 bucket an image is in).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { CompiledCatalog } from '../detect/catalog.ts';
import type { EvidenceSource } from '../technographics/evidence.ts';
import { evaluateDetector, type DetectEvalReport, type LabelledSite } from './detect.ts';

export const REAL_PAGES_DIR = new URL('../../test/fixtures/real-pages/', import.meta.url);

/** The goals the product set for the real pages (lower recall than the fixtures': real pages hide more). */
export const REAL_PAGE_GOALS = { precision: 0.95, recall: 0.85 } as const;

interface ManifestRow {
  id: string;
  source: string;
  path: string;
  commit: string;
  licence: string;
  licenceFiles: string[];
  file: string;
  /** Size and SHA-256 of the page as imported (before gzip). */
  bytes: number;
  sha256: string;
  url: string | null;
  domain: string | null;
}

export interface PageLabels {
  id: string;
  truth: Record<string, { sources: EvidenceSource[]; evidence: string; context: string }>;
  negatives: Record<string, { evidence: string; context: string }>;
  unsure: Record<string, string>;
}

interface RealPageSet {
  manifest: ManifestRow[];
  labels: PageLabels[];
}

const jsonLines = <T>(path: URL): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

export function readRealPageSet(dir: URL = REAL_PAGES_DIR): RealPageSet {
  return { manifest: jsonLines<ManifestRow>(new URL('manifest.jsonl', dir)), labels: jsonLines<PageLabels>(new URL('labels.jsonl', dir)) };
}

/** The labelled pages as the fixture scorer takes them; each page's HTML read from its gzip file. */
function realPageSites(set: RealPageSet, dir: URL = REAL_PAGES_DIR): LabelledSite[] {
  const rows = new Map(set.manifest.map((m) => [m.id, m]));
  return set.labels.map((label) => {
    const row = rows.get(label.id);
    if (!row) throw new Error(`real pages: ${label.id} is labelled but not in the manifest`);
    const domain = row.domain ?? 'unknown-site.invalid';
    const html = gunzipSync(readFileSync(new URL(row.file, dir))).toString('utf8');
    return {
      id: label.id,
      kind: row.source,
      artifact: { domain, url: row.url ?? `https://${domain}/`, html },
      truth: Object.fromEntries(Object.entries(label.truth).map(([name, t]) => [name, t.sources])),
      negatives: Object.keys(label.negatives),
    };
  });
}

interface RealPagesReport extends DetectEvalReport {
  /** Detections not scored: implied only, or of a technology the labels mark unsure on that page. */
  notScored: { implied: number; unsure: number };
}

export function evaluateRealPages(catalog: CompiledCatalog, dir: URL = REAL_PAGES_DIR): RealPagesReport {
  const set = readRealPageSet(dir);
  const unsure = new Map(set.labels.map((l) => [l.id, new Set(Object.keys(l.unsure))]));
  const notScored = { implied: 0, unsure: 0 };
  const report = evaluateDetector(realPageSites(set, dir), catalog, {
    notScored: (id, d) => {
      if (unsure.get(id)?.has(d.name)) return (notScored.unsure++, true);
      if (d.evidence.every((e) => e.ruleId.includes('/implies/'))) return (notScored.implied++, true);
      return false;
    },
  });
  return { ...report, notScored };
}
