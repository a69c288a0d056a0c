// The web console: /console serves one HTML page whose ES modules load as they are (no build
// step): our own files from src/console/public, and the few vendor ESM files it imports
// (Preact, htm, uPlot) straight from node_modules, mapped by the page's import map. `/`
// redirects a browser (Accept: text/html) there. The page's CSP allows only same-origin
// scripts, styles and connections, plus the import map by its hash (no 'unsafe-inline').
// One module is written here rather than read: js/choices.js, the server's own lists of
// bands, cohorts and roles, so the console never spells one of them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { VERSION } from '../../version.ts';
import { EMPLOYEE_BAND_LABELS, REVENUE_BAND_LABELS } from '../../bands.ts';
import { COHORT_TYPES } from '../../schemas/intelligence.ts';
import { ROLES } from '../../schemas/roles.ts';

const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'console', 'public');
const require = createRequire(import.meta.url);

/** Vendor files by the name the import map uses: only these leave node_modules. */
function vendorFiles(): Map<string, string> {
  const pkg = (name: string) => {
    // Not every package exports its package.json: walk up from its entry point instead.
    let dir = dirname(require.resolve(name));
    while (!existsSync(join(dir, 'package.json')) || (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name) {
      if (dirname(dir) === dir) throw new Error(`console: package ${name} not found`);
      dir = dirname(dir);
    }
    return dir;
  };
  return new Map([
    ['preact.mjs', join(pkg('preact'), 'dist', 'preact.mjs')],
    ['hooks.mjs', join(pkg('preact'), 'hooks', 'dist', 'hooks.mjs')],
    ['htm.mjs', join(pkg('htm'), 'dist', 'htm.mjs')],
    ['htm-preact.mjs', join(pkg('htm'), 'preact', 'index.mjs')],
    ['uplot.mjs', join(pkg('uplot'), 'dist', 'uPlot.esm.js')],
    ['uplot.css', join(pkg('uplot'), 'dist', 'uPlot.min.css')],
  ]);
}

/** The Content-Security-Policy of the console page, given the import map's text. */
function consoleCsp(importMap: string): string {
  const hash = createHash('sha256').update(importMap).digest('base64');
  return [
    "default-src 'none'",
    "base-uri 'none'",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "font-src 'self'",
    "manifest-src 'self'",
    `script-src 'self' 'sha256-${hash}'`,
    "script-src-attr 'none'",
    "style-src 'self'",
  ].join('; ');
}

/** The page, with the version stamped into asset URLs (cache busting), and its CSP. */
function consolePage(): { html: string; csp: string } {
  const html = readFileSync(join(PUBLIC_DIR, '..', 'index.html'), 'utf8').replaceAll('__VERSION__', encodeURIComponent(VERSION));
  const map = /<script type="importmap">([\s\S]*?)<\/script>/u.exec(html);
  if (!map) throw new Error('console index.html has no import map');
  return { html, csp: consoleCsp(map[1]!) };
}

/** Where the console imports its choices from (`./choices.js` beside its modules). */
export const CHOICES_URL = '/console/assets/js/choices.js';

/**
 * The choices the console offers (its band checkboxes, cohort pickers, role selects) as an ES
 * module written from the lists the API validates with. Its types, as the API contract names
 * them, are in src/console/public/js/choices.d.ts.
 */
function consoleChoicesModule(): string {
  const lists = { EMPLOYEE_BANDS: EMPLOYEE_BAND_LABELS, REVENUE_BANDS: REVENUE_BAND_LABELS, COHORTS: COHORT_TYPES, ROLES };
  return [
    '// Written by the server (http/routes/console.ts) from bands.ts, schemas/intelligence.ts and schemas/roles.ts.',
    ...Object.entries(lists).map(([name, list]) => `export const ${name} = Object.freeze(${JSON.stringify(list)});`),
    '',
  ].join('\n');
}

function wantsHtml(accept: string | undefined): boolean {
  return typeof accept === 'string' && /\btext\/html\b/iu.test(accept);
}

export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  const page = consolePage();
  const vendor = vendorFiles();
  const choices = consoleChoicesModule();
  const choicesTag = `"${createHash('sha256').update(choices).digest('base64url')}"`;
  const sendPage = (reply: import('fastify').FastifyReply) =>
    reply.header('content-security-policy', page.csp).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page.html);

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (wantsHtml(request.headers.accept)) return reply.redirect('/console', 302);
    return reply
      .code(404)
      .send({ status: 404, error: 'Not Found', message: 'Nothing here: the API is under /api, its documentation under /docs, the web console under /console' });
  });
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => sendPage(reply));

  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/console/assets/',
    decorateReply: true,
    index: false,
    list: false,
    dotfiles: 'deny',
    // Our modules import each other without a version in the URL: revalidate (ETag) on every
    // load, so an upgrade never mixes old and new files. Vendor URLs carry the version.
    maxAge: 0,
    schemaHide: true,
  });
  // Revalidated like the files beside it: the server's lists change only with an upgrade.
  app.get(CHOICES_URL, { schema: { hide: true } }, async (request, reply) => {
    reply.header('etag', choicesTag).header('cache-control', 'public, max-age=0');
    if (request.headers['if-none-match'] === choicesTag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(choices);
  });
  app.get<{ Params: { file: string } }>('/console/vendor/:file', { schema: { hide: true } }, async (request, reply) => {
    const file = vendor.get(request.params.file);
    if (!file) return reply.code(404).send({ status: 404, error: 'Not Found', message: `No vendor file ${request.params.file}` });
    return reply.sendFile(file.split('/').pop()!, dirname(file), { maxAge: '1d' });
  });
}
