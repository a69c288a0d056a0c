// The firmographic profile: the native (evolving, nested) shape plus its simplified common fields.
// Every field is optional and unknown fields pass through: the shape evolves, and clients
// must check for presence.
import { z } from 'zod';
import { companyParamsSchema } from './company-products.ts';
import { defineOperation } from './operation.ts';

const s = z.string();
const opt = <T extends z.ZodType>(t: T) => t.optional();

export const firmographicNativeShape = {
  acquisition: opt(
    z.array(
      z.looseObject({
        amount: opt(s),
        company_id: opt(s),
        date: s,
        name: s,
        status: opt(s),
        undisclosed: opt(s),
        website: opt(s),
      }),
    ),
  ),
  ceo: opt(z.looseObject({ first_name: opt(s), last_name: opt(s), image_url: opt(s) })),
  company_id: opt(z.number()),
  company_type: opt(s),
  description: opt(s),
  employee_count: opt(s),
  founded_date: opt(s),
  facebook_link: opt(s),
  linkedin_link: opt(s),
  twitter_link: opt(s),
  youtube_link: opt(s),
  website: opt(s),
  logo_url: opt(s),
  profile_url: opt(s),
  perm_id: opt(s),
  funding: opt(z.array(z.looseObject({ amount: opt(s), date: opt(s), type: opt(s), undisclosed: opt(s) }))),
  hq_address: opt(z.looseObject({ city: opt(s), country: opt(s), phone: opt(s), postal_code: opt(s), state: opt(s), street1: opt(s) })),
  industries: opt(z.array(s)),
  sic_code: opt(z.array(s)),
  name: opt(s),
  short_name: opt(s),
  revenue: opt(s),
  stock: opt(z.looseObject({ exchange: opt(s), ticker: opt(s) })),
};

const firmographicCommonShape = {
  id: opt(s.describe('Company id (opaque)')),
  domain: opt(s.describe('Primary key across endpoints')),
  industry: opt(s.nullable()),
  employeeRange: opt(s.nullable().describe('Employee band label')),
  revenueRange: opt(s.nullable().describe('Revenue band label')),
  foundedYear: opt(z.number().int().nullable()),
  hqCountry: opt(s.nullable().describe('ISO-2')),
  hqCity: opt(s.nullable()),
  linkedinUrl: opt(s.nullable()),
  crunchbaseUrl: opt(s.nullable()),
};

export const firmographicsSchema = z.looseObject({ ...firmographicNativeShape, ...firmographicCommonShape }).meta({
  id: 'Firmographics',
  description:
    'The native firmographic profile, with the simplified common fields (domain, industry, employeeRange, revenueRange, foundedYear, hqCountry, hqCity, linkedinUrl, crunchbaseUrl) always filled from the company record. Fields may be absent; more may appear.',
});
export type Firmographics = z.output<typeof firmographicsSchema>;

// Operations -----------------------------------------------------------------------------------
export const companyFirmographicsOp = defineOperation({
  id: 'companyFirmographics',
  summary: "A company's firmographic profile",
  description:
    'The native profile (acquisition, ceo, funding, hq_address, industries, stock...) when one was imported; otherwise the native fields the company record can fill. The simplified common fields (domain, industry, employeeRange, revenueRange, foundedYear, hqCountry, hqCity, linkedinUrl, crunchbaseUrl) are always present. Unknown company → 404.',
  tag: 'Firmographics',
  input: companyParamsSchema,
  output: firmographicsSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/companies/:companyDomain/firmographics', params: companyParamsSchema },
  mcp: {
    name: 'company_firmographics',
    title: 'Company firmographics',
    description: "A company's profile: industry, size and revenue bands, headquarters, founding year, description, funding. Fields can be absent.",
  },
});

export const firmographicsOperations = [companyFirmographicsOp];
