// What a company becomes in each CRM: HubSpot company properties and Salesforce Account fields,
// as the strings the CRM stores. Pure: the CSV exports and the write-back share it, so an
// import file and a direct sync write the same values.
//
// Standard fields use the CRM's own names and value lists: HubSpot's `industry` is an
// enumeration and Salesforce's `Industry` a picklist, so our industry is mapped to the nearest
// standard value (left empty when none is close) and always kept as it is in a custom field
// (`stacklens_industry`, `Stacklens_Industry__c`). Our own fields are custom properties with a
// `stacklens_` prefix (HubSpot) or `Stacklens_…__c` fields (Salesforce), which the CRM's
// administrator creates once (docs/lists.md, "Into the CRM", lists them).
import type { CrmAccountRow, CrmKind } from '../../store/crm.ts';

/** Our industry names → HubSpot's `industry` enumeration values. */
const HUBSPOT_INDUSTRY: Readonly<Record<string, string>> = {
  Software: 'COMPUTER_SOFTWARE',
  'IT Services & Consulting': 'INFORMATION_TECHNOLOGY_AND_SERVICES',
  'Internet & Online Services': 'INTERNET',
  Telecommunications: 'TELECOMMUNICATIONS',
  'Computer Hardware': 'COMPUTER_HARDWARE',
  Semiconductors: 'SEMICONDUCTORS',
  Banking: 'BANKING',
  'Financial Services': 'FINANCIAL_SERVICES',
  Insurance: 'INSURANCE',
  'Investment Management': 'INVESTMENT_MANAGEMENT',
  Accounting: 'ACCOUNTING',
  'Management Consulting': 'MANAGEMENT_CONSULTING',
  'Legal Services': 'LEGAL_SERVICES',
  'Staffing & Recruiting': 'STAFFING_AND_RECRUITING',
  'Marketing & Advertising': 'MARKETING_AND_ADVERTISING',
  'Architecture & Engineering': 'ARCHITECTURE_PLANNING',
  Construction: 'CONSTRUCTION',
  'Real Estate': 'REAL_ESTATE',
  'Industrial Machinery': 'MACHINERY',
  Automotive: 'AUTOMOTIVE',
  'Aerospace & Defense': 'AVIATION_AEROSPACE',
  Chemicals: 'CHEMICALS',
  'Consumer Goods': 'CONSUMER_GOODS',
  'Apparel & Fashion': 'APPAREL_FASHION',
  'Food & Beverage': 'FOOD_BEVERAGES',
  Retail: 'RETAIL',
  Hospitality: 'HOSPITALITY',
  Restaurants: 'RESTAURANTS',
  'Travel & Leisure': 'LEISURE_TRAVEL_TOURISM',
  'Transportation & Logistics': 'LOGISTICS_AND_SUPPLY_CHAIN',
  'Oil & Energy': 'OIL_ENERGY',
  'Renewables & Environment': 'RENEWABLES_ENVIRONMENT',
  Utilities: 'UTILITIES',
  'Hospitals & Health Care': 'HOSPITAL_HEALTH_CARE',
  Pharmaceuticals: 'PHARMACEUTICALS',
  Biotechnology: 'BIOTECHNOLOGY',
  'Medical Devices': 'MEDICAL_DEVICES',
  'Higher Education': 'HIGHER_EDUCATION',
  'E-Learning': 'E_LEARNING',
  'Media & Publishing': 'PUBLISHING',
  Entertainment: 'ENTERTAINMENT',
  'Nonprofit Organizations': 'NON_PROFIT_ORGANIZATION_MANAGEMENT',
  'Government Administration': 'GOVERNMENT_ADMINISTRATION',
  Agriculture: 'FARMING',
  'Mining & Metals': 'MINING_METALS',
  'Wholesale & Distribution': 'WHOLESALE',
};

/** Our industry names → Salesforce's standard `Industry` picklist values. */
const SALESFORCE_INDUSTRY: Readonly<Record<string, string>> = {
  Software: 'Technology',
  'IT Services & Consulting': 'Technology',
  'Internet & Online Services': 'Technology',
  Telecommunications: 'Telecommunications',
  'Computer Hardware': 'Electronics',
  Semiconductors: 'Electronics',
  Banking: 'Banking',
  'Financial Services': 'Finance',
  Insurance: 'Insurance',
  'Investment Management': 'Finance',
  Accounting: 'Finance',
  'Management Consulting': 'Consulting',
  'Architecture & Engineering': 'Engineering',
  Construction: 'Construction',
  'Industrial Machinery': 'Machinery',
  Automotive: 'Manufacturing',
  'Aerospace & Defense': 'Manufacturing',
  Chemicals: 'Chemicals',
  'Consumer Goods': 'Manufacturing',
  'Apparel & Fashion': 'Apparel',
  'Food & Beverage': 'Food & Beverage',
  Retail: 'Retail',
  'E-Commerce': 'Retail',
  Hospitality: 'Hospitality',
  Restaurants: 'Hospitality',
  'Travel & Leisure': 'Recreation',
  'Transportation & Logistics': 'Transportation',
  'Oil & Energy': 'Energy',
  'Renewables & Environment': 'Environmental',
  Utilities: 'Utilities',
  'Hospitals & Health Care': 'Healthcare',
  Pharmaceuticals: 'Healthcare',
  Biotechnology: 'Biotechnology',
  'Medical Devices': 'Healthcare',
  'Higher Education': 'Education',
  'E-Learning': 'Education',
  'Media & Publishing': 'Media',
  Entertainment: 'Entertainment',
  'Nonprofit Organizations': 'Not For Profit',
  'Government Administration': 'Government',
  Agriculture: 'Agriculture',
};

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string | null) => {
  if (!code) return '';
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
};
const num = (n: number | null) => (n === null ? '' : String(n));

/** "HubSpot (0.93); Stripe (0.88)": technologies in use, with confidence when known. */
function technologiesText(techs: CrmAccountRow['technologies']): string {
  return techs.map((t) => (t.confidence === null ? t.name : `${t.name} (${t.confidence.toFixed(2)})`)).join('; ');
}

/** Field names per CRM, in export column order: the record's key first. */
export const CRM_FIELDS: Readonly<Record<CrmKind, readonly string[]>> = {
  hubspot: [
    'domain',
    'name',
    'country',
    'industry',
    'numberofemployees',
    'annualrevenue',
    'stacklens_id',
    'stacklens_industry',
    'stacklens_employee_band',
    'stacklens_revenue_band',
    'stacklens_technologies',
  ],
  salesforce: [
    'Stacklens_Id__c',
    'Name',
    'Website',
    'BillingCountry',
    'Industry',
    'NumberOfEmployees',
    'AnnualRevenue',
    'Stacklens_Industry__c',
    'Stacklens_Employee_Band__c',
    'Stacklens_Revenue_Band__c',
    'Stacklens_Technologies__c',
  ],
};

/** The CRM record of one company: every field of CRM_FIELDS, '' for unknown. */
export function crmRecord(crm: CrmKind, a: CrmAccountRow): Record<string, string> {
  const industry = a.industry ?? '';
  const techs = technologiesText(a.technologies);
  if (crm === 'hubspot') {
    return {
      domain: a.domain,
      name: a.name ?? '',
      country: countryName(a.country),
      industry: HUBSPOT_INDUSTRY[industry] ?? '',
      numberofemployees: num(a.employeeCount),
      annualrevenue: num(a.revenueUsd),
      stacklens_id: a.id,
      stacklens_industry: industry,
      stacklens_employee_band: a.employeeBand ?? '',
      stacklens_revenue_band: a.revenueBand ?? '',
      stacklens_technologies: techs,
    };
  }
  return {
    Stacklens_Id__c: a.id,
    Name: a.name ?? a.domain,
    Website: a.domain,
    BillingCountry: countryName(a.country),
    Industry: SALESFORCE_INDUSTRY[industry] ?? '',
    NumberOfEmployees: num(a.employeeCount),
    AnnualRevenue: num(a.revenueUsd),
    Stacklens_Industry__c: industry,
    Stacklens_Employee_Band__c: a.employeeBand ?? '',
    Stacklens_Revenue_Band__c: a.revenueBand ?? '',
    Stacklens_Technologies__c: techs,
  };
}
