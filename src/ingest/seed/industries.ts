// The fixed industry taxonomy (ids ind_*), with what the generator needs per industry:
// share of companies, size and maturity leanings, revenue per employee, SIC codes, and
// words for names and descriptions.

export type SizeTier = 'small' | 'mid' | 'large' | 'enterprise';
export const SIZE_TIERS: readonly SizeTier[] = ['small', 'mid', 'large', 'enterprise'];
export type Maturity = 'laggard' | 'mainstream' | 'leading';
export const MATURITIES: readonly Maturity[] = ['laggard', 'mainstream', 'leading'];
export type OrgKind = 'company' | 'nonprofit' | 'government' | 'education';

export interface Industry {
  id: string;
  name: string;
  sector: string;
  weight: number;
  /** Relative weights of small / mid / large / enterprise segments. */
  sizes: [number, number, number, number];
  /** Relative weights of laggard / mainstream / leading segments. */
  maturity: [number, number, number];
  /** Median revenue per employee, USD. */
  revenuePerEmployee: number;
  sic: string[];
  kind: OrgKind;
  /** Nouns that end a company name ("Hartmann Logistics"). */
  nouns: string[];
  /** What they sell and to whom, for descriptions and news. */
  offerings: string[];
  customers: string[];
}

const w = (s: string) => s.split(',').map((x) => x.trim());

function ind(
  slug: string, name: string, sector: string, weight: number,
  sizes: [number, number, number, number], maturity: [number, number, number], rpe: number,
  sic: string, nouns: string, offerings: string, customers: string, kind: OrgKind = 'company',
): Industry {
  return { id: `ind_${slug}`, name, sector, weight, sizes, maturity, revenuePerEmployee: rpe, sic: w(sic), kind, nouns: w(nouns), offerings: w(offerings), customers: w(customers) };
}

export const INDUSTRIES: readonly Industry[] = [
  ind('software', 'Software', 'Technology', 7, [5, 4, 2, 1], [1, 3, 5], 220_000, '7372', 'Software, Labs, Technologies, Systems, Cloud, Digital', 'workflow automation software, analytics platforms, developer tools, cloud applications, mobile apps', 'mid-market companies, enterprises, developers, small businesses'),
  ind('it_services', 'IT Services & Consulting', 'Technology', 5, [5, 4, 2, 1], [1, 4, 3], 140_000, '7371, 7373', 'IT, Solutions, Consulting, Systems, Networks, Tech', 'managed IT services, cloud migration, systems integration, cybersecurity consulting', 'small businesses, public sector agencies, enterprises'),
  ind('internet', 'Internet & Online Services', 'Technology', 3, [5, 3, 2, 1], [1, 3, 5], 250_000, '7374', 'Online, Digital, Media, Hub, Net', 'online marketplaces, digital platforms, subscription services', 'consumers, online shoppers, creators'),
  ind('telecom', 'Telecommunications', 'Technology', 2, [2, 3, 3, 2], [2, 4, 2], 300_000, '4813, 4812', 'Telecom, Communications, Networks, Connect, Mobile', 'broadband, mobile plans, fiber networks, unified communications', 'households, businesses, carriers'),
  ind('hardware', 'Computer Hardware', 'Technology', 1.5, [3, 3, 2, 1], [1, 4, 3], 280_000, '3571, 3577', 'Devices, Systems, Electronics, Hardware, Computing', 'servers, storage arrays, networking equipment, rugged devices', 'data centers, enterprises, OEMs'),
  ind('semiconductors', 'Semiconductors', 'Technology', 1, [2, 3, 3, 2], [1, 3, 4], 400_000, '3674', 'Semiconductor, Micro, Silicon, Devices', 'chips, sensors, power semiconductors, RF components', 'device makers, automotive suppliers, OEMs'),
  ind('banking', 'Banking', 'Financial Services', 2.5, [3, 3, 3, 2], [3, 4, 1], 350_000, '6021, 6022', 'Bank, Savings Bank, Financial, Bancorp, Trust', 'business banking, mortgages, deposit accounts, treasury services', 'households, small businesses, corporates'),
  ind('financial_services', 'Financial Services', 'Financial Services', 3, [5, 3, 2, 1], [2, 4, 2], 330_000, '6199, 6211', 'Capital, Financial, Partners, Finance, Credit', 'lending, payments, wealth management, brokerage services', 'consumers, small businesses, investors'),
  ind('insurance', 'Insurance', 'Financial Services', 2, [3, 3, 3, 2], [3, 4, 1], 380_000, '6311, 6331', 'Insurance, Mutual, Assurance, Underwriters', 'commercial insurance, life insurance, property and casualty coverage', 'families, businesses, fleet operators'),
  ind('investment', 'Investment Management', 'Financial Services', 1.5, [6, 3, 1, 0.5], [2, 4, 2], 600_000, '6282, 6799', 'Capital, Partners, Asset Management, Investments, Advisors', 'private equity funds, asset management, venture capital', 'institutional investors, family offices, pension funds'),
  ind('accounting', 'Accounting', 'Professional Services', 2, [7, 3, 1, 0.3], [3, 4, 1], 140_000, '8721', 'CPAs, Accounting, Tax Advisors, & Co., Audit', 'audit, tax advisory, bookkeeping, payroll services', 'small businesses, family-owned companies, nonprofits'),
  ind('consulting', 'Management Consulting', 'Professional Services', 3, [6, 3, 1, 0.5], [1, 4, 3], 200_000, '8742', 'Consulting, Advisory, Partners, Group, Strategy', 'strategy consulting, operations improvement, digital transformation', 'executives, private equity firms, public agencies'),
  ind('legal', 'Legal Services', 'Professional Services', 2, [7, 3, 1, 0.3], [4, 4, 1], 220_000, '8111', 'Law, LLP, Legal, & Partners, Attorneys', 'corporate law, litigation, intellectual property, employment law', 'corporations, startups, individuals'),
  ind('staffing', 'Staffing & Recruiting', 'Professional Services', 2, [6, 4, 2, 0.5], [2, 4, 2], 120_000, '7361, 7363', 'Staffing, Talent, Recruiting, People, Workforce', 'temporary staffing, executive search, recruitment process outsourcing', 'hiring managers, HR teams, enterprises'),
  ind('marketing_agency', 'Marketing & Advertising', 'Professional Services', 2.5, [7, 3, 1, 0.3], [1, 3, 4], 130_000, '7311, 8743', 'Agency, Creative, Media, Studio, Communications', 'brand strategy, performance marketing, creative production, PR', 'consumer brands, B2B companies, retailers'),
  ind('architecture', 'Architecture & Engineering', 'Professional Services', 1.5, [6, 3, 1, 0.3], [3, 4, 1], 140_000, '8711, 8712', 'Architects, Engineering, Design, Associates', 'architectural design, structural engineering, urban planning', 'developers, municipalities, builders'),
  ind('construction', 'Construction', 'Industrials', 3, [6, 3, 2, 0.5], [5, 3, 1], 250_000, '1542, 1623', 'Construction, Builders, Contracting, Building, Civil', 'commercial construction, civil works, renovation, infrastructure projects', 'property developers, municipalities, homeowners'),
  ind('real_estate', 'Real Estate', 'Real Estate', 2.5, [6, 3, 1, 0.5], [3, 4, 1], 300_000, '6531, 6512', 'Properties, Realty, Real Estate, Estates, Living', 'property management, commercial leasing, residential development', 'tenants, investors, homebuyers'),
  ind('industrial_machinery', 'Industrial Machinery', 'Manufacturing', 2.5, [3, 4, 2, 1], [4, 4, 1], 260_000, '3559, 3569', 'Machinery, Industries, Engineering, Manufacturing, Works', 'packaging machines, industrial automation, pumps and compressors', 'manufacturers, food processors, utilities'),
  ind('automotive', 'Automotive', 'Manufacturing', 1.5, [2, 3, 3, 2], [3, 4, 2], 350_000, '3714, 5511', 'Automotive, Motors, Mobility, Components', 'auto parts, vehicle systems, dealerships, EV components', 'carmakers, fleet owners, drivers'),
  ind('aerospace', 'Aerospace & Defense', 'Manufacturing', 1, [2, 3, 3, 2], [3, 4, 2], 330_000, '3728, 3812', 'Aerospace, Aviation, Defense, Dynamics', 'aircraft components, avionics, defense systems, MRO services', 'airlines, defense agencies, aircraft makers'),
  ind('chemicals', 'Chemicals', 'Manufacturing', 1.2, [2, 3, 3, 1], [3, 4, 1], 450_000, '2819, 2869', 'Chemicals, Materials, Chemical, Polymers', 'specialty chemicals, coatings, polymers, industrial gases', 'manufacturers, farmers, pharmaceutical companies'),
  ind('consumer_goods', 'Consumer Goods', 'Manufacturing', 2, [4, 3, 2, 1], [2, 4, 2], 300_000, '2844, 3942', 'Brands, Goods, Products, Co.', 'personal care products, household goods, toys, home décor', 'retailers, consumers, distributors'),
  ind('apparel', 'Apparel & Fashion', 'Consumer', 1.5, [5, 3, 1, 0.5], [2, 4, 3], 180_000, '2339, 5651', 'Apparel, Fashion, Wear, Studio, Clothing', 'fashion apparel, footwear, accessories, sportswear', 'shoppers, department stores, online retailers'),
  ind('food_beverage', 'Food & Beverage', 'Consumer', 2.5, [5, 3, 2, 1], [3, 4, 1], 300_000, '2099, 2086', 'Foods, Beverages, Brewing, Farms, Kitchen', 'packaged foods, beverages, craft beer, dairy products', 'grocery chains, restaurants, consumers'),
  ind('retail', 'Retail', 'Consumer', 4, [6, 3, 2, 1], [3, 4, 2], 200_000, '5311, 5399', 'Stores, Retail, Market, Outfitters, Supply', 'home goods, sporting goods, groceries, electronics retail', 'shoppers, families, hobbyists'),
  ind('ecommerce', 'E-Commerce', 'Consumer', 2.5, [6, 3, 1, 0.5], [1, 3, 5], 280_000, '5961', 'Shop, Store, Direct, Online, Co.', 'direct-to-consumer brands, online stores, subscription boxes', 'online shoppers, gift buyers, subscribers'),
  ind('hospitality', 'Hospitality', 'Consumer', 2, [5, 3, 2, 0.5], [4, 4, 1], 90_000, '7011', 'Hotels, Resorts, Hospitality, Inn, Suites', 'hotels, resorts, serviced apartments, event venues', 'travelers, event planners, corporate guests'),
  ind('restaurants', 'Restaurants', 'Consumer', 2, [7, 3, 1, 0.3], [5, 3, 1], 70_000, '5812', 'Kitchen, Grill, Restaurant Group, Eatery, Bistro', 'casual dining, quick-service restaurants, catering', 'diners, families, event hosts'),
  ind('travel', 'Travel & Leisure', 'Consumer', 1.2, [5, 3, 1, 0.5], [2, 4, 2], 200_000, '4724, 7999', 'Travel, Tours, Journeys, Adventures, Holidays', 'tour operations, travel booking, leisure experiences', 'travelers, corporate travel managers, families'),
  ind('logistics', 'Transportation & Logistics', 'Industrials', 3, [4, 4, 2, 1], [4, 4, 1], 200_000, '4213, 4731', 'Logistics, Freight, Transport, Shipping, Cargo', 'freight forwarding, warehousing, last-mile delivery, trucking', 'retailers, manufacturers, e-commerce brands'),
  ind('energy', 'Oil & Energy', 'Energy', 1.5, [3, 3, 3, 2], [4, 4, 1], 600_000, '1311, 2911', 'Energy, Petroleum, Resources, Power', 'oil and gas production, refining, energy trading', 'utilities, industrial buyers, distributors'),
  ind('renewables', 'Renewables & Environment', 'Energy', 1.5, [5, 3, 1, 0.5], [1, 4, 3], 280_000, '4911, 4953', 'Solar, Energy, Renewables, Wind, Power', 'solar installations, wind farms, battery storage, recycling', 'utilities, homeowners, municipalities'),
  ind('utilities', 'Utilities', 'Energy', 1, [2, 3, 3, 2], [4, 4, 1], 450_000, '4931, 4941', 'Utilities, Power, Water, Electric, Gas', 'electricity distribution, water services, natural gas supply', 'households, businesses, municipalities'),
  ind('hospitals', 'Hospitals & Health Care', 'Healthcare', 3.5, [4, 4, 2, 1], [4, 4, 1], 120_000, '8062, 8011', 'Health, Medical Center, Clinic, Health System, Care', 'hospital care, outpatient clinics, specialty medicine, home health', 'patients, insurers, employers'),
  ind('pharma', 'Pharmaceuticals', 'Healthcare', 1.5, [3, 3, 2, 2], [2, 4, 3], 500_000, '2834', 'Pharma, Therapeutics, Pharmaceuticals, Laboratories', 'generic drugs, specialty pharmaceuticals, clinical research', 'hospitals, pharmacies, patients'),
  ind('biotech', 'Biotechnology', 'Healthcare', 1.5, [6, 3, 1, 0.5], [1, 3, 5], 400_000, '2836, 8731', 'Bio, Therapeutics, Biosciences, Genomics', 'gene therapies, diagnostics, biologics, research tools', 'researchers, hospitals, pharma partners'),
  ind('medical_devices', 'Medical Devices', 'Healthcare', 1.5, [4, 3, 2, 1], [2, 4, 2], 320_000, '3841, 3845', 'Medical, Devices, Surgical, Diagnostics, Health', 'surgical instruments, imaging systems, wearable monitors', 'hospitals, clinics, surgeons'),
  ind('higher_education', 'Higher Education', 'Education', 2, [2, 4, 3, 1], [3, 4, 2], 110_000, '8221', 'University, College, Institute, School', 'degree programs, research, continuing education', 'students, researchers, alumni', 'education'),
  ind('elearning', 'E-Learning', 'Education', 1.5, [6, 3, 1, 0.3], [1, 3, 5], 180_000, '8299', 'Learning, Academy, Education, Edu, Courses', 'online courses, corporate training, tutoring platforms', 'learners, HR teams, schools'),
  ind('media', 'Media & Publishing', 'Media', 2, [5, 3, 2, 0.5], [2, 4, 3], 200_000, '2711, 2721', 'Media, Publishing, Press, News, Studios', 'news publishing, magazines, podcasts, digital media', 'readers, advertisers, subscribers'),
  ind('entertainment', 'Entertainment', 'Media', 1.2, [5, 3, 1, 0.5], [2, 3, 3], 250_000, '7812, 7929', 'Entertainment, Studios, Pictures, Games, Productions', 'film production, live events, video games, streaming', 'audiences, gamers, broadcasters'),
  ind('nonprofit', 'Nonprofit Organizations', 'Public & Nonprofit', 2, [6, 3, 1, 0.3], [5, 3, 1], 80_000, '8399, 8699', 'Foundation, Alliance, Trust, Society, Fund', 'community programs, advocacy, grants, humanitarian aid', 'communities, donors, volunteers', 'nonprofit'),
  ind('government', 'Government Administration', 'Public & Nonprofit', 1.5, [2, 4, 3, 1], [5, 4, 0.5], 100_000, '9111, 9199', 'City of, County, Department, Authority, Agency', 'public services, permits, transportation, public safety', 'residents, businesses, visitors', 'government'),
  ind('agriculture', 'Agriculture', 'Industrials', 1, [6, 3, 1, 0.5], [5, 3, 1], 220_000, '0100, 0700', 'Farms, Agri, Harvest, Growers, Seeds', 'crop production, agricultural equipment, seeds, agritech', 'farmers, food processors, distributors'),
  ind('mining', 'Mining & Metals', 'Industrials', 0.8, [2, 3, 3, 2], [4, 4, 1], 500_000, '1000, 3312', 'Mining, Metals, Resources, Minerals, Steel', 'metal mining, steel products, aggregates, mineral processing', 'manufacturers, builders, traders'),
  ind('wholesale', 'Wholesale & Distribution', 'Industrials', 2, [5, 4, 2, 0.5], [4, 4, 1], 450_000, '5045, 5084', 'Distribution, Supply, Wholesale, Trading, Distributors', 'industrial supplies, electronics distribution, foodservice distribution', 'retailers, contractors, manufacturers'),
];

