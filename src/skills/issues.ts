/**
 * Schema issues as skill errors carry them: one `path: message` line each.
 * @module
 */
import type { SchemaIssue } from '../tools/schema.js';

/** `path: message` lines, the root named `(root)`. */
export function issueLines(issues: readonly SchemaIssue[]): string[] {
  return issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);
}
