// The collectors: everything that turns the outside world into SiteArtifacts for
// the detector — the live fetcher (fetchSite) and the offline readers (HAR, WARC, job posts).
export { fetchSite, siteTarget, defaultUserAgent, CollectError, type FetchSiteOptions } from './fetch-site.ts';
export { checkUrl, isAllowedAddress, addressRange, compileAllowList, BlockedAddressError, type NetworkPolicy } from './address.ts';
export { makeResolver, collectDns, DEFAULT_DKIM_SELECTORS, resolveAddresses, DnsError, type DnsResolver, type DnsOptions } from './dns.ts';
export { FetchError } from './http.ts';
export { Politeness, RobotsCache } from './politeness.ts';
export { crawl, CrawlState, type CrawlOptions, type CrawlResult } from './crawl.ts';
export { readHar } from './har.ts';
export { readWarc, WarcError, parseHttpResponse, type WarcOptions } from './warc.ts';
export { readJobs, type JobsOptions } from './jobs.ts';
