// The real `stacklens serve` process for lifecycle tests: spawned with tsx, its output kept,
// polled until /readyz answers 200.
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServeProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts `serve` on PGlite in `dataDir` (DATABASE_URL empty) unless env names a database.
 * Shedding on event-loop delay is off, as in the in-process test apps: it follows the
 * machine's load, not the test (a busy runner turned the shutdown test's requests into 503s).
 */
export function startServe(dataDir: string, port: number, env: Record<string, string> = {}): ServeProcess {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DEMO_COMPANIES: '200',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

export async function waitReady(server: ServeProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited with ${server.child.exitCode}: ${server.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/readyz`);
      // Ready, and its start-up summary read: the server writes it before it turns ready, but a
      // pipe may deliver the lines after /readyz has answered.
      if (res.status === 200 && server.output().includes('Stacklens is listening on')) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready');
}
