// The company feed: query, item and response. Reused by the company_feed MCP tool.
import { z } from 'zod';
import { textInput } from './text.ts';
import { domainSchema } from './params.ts';
import { companyParamsSchema } from './company-products.ts';
import { defineOperation } from './operation.ts';

export const FEED_PAGE_SIZE = 20;
const FEED_CATEGORIES = ['NEWS', 'PRESS', 'FUNDING', 'ACQUISITION', 'PEOPLE', 'BLOG', 'VIDEOS'] as const;

const feedQuerySchema = z.object({
  paginationId: textInput(1000).optional().describe('Opaque cursor from the previous response; absent or empty = the newest items'),
});

export const feedInputSchema = z.object({
  companyDomain: domainSchema('Company domain'),
  paginationId: textInput(1000).nullish().describe('Opaque cursor from the previous response; absent or null = the newest items'),
});
export type FeedInput = z.output<typeof feedInputSchema>;

export const feedItemSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    date: z.string().describe('Publication time, ISO 8601'),
    sourceUrl: z.string().nullable(),
    publisherName: z.string().nullable(),
    publisherLogoUrl: z.string().nullable(),
    enclosureImageUrl: z.string().optional().describe('Present when the item has an image'),
    category: z.enum(FEED_CATEGORIES),
  })
  .meta({
    id: 'FeedItem',
    examples: [
      {
        id: 'fd_8f3a',
        title: 'Acme raises a $40M Series C',
        description: 'The round will fund expansion into Europe.',
        date: '2026-09-14T09:00:00.000Z',
        sourceUrl: 'https://news.example/acme-series-c',
        publisherName: 'News Example',
        publisherLogoUrl: null,
        category: 'FUNDING',
      },
    ],
  });
export type FeedItem = z.output<typeof feedItemSchema>;

export const feedSchema = z
  .object({
    paginationId: z.string().optional().describe('Cursor for the next (older) page; absent on the last page'),
    feeds: z.array(feedItemSchema),
  })
  .meta({ id: 'Feed', description: `Up to ${FEED_PAGE_SIZE} items, newest first` });
export type Feed = z.output<typeof feedSchema>;

// Operations -----------------------------------------------------------------------------------
export const companyFeedOp = defineOperation({
  id: 'companyFeed',
  summary: "A company's news feed",
  description: `Newest first, ${FEED_PAGE_SIZE} items a page (ties on the date ordered by id). Pass the returned \`paginationId\` to get the next, older page; the last page has none. Following cursors to the end yields every item exactly once. The cursor is opaque, signed and bound to the company: an edited cursor, one issued for another company or a malformed one is 400. Unknown company → 404.`,
  tag: 'Feed',
  input: feedInputSchema,
  output: feedSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/companies/:companyDomain/feed', params: companyParamsSchema, query: feedQuerySchema },
  mcp: {
    name: 'company_feed',
    title: 'Company news feed',
    description: "A company's news (funding, acquisitions, people moves, press), newest first, 20 a call; nextPage goes further back.",
  },
});

export const feedOperations = [companyFeedOp];
