/**
 * JSON out of model replies: finding and validating it (`json-parse.ts`) and
 * asking again until a reply holds it (`json-generate.ts`).
 * @module
 */
export * from './json-generate.js';
export * from './json-parse.js';
