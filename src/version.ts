// The service's version, read from package.json once: the OpenAPI document, the MCP server
// info and /healthz all report this value, so they cannot disagree.
import { readFileSync } from 'node:fs';

/** package.json sits one level above this file both in src/ (tsx) and in dist/ (build). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
