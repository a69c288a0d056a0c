import ts from 'typescript';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';
const walk = (d) => readdirSync(d).flatMap((n) => { const p = join(d, n); if (n === 'node_modules') return []; return statSync(p).isDirectory() ? walk(p) : /\.(ts|mjs)$/.test(p) ? [p] : []; });
const all = ['src', 'test', 'bench', 'scripts'].filter(existsSync).flatMap(walk).map((f) => resolve(f));
const res = (from, spec) => { const b = resolve(dirname(from), spec); for (const c of [b, b.replace(/\.js$/, '.ts'), b + '.ts', join(b, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c; return null; };
const exportsOf = new Map(); const used = new Map(); const star = new Set();
const use = (f, n) => { if (!used.has(f)) used.set(f, new Set()); used.get(f).add(n); };
for (const f of all) {
  const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const ex = [];
  for (const st of sf.statements) {
    const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) ?? [] : [];
    const isExp = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (isExp) {
      if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) ex.push(d.name.getText());
      else if (st.name) ex.push(st.name.getText());
    }
    if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && st.moduleSpecifier.text.startsWith('.')) {
      const t = res(f, st.moduleSpecifier.text); if (!t) continue;
      if (ts.isImportDeclaration(st)) {
        const c = st.importClause; if (!c) continue;
        if (c.name) use(t, 'default');
        const nb = c.namedBindings;
        if (nb && ts.isNamespaceImport(nb)) star.add(t);
        if (nb && ts.isNamedImports(nb)) for (const e of nb.elements) use(t, (e.propertyName ?? e.name).text);
      } else {
        if (!st.exportClause) star.add(t);
        else if (ts.isNamedExports(st.exportClause)) for (const e of st.exportClause.elements) { use(t, (e.propertyName ?? e.name).text); ex.push(e.name.text); }
      }
    }
  }
  // dynamic import('...') : mark all
  readFileSync(f, 'utf8').replace(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g, (m, s) => { const t = res(f, s); if (t) star.add(t); return m; });
  if (f.includes('/src/')) exportsOf.set(f, ex);
}
for (const [f, ex] of exportsOf) {
  if (star.has(f)) continue;
  const u = used.get(f) ?? new Set();
  const src = readFileSync(f, 'utf8');
  for (const n of ex) if (!u.has(n)) {
    const local = (src.match(new RegExp(`\\b${n}\\b`, 'g')) ?? []).length;
    console.log(relative(process.cwd(), f), n, local > 1 ? '(used locally)' : '(UNUSED)');
  }
}
