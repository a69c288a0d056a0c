// The collectors: everything that turns the outside world into SiteArtifacts for
// the detector — the live fetcher (fetchSite) and the offline readers (HAR, WARC, job posts).
// This file is what other folders use of them; the readers are imported from their own files.
export { fetchSite, siteTarget, CollectError, type FetchSiteOptions } from './fetch-site.ts';
export { type NetworkPolicy } from './address.ts';
export { Politeness } from './politeness.ts';
export { requestOnce, checkTarget, FetchError } from './http.ts';
export { BlockedAddressError } from './address.ts';
export { makeResolver, DnsError } from './dns.ts';
