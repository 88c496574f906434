/**
 * Argument validation for MCP tools. A tool already comes with its JSON
 * Schema, so its parameters are `jsonSchema()` over it: tandem's small
 * JSON Schema check answers the common mistakes (wrong type, missing key,
 * value outside an enum) with the usual invalid-arguments result before
 * anything reaches the server, and leaves what it cannot judge (`$ref`,
 * conditionals, formats) to the server, which validates anyway. Arguments go
 * to the server as the model sent them: the server applies its own defaults.
 * @module
 */
import { type JsonSchemaParameters, jsonSchema } from '../tools/json-schema.js';

/**
 * Parameters that check arguments against `inputSchema`, or with `validate:
 * false` only that they are an object. Arguments are always an object, even
 * when `inputSchema` does not say `type: "object"`.
 */
export function argumentsSchema(
  inputSchema: Record<string, unknown>,
  validate = true,
): JsonSchemaParameters<Record<string, unknown>> {
  return jsonSchema(validate ? { ...inputSchema, type: 'object' } : { type: 'object' });
}
