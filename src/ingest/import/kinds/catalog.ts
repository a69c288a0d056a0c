// Input formats of the catalog kinds: industries, categories, vendors, products.
import * as f from '../fields.ts';
import { defineKind, idFromDomain, issue } from './define.ts';

export const industries = defineKind({ id: f.id().required(), name: f.text(200).required(), sector: f.text(200).optional() }, (r) => ({
  id: r.id,
  name: r.name,
  sector: r.sector,
}));

export const categories = defineKind(
  { id: f.id().required(), name: f.text(200).required(), parentId: f.id().optional(), description: f.text(2000).optional() },
  (r, ctx) => {
    if (r.parentId === r.id) issue(ctx, 'parentId', 'a category cannot be its own parent');
    return { id: r.id, name: r.name, parent_id: r.parentId, description: r.description };
  },
);

export const vendors = defineKind(
  {
    id: f.id().optional(),
    domain: f.domain().required(),
    name: f.text(300).required(),
    website: f.url().optional(),
    logoUrl: f.url().optional(),
    description: f.text(5000).optional(),
  },
  (r) => ({
    id: r.id ?? idFromDomain('ven_', r.domain),
    id_given: r.id !== undefined,
    domain: r.domain,
    name: r.name,
    website: r.website,
    logo_url: r.logoUrl,
    description: r.description,
  }),
);

export const products = defineKind(
  {
    id: f.id().required(),
    vendorDomain: f.domain().optional(),
    vendorId: f.id().optional(),
    categoryId: f.id().required(),
    name: f.text(300).required(),
    shortName: f.text(100).optional(),
    description: f.text(10_000).optional(),
    features: f.list(200, 300).optional(),
    aliases: f.list(50, 200).optional(),
    reviewCount: f.int(0, 2_000_000_000).optional(),
    starRating: f.num(0, 5).optional(),
    avgRating: f.num(0, 5).optional(),
    imageUrl: f.url().optional(),
    productUrl: f.url().optional(),
    publicDetailUrl: f.url().optional(),
  },
  (r, ctx) => {
    if (r.vendorDomain === undefined && r.vendorId === undefined) issue(ctx, 'vendorDomain', 'is required (or vendorId)');
    return {
      id: r.id,
      vendor_domain: r.vendorDomain,
      vendor_id: r.vendorId,
      category_id: r.categoryId,
      name: r.name,
      short_name: r.shortName,
      description: r.description,
      features: r.features,
      aliases: r.aliases,
      review_count: r.reviewCount,
      star_rating: r.starRating,
      avg_rating: r.avgRating,
      image_url: r.imageUrl,
      product_url: r.productUrl,
      public_detail_url: r.publicDetailUrl,
    };
  },
);
