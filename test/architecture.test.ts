// The layering of src/ (CONTRIBUTING.md, "Architecture"), checked on every import in src/ (static, dynamic, `import type`
// and `export ... from`, read with the TypeScript compiler's own pre-processor): the doors
// (http/, mcp/, cli/, app.ts, main.ts) sit on top, services/ below them, store/,
// intelligence/ and the other modules below services, the contract (schemas/) and the
// kernel files at the bottom. An arrow back up is a design bug, and so is an import circle:
// a circle makes load order matter and two modules impossible to understand apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** `src/`-relative path with forward slashes, e.g. `store/db.ts`. */
const rel = (file: string) => relative(SRC, file).split(sep).join('/');

/** The file a relative specifier names (`./x.ts`, `./x.js` for a .ts file, a folder's index.ts). */
function resolveSpecifier(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface Edge { from: string; to: string }

function importGraph(): { files: string[]; edges: Edge[]; unresolved: string[] } {
  const files = sourceFiles(SRC).map(rel).sort();
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const file of files) {
    const abs = join(SRC, file);
    // readImportFiles + detectJavaScriptImports: import, import type, export from, import(), require().
    const { importedFiles } = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSpecifier(abs, fileName);
      if (!target) unresolved.push(`${file} → ${fileName}`);
      else edges.push({ from: file, to: rel(target) });
    }
  }
  return { files, edges, unresolved };
}

const graph = importGraph();

/** The folder (or kernel file) a module belongs to: `store/import/stage.ts` → `store`, `config.ts` → `config.ts`. */
const area = (file: string) => file.split('/')[0]!;

/** Imports from any of `from` into any of `to`, as "a → b" lines. */
function crossings(from: readonly string[], to: readonly string[]): string[] {
  return graph.edges.filter((e) => from.includes(area(e.from)) && to.includes(area(e.to))).map((e) => `${e.from} → ${e.to}`);
}

const DOORS = ['http', 'mcp', 'cli', 'app.ts', 'main.ts'] as const;
const allAreas = [...new Set(graph.files.map(area))];
const belowDoors = allAreas.filter((a) => !(DOORS as readonly string[]).includes(a));

test('the import graph is complete: every relative import names a file in src/', () => {
  assert.ok(graph.files.length > 100, `only ${graph.files.length} files found under src/`);
  assert.ok(graph.edges.length > graph.files.length);
  assert.deepEqual(graph.unresolved, []);
});

test('nothing below a door imports a door (http/, mcp/, cli/, app.ts, main.ts)', () => {
  // services, store, intelligence, schemas, auth, ingest, eval, llm and the kernel files.
  assert.ok(belowDoors.includes('services') && belowDoors.includes('schemas'));
  assert.deepEqual(crossings(belowDoors, DOORS), []);
});

test('the two protocol doors stand side by side: http/ and mcp/ import nothing of each other', () => {
  assert.deepEqual(crossings(['http'], ['mcp']), []);
  assert.deepEqual(crossings(['mcp'], ['http']), []);
});

test('store/ and schemas/ import nothing from services/', () => {
  assert.deepEqual(crossings(['store', 'schemas'], ['services']), []);
});

test('the contract is the kernel: schemas/ imports nothing from store/, services/, auth/ or the other upper layers', () => {
  assert.deepEqual(crossings(['schemas'], ['store', 'services', 'auth', 'ingest', 'eval', 'llm']), []);
});

test('intelligence/ is pure: it imports no store, service, auth, model client, importer or evaluation', () => {
  assert.deepEqual(crossings(['intelligence'], ['store', 'services', 'auth', 'ingest', 'eval', 'llm']), []);
  const io = /^(pg|pg-copy-streams|ioredis|@electric-sql\/.*|node:(fs|net|http|https|child_process)|fs|net|http|https)$/;
  const found = graph.files.filter((f) => area(f) === 'intelligence').flatMap((f) =>
    ts.preProcessFile(readFileSync(join(SRC, f), 'utf8'), true, true).importedFiles.filter((i) => io.test(i.fileName)).map((i) => `${f} → ${i.fileName}`));
  assert.deepEqual(found, []);
});

/** The detector proper: detect/ without its collectors (detect/collect/, which fetch and read files by design). */
const isDetector = (f: string) => area(f) === 'detect' && !f.startsWith('detect/collect/');

test('the detector (detect/) is pure: no store, service, auth or door; only the catalog loader reads files', () => {
  assert.deepEqual(crossings(['detect'], ['store', 'services', 'auth', 'llm', 'eval', 'http', 'mcp', 'cli']), []);
  const io = /^(pg|ioredis|@electric-sql\/.*|node:(fs|net|http|https|child_process)|fs|net|http|https)$/;
  const found = graph.files.filter((f) => isDetector(f) && f !== 'detect/catalog.ts').flatMap((f) =>
    ts.preProcessFile(readFileSync(join(SRC, f), 'utf8'), true, true).importedFiles.filter((i) => io.test(i.fileName)).map((i) => `${f} → ${i.fileName}`));
  assert.deepEqual(found, []);
});

test('the collectors (detect/collect/) feed the detector; the detector never imports them', () => {
  assert.deepEqual(graph.edges.filter((e) => isDetector(e.from) && e.to.startsWith('detect/collect/')).map((e) => `${e.from} → ${e.to}`), []);
});

test('the evaluations (eval/) are run from the command line only: the API never imports them', () => {
  assert.deepEqual(crossings(allAreas.filter((a) => a !== 'cli' && a !== 'eval'), ['eval']), []);
});

test('the language-model client (llm/) is called by services/ only', () => {
  assert.deepEqual(crossings(allAreas.filter((a) => a !== 'services' && a !== 'llm'), ['llm']), []);
});

test('store/ imports nothing from auth/ (Plan and the clock owned below auth)', () => {
  assert.deepEqual(crossings(['store'], ['auth']), []);
});

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)!.push(e.to);
  let counter = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>(), stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out;
}

test('cycle finder: finds a circle of three and a self-import, ignores a diamond', () => {
  const e = (from: string, to: string) => ({ from, to });
  const found = cycles(['a', 'b', 'c', 'd', 's', 'x', 'y'], [e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd'), e('s', 's'), e('x', 'y'), e('x', 'd'), e('y', 'd')]);
  assert.deepEqual(found.sort(), [['a', 'b', 'c'], ['s']]);
});

test('no import circle anywhere in src/', () => {
  assert.deepEqual(cycles(graph.files, graph.edges), []);
});
