// Compile-time checks of the client's types (npm run typecheck fails if one breaks): paths,
// parameters and bodies are checked against the document, answers are typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStacklensClient, type StacklensClient } from '../../clients/typescript/src/index.ts';

/** Never called: only type-checked. */
async function typed(client: StacklensClient): Promise<void> {
  const category = await client.get('/api/categories/{categoryId}', { params: { path: { categoryId: 'cat_crm' } } });
  const id: string = category.id;
  // @ts-expect-error answers are typed: a category has no such field
  void category.vendorDomain;
  // @ts-expect-error a required path parameter cannot be left out
  await client.get('/api/companies/{companyDomain}/firmographics');
  // @ts-expect-error an unknown path is refused
  await client.get('/api/companies');
  // @ts-expect-error search answers are pages, not arrays
  (await client.post('/api/companies/search', {})).map(() => 0);
  // @ts-expect-error body fields are checked
  await client.post('/api/companies/search', { body: { countries: 'DE' } });
  for await (const company of client.paginate.searchCompanies({ countries: ['DE'] })) {
    const name: string | null = company.name;
    void name;
  }
  for await (const item of client.paginate.feed('acme.com')) {
    const title: string = item.title;
    void title;
  }
  void id;
}

test('the client builds in both credential modes without a request', () => {
  const withKey = createStacklensClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
  const withSecret = createStacklensClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'c', clientSecret: 's' });
  assert.equal(typeof withKey.get, 'function');
  assert.equal(typeof withSecret.paginate.feed, 'function');
  assert.equal(typeof typed, 'function');
});
