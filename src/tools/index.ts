export * from './arguments.js';
export * from './error-category.js';
export type { CallContext } from './invoke.js';
export { type JsonSchemaOptions, type JsonSchemaParameters, jsonSchema } from './json-schema.js';
export * from './output.js';
export * from './paths.js';
export {
  type PreparedCall,
  type PreparedCallStatus,
  type PreparedTurn,
  prepareToolCalls,
} from './prepare.js';
export * from './registry.js';
export * from './runner.js';
export {
  type Schema,
  type SchemaIssue,
  type SchemaOutput,
  type SchemaValidation,
  validateSchema,
} from './schema.js';
export * from './similarity.js';
export * from './trajectory.js';
export * from './types.js';
