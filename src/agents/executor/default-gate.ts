/**
 * The Executor's default tool guardrails: the seeds' URL and code checks on
 * every tool call's arguments, in front of whatever gate approvals left. A
 * call the scan passes costs no promise while the scan is synchronous.
 * @module
 */
import type { Clock } from '../../core/seams.js';
import { Guardrails } from '../../safety/guardrails/guardrails.js';
import type { GateDecision, ReadyToolCall, RunToolsContext, ToolGate } from '../../tools/runner.js';

/**
 * `inner` behind the tool scan of `guardrails` (default: the built-in
 * tool-argument checks only): a blocked call gets `Tool blocked: <reason>`
 * and never reaches `inner`.
 */
export function guardedGate(
  inner: ToolGate | undefined,
  guardrails: Guardrails | undefined,
  clock: Clock,
): ToolGate {
  const scan = (guardrails ?? new Guardrails({ input: [], output: [], clock })).toolGate();
  if (!inner) return scan;
  const next = (call: ReadyToolCall, ctx: RunToolsContext, decision: GateDecision | undefined) =>
    decision && !decision.allow ? decision : inner(call, ctx);
  return (call, ctx) => {
    const decision = scan(call, ctx);
    if (!(decision instanceof Promise)) return next(call, ctx, decision);
    return decision.then((d) => next(call, ctx, d) ?? { allow: true });
  };
}
