// The console's modules are plain JavaScript checked by TypeScript (tsconfig.console.json:
// checkJs, strict), their API calls against the contract the typed client is generated from
// (src/console/public/js/contract.js): a field the console reads that an answer does not
// have, a missing path value, a wrong query parameter or body field fails here, in the test
// suite, with no network.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'tsconfig.console.json');
const MODULES = join(ROOT, 'src/console/public/js');

function consoleConfig(): ts.ParsedCommandLine {
  const { config, error } = ts.readConfigFile(CONFIG, ts.sys.readFile);
  assert.equal(error, undefined);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  assert.deepEqual(parsed.errors, []);
  return parsed;
}

/** The console's program; `extra` adds a module beside the others, for this test only. */
function consoleProgram(extra?: { file: string; text: string }): ts.Program {
  const parsed = consoleConfig();
  const host = ts.createCompilerHost(parsed.options);
  if (extra) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, ...rest) =>
      resolve(name) === extra.file ? ts.createSourceFile(name, extra.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS) : read(name, ...rest);
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => resolve(name) === extra.file || exists(name);
  }
  return ts.createProgram({ rootNames: extra ? [...parsed.fileNames, extra.file] : parsed.fileNames, options: parsed.options, host });
}

const format = (d: ts.Diagnostic) => {
  const where = d.file && d.start !== undefined ? `${d.file.fileName.slice(ROOT.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
  return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
};

test('every console module is checked: it says // @ts-check and tsconfig.console.json includes it', () => {
  const modules = readdirSync(MODULES).filter((f) => f.endsWith('.js'));
  assert.ok(modules.length >= 9, `only ${modules.length} modules under src/console/public/js`);
  for (const f of modules) assert.match(readFileSync(join(MODULES, f), 'utf8'), /^\/\/ @ts-check\n/u, `${f} starts with // @ts-check`);
  const checked = new Set(consoleConfig().fileNames.map((f) => resolve(f)));
  assert.deepEqual(
    modules.filter((f) => !checked.has(join(MODULES, f))),
    [],
  );
});

test('the console type-checks against the API contract: no diagnostics', () => {
  const program = consoleProgram();
  assert.deepEqual(ts.getPreEmitDiagnostics(program).map(format), []);
});

test('the check bites: a wrong call or a field the contract does not have is an error', () => {
  const file = join(MODULES, 'contract-probe.js');
  const text = `// @ts-check
import { get, post } from './api.js';
export async function probe() {
  await get('/companies/{companyDomain}/firmographics');
  await get('/companies/{companyDomain}/feed', { path: { companyDomain: 'acme.com' }, query: { cursor: 'x' } });
  await post('/companies/search', { body: { filter: { employeeRangeIn: ['11 - 50'] } } });
  const page = await post('/companies/search', { body: {} });
  return page.content[0]?.employees;
}
`;
  const diagnostics = ts.getPreEmitDiagnostics(consoleProgram({ file, text })).filter((d) => d.file && resolve(d.file.fileName) === file);
  const lines = diagnostics.map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
  // Path value missing; unknown query parameter; a band label the API does not have; a field
  // company search results do not have.
  assert.deepEqual(
    [...new Set(lines)].sort((a, b) => a - b),
    [4, 5, 6, 8],
    diagnostics.map(format).join('\n'),
  );
});
