// The deployment recipes (Dockerfile, compose.yaml, deploy/stacklens.service) refer to files
// and scripts that exist, start what `npm run build` produces, and set only variables the
// configuration reads (the configuration table of docs/operations.md, test/config.test.ts). No image is
// built here: the machine this runs on may have no registry access.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ENV_VARIABLES } from '../src/config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
const buildConfig = JSON.parse(read('tsconfig.build.json')) as { compilerOptions: { rootDir: string; outDir: string } };
/** Variables that are not the service's own: Node's. */
const NOT_OURS = new Set(['NODE_ENV']);

/** dist/main.js ← src/main.ts: what `npm run build` writes for an entry the recipes start. */
function builtFrom(distFile: string): string {
  const { rootDir, outDir } = buildConfig.compilerOptions;
  assert.ok(distFile.startsWith(`${outDir}/`), `${distFile} is under ${outDir}/`);
  return path.join(rootDir, distFile.slice(outDir.length + 1)).replace(/\.js$/, '.ts');
}

function assertOurs(names: string[], where: string): void {
  assert.ok(names.length > 0, `${where} sets variables`);
  for (const name of names) assert.ok(NOT_OURS.has(name) || ENV_VARIABLES.includes(name), `${where} sets ${name}, which the configuration does not read`);
}

test('Dockerfile: multi-stage, copies what exists, builds with npm run build, runs dist as a non-root user with a /healthz check', () => {
  const dockerfile = read('Dockerfile');
  const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
  assert.ok(stages.length >= 2, 'multi-stage');
  assert.ok(
    stages.every((image) => /^node:20(-slim)?$/.test(image)),
    `Node 20 images: ${stages}`,
  );
  for (const [, sources] of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) {
    for (const source of sources!.split(/\s+/)) assert.ok(fs.existsSync(path.join(ROOT, source)), `COPY ${source}: exists`);
  }
  assert.match(dockerfile, /RUN npm run build/);
  assert.ok(pkg.scripts.build, 'package.json has a build script');
  assert.match(dockerfile, /npm ci --omit=dev/, 'production dependencies only in the final image');
  const entry = /^ENTRYPOINT \["node", "([^"]+)"\]/m.exec(dockerfile)?.[1];
  assert.ok(entry && fs.existsSync(path.join(ROOT, builtFrom(entry))), `ENTRYPOINT ${entry} is built from a source file`);
  assert.match(dockerfile, /^CMD \["serve"\]/m);
  const user = /^USER (\S+)/m.exec(dockerfile.split(/^FROM /m).at(-1)!)?.[1];
  assert.ok(user && user !== 'root' && user !== '0', 'the final stage runs as a non-root user');
  assert.match(dockerfile, /^HEALTHCHECK .*\n?.*\/healthz/m);
  const env = [...dockerfile.matchAll(/^ENV ([\s\S]*?)(?<!\\)\n/gm)].flatMap((m) => [...m[1]!.matchAll(/([A-Z_][A-Z0-9_]*)=/g)].map((x) => x[1]!));
  assertOurs(env, 'Dockerfile ENV');
});

test('.dockerignore keeps secrets, data and dependencies out of the build context, and nothing the build needs', () => {
  const ignored = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const name of ['.env', 'data', 'node_modules', '.git', 'dist']) assert.ok(ignored.includes(name), name);
  for (const needed of ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'])
    assert.ok(!ignored.includes(needed), needed);
});

test('compose.yaml: the app built from this Dockerfile beside PostgreSQL and Redis, with variables the configuration reads', () => {
  const compose = read('compose.yaml');
  const services = [...compose.matchAll(/^ {2}([a-z][\w-]*):\s*$/gm)].map((m) => m[1]!);
  for (const s of ['app', 'postgres', 'redis']) assert.ok(services.includes(s), `service ${s}`);
  const app = compose.split(/^ {2}app:\s*$/m)[1]!.split(/^ {2}\S/m)[0]!;
  assert.match(app, /^ {4}build: \.$/m);
  assert.ok(fs.existsSync(path.join(ROOT, 'Dockerfile')));
  const environment = app.split(/^ {4}environment:\s*$/m)[1]!.split(/^ {4}\S/m)[0]!;
  const names = [...environment.matchAll(/^ {6}([A-Z_][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  assertOurs(names, 'compose.yaml app environment');
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'HOST']) assert.ok(names.includes(name), name);
  assert.match(environment, /DATABASE_URL: postgres:\/\/.+@postgres:5432\//, 'the app reaches the postgres service');
  assert.match(environment, /REDIS_URL: redis:\/\/redis:6379/);
  assert.doesNotMatch(compose, /POSTGRES_PASSWORD: (?!\$\{)/, 'no literal database password');
  assert.match(app, /stop_grace_period: \d+s/, 'docker stop waits for the drain');
});

test('deploy/stacklens.service: starts the built entry as its own user, hardened, with variables the configuration reads', () => {
  const unit = read('deploy/stacklens.service');
  const exec = /^ExecStart=\S*node (\S+) serve$/m.exec(unit)?.[1];
  assert.ok(exec, 'ExecStart runs node … serve');
  const workdir = /^WorkingDirectory=(\S+)$/m.exec(unit)?.[1]!;
  assert.ok(exec.startsWith(`${workdir}/`));
  assert.ok(fs.existsSync(path.join(ROOT, builtFrom(exec.slice(workdir.length + 1)))), `${exec} is built from a source file`);
  assert.match(unit, /^User=stacklens$/m);
  for (const option of [
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    'ProtectHome=yes',
    'PrivateTmp=yes',
    'CapabilityBoundingSet=',
    'StateDirectory=stacklens',
  ]) {
    assert.ok(unit.includes(`\n${option}\n`), option);
  }
  assert.match(unit, /^RestartPreventExitStatus=2$/m, 'a configuration error (exit 2) is not retried');
  const env = [...unit.matchAll(/^Environment=([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  const documented = [...unit.matchAll(/^#\s+([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  assertOurs([...env, ...documented], 'deploy/stacklens.service');
  assert.equal(/^Environment=DATA_DIR=(\S+)$/m.exec(unit)?.[1], '/var/lib/stacklens', 'DATA_DIR is the state directory');
});
