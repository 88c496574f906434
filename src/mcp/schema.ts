/**
 * zod schemas for MCP tools' JSON Schemas, so a call with bad arguments is
 * answered by tandem's validation before it reaches the server.
 * @module
 */
import { z } from 'zod';

/** Accepts any JSON object and nothing else: arguments are always an object. */
const anyObject = z.record(z.string(), z.unknown());

/**
 * The zod schema that validates arguments against `inputSchema`. zod 4's
 * `z.fromJSONSchema` converts it; a schema it cannot convert (external
 * `$ref`s, `if`/`then`, `dependentRequired`…) or `validate: false` gives a
 * schema that accepts any object, leaving validation to the server. A schema
 * without `type: "object"` is checked for being an object first.
 */
export function argumentsSchema(
  inputSchema: Record<string, unknown>,
  validate = true,
): z.ZodType<Record<string, unknown>> {
  if (!validate) return anyObject;
  let converted: z.ZodType;
  try {
    converted = z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return anyObject;
  }
  const typed = converted as z.ZodType<Record<string, unknown>, Record<string, unknown>>;
  return inputSchema.type === 'object' ? typed : anyObject.pipe(typed);
}
