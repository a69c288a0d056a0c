// Prompt understanding: the public surface of the parser (see parse.ts for how it works).
export { parsePrompt, companyCandidates, MAX_PROMPT_CHARS } from './parse.ts';
export { groundModelQuery } from './ground.ts';
export { describeQuery } from './describe.ts';
export { compileCatalog } from './catalog-index.ts';
export * from './schema.ts';
