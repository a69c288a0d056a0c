// Input formats of what belongs to a company: companies, firmographics, installs, people,
// contacts, feed items and defined cohorts.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { EMPLOYEE_BAND_LABELS, REVENUE_BAND_LABELS, employeeBand, employeeBandFor, inBand, revenueBand, revenueBandFor } from '../../../bands.ts';
import * as f from '../fields.ts';
import { defineKind, idFromDomain, issue } from './define.ts';

/** Feed item categories of the public API (the feed_items CHECK constraint holds the same list). */
const FEED_CATEGORIES = ['NEWS', 'PRESS', 'FUNDING', 'ACQUISITION', 'PEOPLE', 'BLOG', 'VIDEOS'] as const;

export const companies = defineKind(
  {
    id: f.id().optional(),
    domain: f.domain().required(),
    name: f.text(300).optional(),
    industry: f.text(200).optional(),
    employeeRange: f.label(EMPLOYEE_BAND_LABELS).optional(),
    employeeCount: f.int(0, 10_000_000).optional(),
    revenueRange: f.label(REVENUE_BAND_LABELS).optional(),
    revenueUsd: f.int(0, Number.MAX_SAFE_INTEGER).optional(),
    street: f.text(300).optional(),
    city: f.text(200).optional(),
    state: f.text(200).optional(),
    postalCode: f.text(40).optional(),
    country: f.country().optional(),
    phone: f.text(60).optional(),
    foundedYear: f.int(1600, 2100).optional(),
    website: f.url().optional(),
    logoUrl: f.url().optional(),
    linkedinUrl: f.url().optional(),
    crunchbaseUrl: f.url().optional(),
    description: f.text(10_000).optional(),
  },
  (r, ctx) => {
    // A band given with a count must contain it; a count alone implies its band.
    let employeeRange = r.employeeRange;
    if (r.employeeCount !== undefined) {
      const band = employeeRange === undefined ? employeeBandFor(r.employeeCount) : employeeBand(employeeRange)!;
      if (!inBand(band, r.employeeCount)) issue(ctx, 'employeeCount', `${r.employeeCount} is outside employeeRange '${employeeRange}'`);
      employeeRange = band.label;
    }
    let revenueRange = r.revenueRange;
    if (r.revenueUsd !== undefined) {
      const band = revenueRange === undefined ? revenueBandFor(r.revenueUsd) : revenueBand(revenueRange)!;
      if (!inBand(band, r.revenueUsd)) issue(ctx, 'revenueUsd', `${r.revenueUsd} is outside revenueRange '${revenueRange}'`);
      revenueRange = band.label;
    }
    return {
      id: r.id ?? idFromDomain('cmp_', r.domain),
      id_given: r.id !== undefined,
      domain: r.domain,
      name: r.name,
      industry: r.industry,
      employee_band: employeeRange,
      employee_count: r.employeeCount,
      revenue_band: revenueRange,
      revenue_usd: r.revenueUsd,
      street: r.street,
      city: r.city,
      state: r.state,
      postal_code: r.postalCode,
      country: r.country,
      phone: r.phone,
      founded_year: r.foundedYear,
      website: r.website,
      logo_url: r.logoUrl,
      linkedin_url: r.linkedinUrl,
      crunchbase_url: r.crunchbaseUrl,
      description: r.description,
    };
  },
);

// The native firmographic profile evolves: known fields are type-checked, others pass.
const s = z.string().optional();
const sn = z.union([z.string(), z.number()]).optional();
const profileSchema = z.looseObject({
  name: s,
  short_name: s,
  company_id: sn,
  company_type: s,
  description: s,
  employee_count: sn,
  founded_date: s,
  revenue: sn,
  facebook_link: s,
  linkedin_link: s,
  twitter_link: s,
  youtube_link: s,
  website: s,
  logo_url: s,
  profile_url: s,
  perm_id: s,
  industries: z.array(z.string()).optional(),
  sic_code: z.array(z.string()).optional(),
  ceo: z.looseObject({ first_name: s, last_name: s, image_url: s }).optional(),
  hq_address: z.looseObject({ city: s, country: s, phone: s, postal_code: s, state: s, street1: s }).optional(),
  stock: z.looseObject({ exchange: s, ticker: s }).optional(),
  funding: z.array(z.looseObject({ amount: s, date: s, type: s, undisclosed: s })).optional(),
  acquisition: z.array(z.looseObject({ name: z.string(), date: z.string(), amount: s, company_id: s, status: s, undisclosed: s, website: s })).optional(),
});

export const firmographics = defineKind({ companyDomain: f.domain().required(), profile: f.jsonObject().required() }, (r, ctx) => {
  const parsed = profileSchema.safeParse(r.profile);
  if (!parsed.success) for (const i of parsed.error.issues) issue(ctx, ['profile', ...i.path].join('.'), i.message);
  return { company_domain: r.companyDomain, profile: r.profile };
});

export const installs = defineKind(
  {
    companyDomain: f.domain().required(),
    productId: f.id().required(),
    firstVerified: f.timestamp().required(),
    lastVerified: f.timestamp().required(),
    hitCount: f.int(0, 2_000_000_000).optional(),
    intensity: f.int(0, 100).optional(),
    source: f.text(200).optional(),
    sources: f.list(50, 200).optional(),
  },
  (r, ctx) => {
    if (r.lastVerified < r.firstVerified) issue(ctx, 'lastVerified', `${r.lastVerified} is before firstVerified ${r.firstVerified}`);
    let sources = r.sources;
    if (r.source !== undefined) sources = sources?.includes(r.source) ? sources : [r.source, ...(sources ?? [])];
    return {
      company_domain: r.companyDomain,
      product_id: r.productId,
      first_verified: r.firstVerified,
      last_verified: r.lastVerified,
      hit_count: r.hitCount,
      intensity: r.intensity,
      sources,
    };
  },
);

export const people = defineKind(
  {
    id: f.id().required(),
    fullName: f.text(300).required(),
    title: f.text(300).optional(),
    seniority: f.text(100).optional(),
    function: f.text(100).optional(),
    companyDomain: f.domain().optional(),
    country: f.country().optional(),
    city: f.text(200).optional(),
    linkedinUrl: f.url().optional(),
  },
  (r) => ({
    id: r.id,
    full_name: r.fullName,
    title: r.title,
    seniority: r.seniority,
    function: r.function,
    company_domain: r.companyDomain,
    country: r.country,
    city: r.city,
    linkedin_url: r.linkedinUrl,
  }),
);

const emailValue = f.email().required();
const phoneValue = f.phone().required();

export const contacts = defineKind(
  {
    profileId: f.id().required(),
    kind: f.oneOf(['email', 'phone']).required(),
    value: f.text(320).required(),
    type: f.text(50).optional(),
    verified: f.bool().optional(),
  },
  (r, ctx) => {
    // Emails are stored lowercased so a re-import with other casing matches.
    const checked = (r.kind === 'email' ? emailValue : phoneValue).safeParse(r.value);
    if (!checked.success) issue(ctx, 'value', checked.error.issues[0]!.message);
    return { person_id: r.profileId, kind: r.kind, value: checked.success ? checked.data : r.value, type: r.type, verified: r.verified };
  },
);

export const feed = defineKind(
  {
    id: f.id().optional(),
    companyDomain: f.domain().required(),
    date: f.timestamp().required(),
    title: f.text(1000).required(),
    description: f.text(20_000).optional(),
    sourceUrl: f.url().optional(),
    publisherName: f.text(300).optional(),
    publisherLogoUrl: f.url().optional(),
    enclosureImageUrl: f.url().optional(),
    category: f.oneOf(FEED_CATEGORIES).optional(),
  },
  (r) => ({
    // Without an id, the item is identified by company, date and source (or title).
    id:
      r.id ??
      `fdi_${createHash('sha256')
        .update(`${r.companyDomain}\n${r.date}\n${r.sourceUrl ?? r.title}`)
        .digest('hex')
        .slice(0, 24)}`,
    company_domain: r.companyDomain,
    published_at: r.date,
    title: r.title,
    description: r.description,
    source_url: r.sourceUrl,
    publisher_name: r.publisherName,
    publisher_logo_url: r.publisherLogoUrl,
    enclosure_image_url: r.enclosureImageUrl,
    category: r.category,
  }),
);

export const cohorts = defineKind(
  {
    companyDomain: f.domain().required(),
    memberDomain: f.domain().required(),
    rank: f.int(1, 1_000_000).required(),
    score: f.num(-1e9, 1e9).optional(),
  },
  (r, ctx) => {
    if (r.memberDomain === r.companyDomain) issue(ctx, 'memberDomain', 'a company cannot be a member of its own cohort');
    return { company_domain: r.companyDomain, member_domain: r.memberDomain, rank: r.rank, score: r.score };
  },
);
