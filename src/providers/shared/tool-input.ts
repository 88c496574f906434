/**
 * Tool-call arguments for APIs that take them as a JSON object rather than
 * the raw text the model wrote.
 * @module
 */

/**
 * Parses a tool call's raw `args` text into the object the API wants: `{}`
 * for empty text; `{ _invalid_arguments: args }` when the text is not a JSON
 * object, so a model that wrote invalid JSON still sees what it wrote.
 */
export function toolInputObject(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // falls through to the wrapper below
  }
  return { _invalid_arguments: args };
}
