/**
 * Error streaks: after a turn with a failing tool call, the next request
 * carries the recovery hint for the failure's category (the categories and
 * hints live in `tools/error-category.ts`); a long streak gets the critical note.
 * @module
 */
import {
  classifyToolError,
  TOOL_RECOVERY_HINTS,
  type ToolErrorCategory,
} from '../../tools/error-category.js';
import type { PreparedCall } from '../../tools/prepare.js';
import type { ToolOutcome } from '../../tools/runner.js';

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

/** The first call of the turn that failed on its own, not skipped because of another call. */
function causeOf(calls: readonly PreparedCall[], outcomes: readonly ToolOutcome[]): number | undefined {
  for (let i = 0; i < calls.length; i++) {
    if (outcomes[i]?.isError && calls[i]!.status !== 'skipped') return i;
  }
  return undefined;
}

/**
 * The error note after a turn, or none after a clean one, and the turn's
 * error streak. The turn's first call that failed on its own speaks for it:
 * a call skipped because of another (invalid JSON or an unknown name in the
 * same turn, or a duplicate) did not fail on its own, so a turn with only
 * skipped calls is clean. The note rides on the turn's last result, so when
 * that call was skipped because of another call the note says so, naming the
 * call, instead of the other call's hint, which would read as if this call's
 * arguments had been wrong.
 */
export function turnErrorNote(
  calls: readonly PreparedCall[],
  outcomes: readonly ToolOutcome[],
  streak: number,
): { note?: string; streak: number } {
  const cause = causeOf(calls, outcomes);
  if (cause === undefined) return { streak: 0 };
  const failing = streak + 1;
  const category = classifyToolError(outcomes[cause]!.content);
  const last = calls.length - 1;
  if (failing < ERROR_STREAK_LIMIT && last !== cause && calls[last]!.status === 'skipped') {
    const because = skippedBecause(calls[cause]!);
    if (because) return { note: `[Tool error: skipped] ${because}`, streak: failing };
  }
  return { note: toolErrorNote(category, failing), streak: failing };
}

/** Why a call was skipped for `cause`, when the whole turn was skipped for it. */
function skippedBecause(cause: PreparedCall): string | undefined {
  const { id } = cause.call;
  const name = cause.tool?.name ?? cause.call.name;
  let failure: string;
  if (cause.status === 'invalid_json') failure = 'had invalid JSON arguments';
  else if (cause.status === 'unknown_tool') failure = 'named a tool that does not exist';
  else return undefined;
  return `Not run because call ${id} (${name}) in the same turn ${failure}; its own arguments were fine: retry it unchanged, together with that call corrected.`;
}
