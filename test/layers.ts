// The layering of src/ as data: every area (a folder of src/, or a kernel file at its root),
// what it holds and which areas it may import. test/architecture.test.ts holds every import of
// src/ to it (and finds no circle between areas); `npm run docs:layers` writes the table of
// CONTRIBUTING.md ("Architecture") and each folder's README.md from it, and the test fails when
// they differ. A new folder is refused until it is declared here.

export interface Area {
  /** A folder of src/ (`store`) or a kernel file at its root (`config.ts`). */
  name: string;
  /** What lives there (Markdown, one paragraph). */
  holds: string;
  /** The areas it may import; 'kernel' stands for every kernel area. */
  mayImport: readonly string[];
}

/** Files at the root of src/ (and telemetry/) that everything may import: they import only each other. */
export const KERNEL = [
  'bands.ts',
  'bulkhead.ts',
  'clock.ts',
  'config.ts',
  'countries.ts',
  'csv.ts',
  'domain.ts',
  'errors.ts',
  'operations.ts',
  'records.ts',
  'slug.ts',
  'threads.ts',
  'version.ts',
  'telemetry',
] as const;

/** From the top (the entry points) down; an area imports only areas listed after it. */
export const AREAS: readonly Area[] = [
  {
    name: 'main.ts',
    holds:
      'The command-line entry point (`stacklens`, `npm start`): starts the embedded database early (`cli/early-start.ts`), then loads the commander program of `cli/` (`cli/program.ts`).',
    mayImport: ['cli', 'store', 'db', 'kernel'],
  },
  {
    name: 'cli',
    holds:
      'One module per command (`serve`, `migrate`, `seed`, `import`, `refresh`, `eval`, `detect`, `observe`, `clients`, `keys`, `users`, `mcp`, `backup`, …): options, progress, exit codes; the work is done by the areas below. A command line loads only its own module (`commands.ts`: which module registers which command).',
    mayImport: ['app.ts', 'mcp', 'eval', 'services', 'ingest', 'backup', 'auth', 'store', 'db', 'schemas', 'detect', 'intelligence', 'kernel'],
  },
  {
    name: 'app.ts',
    holds: 'Builds the Fastify app (never listens): plugins, the REST routes, the MCP endpoint, the console.',
    mayImport: ['http', 'mcp', 'services', 'auth', 'store', 'db', 'schemas', 'kernel'],
  },
  {
    name: 'http',
    holds: `The REST door: routes served by walking the operation list, each record with its handler (\`routes/\`, \`route-config.ts\`); plugins in the order a request meets them: \`drain.ts\` (503 while shutting down), \`overload.ts\` (load shedding, and requests in flight per caller through \`in-flight.ts\`: per API client or console user, per address only without credentials), \`query-limits.ts\` (the request's database time limits), \`database-state.ts\` (one log line per outage change), errors, request log, \`request-limits.ts\` (414/431, duplicate credential headers), \`methods.ts\` (405 + Allow), \`metrics.ts\` (\`/metrics\`, request durations), auth, rate limit, OpenAPI; the bulkhead of each operation is taken in \`serve()\` (\`route-config.ts\`); replies (\`reply-serializer.ts\`: JSON.stringify, contract-checked in tests; \`reference-cache.ts\`: reference answers with ETag/304)`,
    mayImport: ['services', 'auth', 'store', 'db', 'schemas', 'kernel'],
  },
  {
    name: 'mcp',
    holds:
      "The MCP door: the Streamable HTTP endpoint (`http.ts` wires its parts in the order a request meets them: `transport-rules.ts`, `admission.ts` (authentication, the caller's share of requests in flight), `http-sessions.ts` (a request's session, over the shared store of `sessions.ts`), then `direct-call.ts` (a plain tools/call, without the SDK) or `sdk-call.ts` (a fresh SDK server and stateless transport); `rpc-error.ts` writes their JSON-RPC refusals; a GET opens the session's resumable stream of resource-updated notifications, `streams.ts`), the tools declared from the operation records (`registry.ts`, `tools/`) and listed short with `more_tools` for the rest (`toolsets.ts`), resources and prompts, results and errors as tool results, with links into the console (`console-links.ts`).",
    mayImport: ['services', 'auth', 'store', 'db', 'schemas', 'kernel'],
  },
  {
    name: 'eval',
    holds: `measurements against the demo world's hidden truth (\`stacklens eval\`, \`stacklens eval ai\`) and of the technology detector on its labelled fixtures (\`stacklens eval detect\`); nothing the API serves imports it`,
    mayImport: ['services', 'ingest', 'store', 'db', 'schemas', 'detect', 'intelligence', 'technographics', 'kernel'],
  },
  {
    name: 'services',
    holds: `one module per resource; the only callers of \`store/\`; \`admin.ts\` (the Admin API's clients, keys, plans, credits, over the same \`auth/\` functions as the CLI), \`audit.ts\` (\`adminAction\`: every admin change audited with its actor), \`usage.ts\` (per-client usage counted in memory, written in batches), \`jobs.ts\` (background refresh and import jobs), \`observations.ts\` (the detection log: record runs, derive installs), \`evidence.ts\`, \`detect.ts\` (\`POST /api/detect\`; \`detect-pool.ts\`, the worker threads that run detection off the event loop under a deadline that terminates them), \`population-pool.ts\` (the lookalikes' population, built on a worker thread), \`console-users.ts\` (the console's people)`,
    mayImport: ['ingest', 'llm', 'auth', 'store', 'db', 'schemas', 'detect', 'intelligence', 'technographics', 'kernel'],
  },
  {
    name: 'ingest',
    holds: `file importers, demo-world generator (its catalog is the core of \`catalog/technologies\`, the top-level files, not \`extended/\`; \`seed/generate.ts\` makes the companies batch by batch, on a thread of its own (\`generate-worker.ts\`, started by \`generator-thread.ts\`) while the seed's thread writes; \`seed/artifacts.ts\` renders each company's pages, DNS, account links and job posts from its hidden true stack (its applicant-tracking board: \`seed/job-posts.ts\`) and \`seed/observe.ts\` runs the detector over them and folds the observations into installs with \`technographics/installs.ts\`, so installs come from evidence; its adoption model is read from the annotations of \`catalog/categories.txt\` by \`seed/outline.ts\`), refresh job (the first one runs inside the world's bulk load: \`afterLoad\` in \`seed/index.ts\`)`,
    mayImport: ['auth', 'store', 'db', 'schemas', 'detect', 'intelligence', 'technographics', 'kernel'],
  },
  {
    name: 'backup',
    holds: `\`stacklens backup\` / \`restore\`: the file format with its checksums and manifest (\`file.ts\`) and the consistent dump and all-or-nothing, verified restore (\`run.ts\`)`,
    mayImport: ['store', 'db', 'kernel'],
  },
  {
    name: 'auth',
    holds: `\`counters.ts\` (the counters of rate limits, quotas and throttles, in memory or in Redis), tokens (audience-bound), the token endpoint, API keys, clients, the principal cache, rate limits, the throttles of failed authentication and sign-in (\`failed-auth.ts\`, \`sign-in-throttle.ts\`, counting client addresses as \`client-address.ts\` groups them), the MCP resource's metadata (RFC 9728), the console's people: \`passwords.ts\` (scrypt), \`console-sessions.ts\` (cookie sessions, CSRF), \`console-client.ts\` (the client the console acts through)`,
    mayImport: ['store', 'db', 'schemas', 'kernel'],
  },
  {
    name: 'llm',
    holds: `the one client of the optional language model (\`AI_BASE_URL\`); "ai" elsewhere names the AI helper endpoints`,
    mayImport: ['intelligence', 'kernel'],
  },
  {
    name: 'store',
    holds: `The SQL of the product, one module per table or resource (\`companies.ts\`, \`products.ts\`, \`observations.ts\`, \`visits.ts\`, \`purchases.ts\`, …) and feature modules for queries over several tables (\`intelligence.ts\`, \`ai.ts\`, \`seed.ts\`, \`digest.ts\`); the file import's staging and upserts (\`import/\`); \`change-notes.ts\`, what every writer of the world notes of its change in the same transaction (version bumps, world changes, events); \`backup.ts\`, the SQL of backups and restores. Raw parameterized SQL through the \`db/\` port, on PostgreSQL and PGlite alike.`,
    mayImport: ['db', 'schemas', 'intelligence', 'technographics', 'kernel'],
  },
  {
    name: 'db',
    holds: `The database engine and its port: \`db.ts\` (\`query\`, \`queryArrays\`, \`transaction(fn)\`, whose \`tx.copyFrom\` bulk-writes rows that \`copy-text.ts\` encodes in COPY's text format; the raw client only for the file import's streamed COPY; \`db.read\`, the read replica's pool with \`DATABASE_READ_URL\`, else the same database), the numbered SQL migrations (\`migrations/\`, \`migrate.ts\`), \`schema.ts\` (column declarations held to \`information_schema\` by a test), \`citus.ts\` (every table's placement on a Citus cluster, and the step of \`migrate\` that places them when the database has the extension), \`sql.ts\` (SQL fragments), \`health.ts\` (the readiness probe's checks), \`query-limits.ts\` (deadlines carried with the request's async context) and \`db-faults.ts\` (driver faults → 503, the availability monitor); embedded PGlite runs on a worker thread (\`pglite-thread.ts\` is the wire-protocol stream node-postgres talks over, \`pglite-worker.ts\` owns the database, \`pglite-copy.ts\` relays \`COPY … FROM STDIN\`, which PGlite runs only as one whole exchange), so a long statement never blocks the event loop; the process that owns a data folder holds its lock (\`lock.ts\`, \`data-dir.ts\`: private modes) and shares it with other local processes on a Unix socket (\`embedded-socket.ts\`: a transaction-mode pooler in front of the one PGlite session, with hold and idle limits, and the data-folder snapshot for backups).`,
    mayImport: ['kernel'],
  },
  {
    name: 'schemas',
    holds: `every input and output schema, paging helpers, CSV columns (derived from the schemas), the operation records (\`operation.ts\` is the type, \`operations.ts\` the list), plans and permissions`,
    mayImport: ['detect', 'intelligence', 'technographics', 'kernel'],
  },
  {
    name: 'detect',
    holds: `the technology detector: rule format and compiler (\`rules.ts\`: zod schema, literal prefilter, whose literals \`literals.ts\` finds in one pass of an Aho-Corasick automaton; \`pattern.ts\`: every pattern compiled for linear-time matching with re2js, so no page can make a rule backtrack; \`match-floor.ts\`: where a pattern's matches can start, so a search reads a tag, not the page up to it), the catalog loader (\`catalog.ts\`, the only file that reads files: \`catalog/technologies/*.json\` and \`extended/*.json\` plus an operator's \`--rules\`), the page scanner (\`page.ts\`, with \`script-urls.ts\`: the script addresses an inline loader inserts, read in one linear pass), the pure \`detect()\` (\`detect.ts\`), what one collection covers for the change rules (\`visit.ts\`: ok, partial or failed, and which page kinds were had whole) and the artifacts line format (\`artifacts.ts\`); \`collect/\` holds the collectors, the only part with I/O: \`fetch-site.ts\` (one site, SSRF-safe through \`address.ts\` and a pinned connect address), \`crawl.ts\` (a domain list: robots, politeness, resume), \`dns.ts\`, \`job-boards.ts\` (a site's applicant-tracking board, read through its public endpoint), \`render.ts\` with \`render-network.ts\` (the optional rendered pass: headless Chromium whose every request the collector fetches, inside the network policy), and the offline readers \`har.ts\`, \`warc.ts\`, \`jobs.ts\` (the detector never imports them; a test holds that)`,
    mayImport: ['technographics', 'kernel'],
  },
  {
    name: 'intelligence',
    holds:
      'Pure functions, no I/O: features and similarity, cohorts, the in-use confidence model, co-usage and related products, peer inference, the AI prompt parser (`prompt/`).',
    mayImport: ['technographics', 'kernel'],
  },
  {
    name: 'technographics',
    holds:
      'The vocabulary of "a company uses a technology", below every area that speaks it: the category taxonomy (`taxonomy.ts`, from `catalog/categories.txt`), evidence items, traces and how their weights combine, and their identity in the log (`evidence.ts`), observations, the rows of the log (`observations.ts`), and the fold of observations into installs, the specification the SQL derivation follows (`installs.ts`), and the fold of a company\'s dated visits into technology events: adoptions, drops and version changes by the rules users rely on (`changes.ts`).',
    mayImport: ['kernel'],
  },
  { name: 'operations.ts', holds: 'Weak secrets, the database named without its password: what an operator reads at start.', mayImport: ['config.ts'] },
  { name: 'config.ts', holds: 'The environment, parsed once into a typed configuration.', mayImport: ['bulkhead.ts'] },
  { name: 'bulkhead.ts', holds: 'Bulkheads: concurrent slots per kind of work, with a queue bound and a wait limit.', mayImport: ['errors.ts', 'telemetry'] },
  { name: 'errors.ts', holds: 'The typed errors services throw, each with a stable code.', mayImport: [] },
  {
    name: 'telemetry',
    holds: `the process's Prometheus metrics (prom-client); the layers record with one call each, \`http/plugins/metrics.ts\` serves them`,
    mayImport: [],
  },
  { name: 'bands.ts', holds: 'Employee and revenue bands: labels, bounds, order.', mayImport: [] },
  { name: 'clock.ts', holds: 'The clock (`nowDate`), settable in tests.', mayImport: [] },
  { name: 'countries.ts', holds: 'Countries: ISO codes, names, regions.', mayImport: [] },
  { name: 'csv.ts', holds: 'RFC 4180 CSV, streamed with constant memory, formula cells neutralized.', mayImport: [] },
  { name: 'domain.ts', holds: 'Domain names normalized once (case, scheme, `www.`, path, port, IDN).', mayImport: [] },
  { name: 'records.ts', holds: 'Records of a CSV or JSONL file streamed with their line numbers (imports, job-post files).', mayImport: [] },
  { name: 'slug.ts', holds: 'ASCII slugs for ids made from names.', mayImport: [] },
  { name: 'threads.ts', holds: "Where a worker thread's module loads from, source or built.", mayImport: [] },
  { name: 'version.ts', holds: 'The version of the package.', mayImport: [] },
];

/** Folders of src/ with no TypeScript module the server imports. */
export const APART: readonly Area[] = [
  {
    name: 'console',
    holds: `the web console: \`index.html\` (with the import map) and \`public/\` (plain ES modules and CSS, served as they are by \`http/routes/console.ts\` (sign-in: \`console-session.ts\`) with the vendor files of Preact, htm and uPlot from \`node_modules\`, and \`js/choices.js\`, the bands, cohorts and roles that route writes from the server's own lists); it calls the ordinary \`/api\` routes with the person's session cookie; \`tsconfig.console.json\` type-checks its modules against the API contract (\`js/contract.js\`)`,
    mayImport: [],
  },
];

const KERNEL_NAMES: readonly string[] = KERNEL;
const isKernel = (name: string) => KERNEL_NAMES.includes(name);
const shown = (name: string) => (name.endsWith('.ts') ? `\`${name}\`` : `\`${name}/\``);
const allowedList = (a: Area) => (a.mayImport.length === 0 ? 'nothing of src/' : a.mayImport.map((n) => (n === 'kernel' ? 'the kernel' : shown(n))).join(', '));

/** The areas `name` may import, with 'kernel' spelled out. */
export function allowedImports(name: string): Set<string> {
  const area = AREAS.find((a) => a.name === name);
  return new Set((area?.mayImport ?? []).flatMap((n) => (n === 'kernel' ? KERNEL : [n])));
}

/** The table of CONTRIBUTING.md, between its markers: one row per area, the kernel in one row. */
export function layersTable(): string {
  const rows = AREAS.filter((a) => !isKernel(a.name)).map((a) => `| ${shown(a.name)} | ${a.holds} | ${allowedList(a)} |`);
  const kernel = AREAS.filter((a) => isKernel(a.name)).map(
    (a) => `${shown(a.name)}: ${a.holds.replace(/\.$/, '')}${a.mayImport.length ? ` (imports ${a.mayImport.map(shown).join(', ')})` : ''}`,
  );
  return [
    '| area | holds | may import |',
    '| --- | --- | --- |',
    ...rows,
    `| the kernel | ${kernel.join('; ')} | each other, as noted |`,
    ...APART.map((a) => `| ${shown(a.name)} | ${a.holds} | nothing on the server imports it |`),
  ].join('\n');
}

/** The README.md of a folder of src/. */
export function folderReadme(area: Area): string {
  const importedBy = AREAS.filter((a) => a.mayImport.includes(area.name)).map((a) => shown(a.name));
  return [
    `# src/${area.name}/`,
    '',
    area.holds.charAt(0).toUpperCase() + area.holds.slice(1),
    '',
    `May import: ${allowedList(area)}.${importedBy.length ? ` Imported by: ${importedBy.join(', ')}.` : ''}`,
    '',
    `Written by \`npm run docs:layers\` from \`test/layers.ts\` (the layering the architecture test holds every import to); change it there. The whole map: [CONTRIBUTING.md](../../CONTRIBUTING.md#architecture).`,
    '',
  ].join('\n');
}

/** Every folder of src/ that gets a README.md. */
export const FOLDER_AREAS: readonly Area[] = [...AREAS.filter((a) => !a.name.endsWith('.ts')), ...APART];

export const TABLE_BEGIN = '<!-- layers:begin (written by npm run docs:layers from test/layers.ts) -->';
export const TABLE_END = '<!-- layers:end -->';
