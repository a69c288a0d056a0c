// Every relative link in the project's documents points at a file that exists and, for a
// Markdown file with a #fragment, at a heading that exists there (GitHub's anchor rules:
// lower case, punctuation dropped, spaces to '-', a repeated heading gets -1, -2 …). Moving a
// section from one document to another breaks links silently; this finds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..', '..');

function markdownFiles(): string[] {
  const top = ['README.md', 'CONTRIBUTING.md'].filter((f) => fs.existsSync(path.join(ROOT, f)));
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : walk(rel);
      return e.name.endsWith('.md') ? [rel] : [];
    });
  return [...top, ...walk('docs'), ...walk('bench'), ...walk('clients')];
}

/** The text outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('anchors follow GitHub: punctuation dropped, spaces to hyphens', () => {
  assert.equal(anchorOf('Over HTTP: connecting, authorization, transport rules'), 'over-http-connecting-authorization-transport-rules');
  assert.equal(anchorOf('`POST /api/profiles/search`'), 'post-apiprofilessearch');
  assert.equal(anchorOf("Operations: the operator's guide"), 'operations-the-operators-guide');
});

test('every relative link in the documents reaches an existing file and heading', () => {
  const files = markdownFiles();
  assert.ok(files.length > 5, `found ${files.length} documents`);
  const problems: string[] = [];
  const cache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    if (!cache.has(file)) cache.set(file, anchors(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    return cache.get(file)!;
  };
  for (const file of files) {
    const text = prose(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
      const resolved = pathPart ? path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart))) : file;
      if (!fs.existsSync(path.join(ROOT, resolved))) {
        problems.push(`${file}: ${target} (no such file ${resolved})`);
        continue;
      }
      if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
        problems.push(`${file}: ${target} (no heading #${fragment} in ${resolved})`);
    }
  }
  assert.deepEqual(problems, []);
});
