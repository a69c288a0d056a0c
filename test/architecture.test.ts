// The layering of src/ (test/layers.ts, drawn in CONTRIBUTING.md "Architecture"), checked on
// every import in src/ (static, dynamic, `import type` and `export ... from`, read with the
// TypeScript compiler's own pre-processor): each area imports only what the layering lets it,
// no two areas import each other round a circle, and no two files do either. An arrow back up
// is a design bug, and so is an import circle: a circle makes load order matter and two
// modules impossible to understand apart. The table and the folders' READMEs are written from
// the same data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { allowedImports, APART, AREAS, FOLDER_AREAS, folderReadme, KERNEL, layersTable, TABLE_BEGIN, TABLE_END } from './layers.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** `src/`-relative path with forward slashes, e.g. `db/db.ts`. */
const rel = (file: string) => relative(SRC, file).split(sep).join('/');

/** The file a relative specifier names (`./x.ts`, `./x.js` for a .ts file, a folder's index.ts). */
function resolveSpecifier(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface Edge {
  from: string;
  to: string;
}

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

const allAreas = [...new Set(graph.files.map(area))].sort();

test('the import graph is complete: every relative import names a file in src/', () => {
  assert.ok(graph.files.length > 100, `only ${graph.files.length} files found under src/`);
  assert.ok(graph.edges.length > graph.files.length);
  assert.deepEqual(graph.unresolved, []);
});

test('every area of src/ is declared in the layering, once, and the kernel is made of declared areas', () => {
  const declared = AREAS.map((a) => a.name);
  assert.equal(new Set(declared).size, declared.length, 'an area declared twice');
  // A folder apart may hold TypeScript no server module imports (the console's declarations).
  const apart = APART.map((a) => a.name);
  assert.deepEqual(
    allAreas.filter((a) => !declared.includes(a) && !apart.includes(a)),
    [],
    'areas of src/ missing from test/layers.ts',
  );
  assert.deepEqual(
    declared.filter((a) => !allAreas.includes(a)),
    [],
    'areas of test/layers.ts that src/ no longer has',
  );
  for (const k of KERNEL) assert.ok(declared.includes(k), `kernel area ${k} is declared`);
  for (const a of AREAS) for (const n of a.mayImport) assert.ok(n === 'kernel' || declared.includes(n), `${a.name} may import ${n}, which is not an area`);
  for (const a of APART) assert.ok(existsSync(join(SRC, a.name)), `src/${a.name}/ exists`);
});

test('every import between areas is one the layering allows', () => {
  const refused = graph.edges
    .filter((e) => area(e.from) !== area(e.to) && !allowedImports(area(e.from)).has(area(e.to)))
    .map((e) => `${e.from} → ${e.to} (${area(e.from)} may import: ${[...allowedImports(area(e.from))].join(', ') || 'nothing'})`);
  assert.deepEqual(refused, []);
});

test('the layering runs one way: an area may import only areas listed below it', () => {
  const order = AREAS.map((a) => a.name);
  const upward = AREAS.flatMap((a) => [...allowedImports(a.name)].filter((n) => order.indexOf(n) <= order.indexOf(a.name)).map((n) => `${a.name} → ${n}`));
  assert.deepEqual(upward, []);
});

test('no circle between areas (folders and kernel files)', () => {
  const areaEdges = [...new Set(graph.edges.filter((e) => area(e.from) !== area(e.to)).map((e) => `${area(e.from)}\u0000${area(e.to)}`))].map((k) => {
    const [from, to] = k.split('\u0000') as [string, string];
    return { from, to };
  });
  assert.deepEqual(cycles(allAreas, areaEdges), []);
});

test("the layering drawn in CONTRIBUTING.md and in each folder's README.md is written from the data (npm run docs:layers)", () => {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const begin = text.indexOf(TABLE_BEGIN),
    end = text.indexOf(TABLE_END);
  assert.ok(begin >= 0 && end > begin, 'CONTRIBUTING.md holds the layering markers');
  assert.equal(text.slice(begin + TABLE_BEGIN.length, end).trim(), layersTable(), 'CONTRIBUTING.md: run npm run docs:layers');
  for (const a of FOLDER_AREAS) {
    const file = join(SRC, a.name, 'README.md');
    assert.equal(existsSync(file) ? readFileSync(file, 'utf8') : '(missing)', folderReadme(a), `src/${a.name}/README.md: run npm run docs:layers`);
  }
});

test('intelligence/ is pure: it imports no store, service, auth, model client, importer or evaluation', () => {
  assert.deepEqual(crossings(['intelligence'], ['store', 'services', 'auth', 'ingest', 'eval', 'llm']), []);
  const io = /^(pg|pg-copy-streams|ioredis|@electric-sql\/.*|node:(fs|net|http|https|child_process)|fs|net|http|https)$/;
  const found = graph.files
    .filter((f) => area(f) === 'intelligence')
    .flatMap((f) =>
      ts
        .preProcessFile(readFileSync(join(SRC, f), 'utf8'), true, true)
        .importedFiles.filter((i) => io.test(i.fileName))
        .map((i) => `${f} → ${i.fileName}`),
    );
  assert.deepEqual(found, []);
});

/** The detector proper: detect/ without its collectors (detect/collect/, which fetch and read files by design). */
const isDetector = (f: string) => area(f) === 'detect' && !f.startsWith('detect/collect/');

test('the detector (detect/) is pure: no store, service, auth or door; only the catalog loader reads files', () => {
  assert.deepEqual(crossings(['detect'], ['store', 'services', 'auth', 'llm', 'eval', 'http', 'mcp', 'cli']), []);
  const io = /^(pg|ioredis|@electric-sql\/.*|node:(fs|net|http|https|child_process)|fs|net|http|https)$/;
  const found = graph.files
    .filter((f) => isDetector(f) && f !== 'detect/catalog.ts')
    .flatMap((f) =>
      ts
        .preProcessFile(readFileSync(join(SRC, f), 'utf8'), true, true)
        .importedFiles.filter((i) => io.test(i.fileName))
        .map((i) => `${f} → ${i.fileName}`),
    );
  assert.deepEqual(found, []);
});

test('technographics/ is the vocabulary, not a worker: no I/O but reading the taxonomy file, no package but the hash', () => {
  const found = graph.files
    .filter((f) => area(f) === 'technographics')
    .flatMap((f) =>
      ts
        .preProcessFile(readFileSync(join(SRC, f), 'utf8'), true, true)
        .importedFiles.filter(
          (i) => !i.fileName.startsWith('.') && !(i.fileName === 'node:crypto' || (i.fileName === 'node:fs' && f === 'technographics/taxonomy.ts')),
        )
        .map((i) => `${f} → ${i.fileName}`),
    );
  assert.deepEqual(found, []);
});

test('the collectors (detect/collect/) feed the detector; the detector never imports them', () => {
  assert.deepEqual(
    graph.edges.filter((e) => isDetector(e.from) && e.to.startsWith('detect/collect/')).map((e) => `${e.from} → ${e.to}`),
    [],
  );
});

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)!.push(e.to);
  let counter = 0;
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    onStack = new Set<string>(),
    stack: string[] = [];
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
  const found = cycles(
    ['a', 'b', 'c', 'd', 's', 'x', 'y'],
    [e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd'), e('s', 's'), e('x', 'y'), e('x', 'd'), e('y', 'd')],
  );
  assert.deepEqual(found.sort(), [['a', 'b', 'c'], ['s']]);
});

test('no import circle anywhere in src/', () => {
  assert.deepEqual(cycles(graph.files, graph.edges), []);
});
