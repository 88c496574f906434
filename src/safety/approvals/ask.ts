/**
 * Asking a human: publish an interrupt, emit `interrupt`, wait for the
 * answer or apply the kind's default on timeout, emit `interrupt_response`.
 * @module
 */
import { abortable } from '../../core/abortable.js';
import { isAbortError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Clock, Random } from '../../core/seams.js';
import type { InterruptBus } from './interrupt-bus.js';
import {
  buildInterrupt,
  defaultResponse,
  InterruptError,
  type InterruptOutcome,
  type InterruptRequest,
  type InterruptSpec,
  interruptView,
  newInterruptId,
} from './interrupts.js';

/** What {@link askHuman} needs. */
export interface AskContext {
  bus: InterruptBus;
  runId: string;
  clock: Clock;
  /** Source of interrupt ids. */
  random: Random;
  emit?: Emitter;
  /**
   * Aborting stops the wait (and a publish still in flight); the interrupt
   * is closed and `interrupt_response` reports `cancelled`.
   */
  signal?: AbortSignal;
  /** Told when the wait for the answer starts; what it returns is called when it ends (see `ToolContext.waitingForHuman`). */
  waitingForHuman?: () => () => void;
}

/** A question and its answer. */
export interface AskResult {
  request: InterruptRequest;
  outcome: InterruptOutcome;
}

/**
 * Asks a human and waits for the answer, or the default after the kind's
 * timeout (approval: `deny` after 120 s; decision and input: `skip` after
 * 300 s).
 * @throws AbortError when `ctx.signal` aborts; InterruptError for an invalid
 *   spec (`invalid_request`) or a failing bus (`bus`: the question could not
 *   be put or its answer not awaited; `interrupt_response` then reports the
 *   default, as nobody can answer).
 */
export async function askHuman(spec: InterruptSpec, ctx: AskContext): Promise<AskResult> {
  const request = buildInterrupt(spec, {
    id: newInterruptId(ctx.random),
    runId: ctx.runId,
    createdAt: ctx.clock.now(),
  });
  await abortable(ctx.bus.publish(request), ctx.signal);
  ctx.emit?.emit('interrupt', { interrupt: interruptView(request) });
  let answer: Awaited<ReturnType<InterruptBus['waitFor']>>;
  const waited = ctx.waitingForHuman?.();
  try {
    answer = await ctx.bus.waitFor(request.id, { timeoutMs: request.timeoutMs, signal: ctx.signal });
  } catch (error) {
    waited?.();
    if (isAbortError(error)) {
      ctx.emit?.emit('interrupt_response', { interruptId: request.id, action: 'cancelled', timedOut: false });
    } else if (isBusFailure(error)) {
      emitResponse(ctx, request.id, { ...defaultResponse(request), timedOut: true });
    }
    throw error;
  }
  waited?.();
  const outcome: InterruptOutcome = answer
    ? { ...answer, timedOut: false }
    : { ...defaultResponse(request), timedOut: true };
  emitResponse(ctx, request.id, outcome);
  return { request, outcome };
}

/** True for an {@link InterruptError} of kind `bus`: the bus, not the question, failed. */
export function isBusFailure(error: unknown): error is InterruptError {
  return error instanceof InterruptError && error.kind === 'bus';
}

function emitResponse(ctx: AskContext, interruptId: string, outcome: InterruptOutcome): void {
  const payload = { interruptId, action: outcome.action, timedOut: outcome.timedOut };
  ctx.emit?.emit(
    'interrupt_response',
    outcome.value === undefined ? payload : { ...payload, value: outcome.value },
  );
}
