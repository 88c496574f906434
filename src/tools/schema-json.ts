/**
 * The JSON Schema providers get for a tool's parameters: made in
 * `model/schema-json.ts`, shared with structured output.
 * @module
 */
export { parametersJsonSchema } from '../model/schema-json.js';
