/**
 * Error streaks: after a turn with a failing tool call, the next request
 * carries the recovery hint for the failure's category (the categories and
 * hints live in `tools/error-category.ts`); a long streak gets the critical note.
 * @module
 */
import { TOOL_RECOVERY_HINTS, type ToolErrorCategory } from '../../tools/error-category.js';

/** Consecutive turns with a failed tool call after which the critical recovery note is sent. */
export const ERROR_STREAK_LIMIT = 3;

/**
 * The note after a turn with a failing tool call: a one-line recovery hint for
 * the failure's category and, from the {@link ERROR_STREAK_LIMIT}th failing
 * turn in a row, the critical note naming that category.
 */
export function toolErrorNote(category: ToolErrorCategory, streak: number): string {
  const hint = TOOL_RECOVERY_HINTS[category];
  if (streak < ERROR_STREAK_LIMIT) return `[Tool error: ${category}] ${hint}`;
  return `CRITICAL: You have failed ${streak} consecutive tool calls (last error: ${category}). ${hint} Stop repeating what failed: try a different tool or approach — or give your final answer now, explaining what failed.`;
}
