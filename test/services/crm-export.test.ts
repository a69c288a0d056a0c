// CRM-shaped import files: the CRM's own column names, an external id column, one row per company.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { crmExportCsv } from '../../src/services/crm/export.ts';
import type { CrmAccountRow } from '../../src/store/crm.ts';

const acme: CrmAccountRow = {
  id: 'co_1',
  domain: 'acme.example',
  name: 'Acme, Inc.',
  country: 'US',
  industry: 'Software',
  employeeCount: 250,
  employeeBand: '201-500',
  revenueUsd: 40_000_000,
  revenueBand: '$10M-$50M',
  technologies: [
    { name: 'HubSpot', confidence: 0.934 },
    { name: 'Stripe', confidence: null },
  ],
};
const blank: CrmAccountRow = {
  ...acme,
  id: 'co_2',
  domain: 'blank.example',
  name: null,
  country: null,
  industry: 'Nonexistent',
  employeeCount: null,
  revenueUsd: null,
  technologies: [],
};

test('HubSpot company import: property names, mapped industry, one row per company', async () => {
  const csv = await text(crmExportCsv('hubspot', [acme, blank]));
  const [header, row1, row2] = csv.trimEnd().split('\r\n');
  assert.equal(
    header,
    'stacklens_id,domain,name,country,industry,numberofemployees,annualrevenue,stacklens_industry,stacklens_employee_band,stacklens_revenue_band,stacklens_technologies',
  );
  assert.equal(row1, 'co_1,acme.example,"Acme, Inc.",United States,COMPUTER_SOFTWARE,250,40000000,Software,201-500,$10M-$50M,HubSpot (0.93); Stripe');
  assert.equal(row2, 'co_2,blank.example,,,,,,Nonexistent,201-500,$10M-$50M,', 'an industry HubSpot has no value for stays in the custom property');
});

test('Salesforce Account import: field API names and the external id field', async () => {
  const csv = await text(crmExportCsv('salesforce', [acme]));
  const [header, row] = csv.trimEnd().split('\r\n');
  assert.equal(
    header,
    'Stacklens_Id__c,Name,Website,BillingCountry,Industry,NumberOfEmployees,AnnualRevenue,Stacklens_Industry__c,Stacklens_Employee_Band__c,Stacklens_Revenue_Band__c,Stacklens_Technologies__c',
  );
  assert.equal(row, 'co_1,"Acme, Inc.",acme.example,United States,Technology,250,40000000,Software,201-500,$10M-$50M,HubSpot (0.93); Stripe');
});
