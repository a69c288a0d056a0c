// The population of lookalikes is built on a worker thread: what comes back by structured clone
// is the Population the main thread would have built (maps, typed arrays, per-company arrays).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPopulation } from '../../src/intelligence/features.ts';
import { buildPopulationOffThread, type PopulationTask } from '../../src/services/population-pool.ts';

test('a population built on the worker thread equals the one built here', async () => {
  const products = ['crm', 'mail', 'chat', 'cdn'].map((id, i) => ({ id: `prd_${id}`, categoryId: `cat_${i % 2}` }));
  const companies = Array.from({ length: 40 }, (_, i) => ({
    id: `cmp_${i}`,
    industryId: i % 3 ? 'ind_soft' : 'ind_fin',
    sector: i % 3 ? 'Technology' : 'Finance',
    employeeBand: i % 2 ? '50 - 199' : null,
    revenueBand: null,
    country: i % 4 ? 'US' : 'DE',
    description: `Company ${i} builds ${i % 2 ? 'payroll software for teams' : 'banking platforms for lenders'}`,
    name: `Company ${i % 37}`,
    products: products.filter((_, k) => (i + k) % 3 !== 0).map((p) => p.id),
  }));
  const task: PopulationTask = { companies, products };
  const here = buildPopulation(task.companies, task.products);
  const there = await buildPopulationOffThread(task);
  assert.deepEqual(there, here);
  assert.ok(there.indexOf instanceof Map && there.stacks[1] instanceof Int32Array);
});
