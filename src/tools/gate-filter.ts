/**
 * What the runner's gate and output filter decide, turned into the settled
 * result of a call. Internal to the tool runner.
 * @module
 */
import { errorMessage } from '../core/errors.js';
import type { InterruptView } from '../core/events.js';
import { abortedText, type Settled } from './invoke.js';

/** A gate's decision (the runner's `GateDecision`). */
type Decision =
  | { allow: true }
  | { allow: false; result: string; isError?: boolean; deferred?: true; interrupt?: InterruptView };

/**
 * What {@link filter} needs of the runner's context: its output filter and
 * signal (structural, so this file does not import the runner's types).
 */
interface FilterContext<Call> {
  signal: AbortSignal;
  filterOutput?: (output: string, call: Call, ctx: never) => unknown;
}

/**
 * Applies the context's `filterOutput` (which must be set) to a successful call. A failure never lets the
 * unfiltered output through; a withheld output drops the tool's images and
 * files with its text, and whatever the filter lets through keeps them.
 */
export async function filter<Call extends { tool: { name: string } }, Ctx extends FilterContext<Call>>(
  settled: Settled,
  prepared: Call,
  ctx: Ctx,
): Promise<Settled> {
  const { output, attachments } = settled;
  // Called unbound, as a plain function: `this` is not the context.
  const filterOutput = ctx.filterOutput as (output: string, call: Call, ctx: Ctx) => unknown;
  let filtered: unknown;
  try {
    filtered = await filterOutput(output, prepared, ctx);
  } catch (error) {
    if (ctx.signal.aborted) return { output: abortedText(prepared.tool.name), isError: true };
    return { output: `Error: the tool's output filter failed: ${errorMessage(error)}`, isError: true };
  }
  if (isWithheld(filtered)) return { output: filtered.output, isError: false, filtered: true };
  if (typeof filtered !== 'string') {
    return {
      output: `Error: the tool's output filter failed: it returned ${typeof filtered}`,
      isError: true,
    };
  }
  const result: Settled =
    filtered === output ? { output, isError: false } : { output: filtered, isError: false, filtered: true };
  if (attachments) result.attachments = attachments;
  return result;
}

function isWithheld(value: unknown): value is { output: string; withheld: true } {
  if (typeof value !== 'object' || value === null) return false;
  const { output, withheld } = value as { output?: unknown; withheld?: unknown };
  return withheld === true && typeof output === 'string';
}

/** What a gate's decision settles the call with: `undefined` lets it run. */
export function denial(decision: Decision | undefined): Settled | undefined {
  if (!decision || decision.allow) return undefined;
  const settled: Settled = { output: decision.result, isError: decision.isError ?? true };
  if (decision.deferred) settled.deferred = true;
  if (decision.interrupt) settled.interrupt = decision.interrupt;
  return settled;
}

export function gateFailure(error: unknown): Settled {
  return { output: `Error: ${errorMessage(error)}`, isError: true };
}
