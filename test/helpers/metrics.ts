// Reads one series of the app's own /metrics (Prometheus text), for tests that count refusals.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

/** The value of the series `name` with exactly these labels (in this order), 0 when absent. */
export async function metricValue(app: FastifyInstance, name: string, labels: Record<string, string>): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200, res.body);
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = res.body.split('\n').find((l) => l.startsWith(`${name}{${want}} `));
  return line ? Number(line.split(' ')[1]) : 0;
}
