/**
 * Environment lookups for provider defaults (API keys) that work on every
 * runtime, including those without `process`.
 * @module
 */

/**
 * The value of the first of `names` set to a non-empty string in the
 * environment, or `undefined`. Never throws: runtimes without `process`
 * (browsers, edge) or without permission to read it (Deno) have no values.
 */
export function envVar(...names: string[]): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    for (const name of names) {
      const value = env?.[name];
      if (typeof value === 'string' && value) return value;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
