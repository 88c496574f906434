/**
 * Argument validation for MCP tools. A tool already comes with its JSON
 * Schema, so its parameters are `jsonSchema()` over it: tandem's small
 * JSON Schema check answers the common mistakes (wrong type, missing key,
 * value outside an enum) with the usual invalid-arguments result before
 * anything reaches the server, and leaves what it cannot judge (`$ref`,
 * conditionals, formats) to the server, which validates anyway. Arguments go
 * to the server as the model sent them, with the schema's defaults filled in.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type JsonSchemaParameters, jsonSchema } from '../tools/json-schema.js';
import { checkJsonSchema } from '../tools/json-schema-check.js';
import { withDefaults } from './defaults.js';

/**
 * Parameters that check arguments against `inputSchema`, or with `validate:
 * false` only that they are an object. Arguments are always an object, even
 * when `inputSchema` does not say `type: "object"`. Valid arguments come out
 * with the schema's `default`s filled in where the model left them out (see
 * `withDefaults`), as zod parameters did.
 */
export function argumentsSchema(
  inputSchema: Record<string, unknown>,
  validate = true,
): JsonSchemaParameters<Record<string, unknown>> {
  const checked = validate ? { ...inputSchema, type: 'object' } : { type: 'object' };
  return jsonSchema(checked, {
    validate: (value): StandardSchemaV1.Result<Record<string, unknown>> => {
      const issues = checkJsonSchema(checked, value);
      if (issues.length > 0) return { issues };
      return { value: withDefaults(inputSchema, value as Record<string, unknown>) };
    },
  });
}
