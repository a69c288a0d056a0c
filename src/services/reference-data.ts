// The version of the reference data (industries, categories, vendors, products), bumped by
// the database in the same transaction as any write to them: what the HTTP reference cache
// (http/reference-cache.ts) compares to know whether a kept answer is still current.
export { readReferenceVersion as referenceDataVersion } from '../store/reference-version.ts';
