/**
 * Calling the model for one turn: the request (base fields, tools, the
 * conversation with this turn's notes attached for the call only), the
 * context manager and `prepareRequest` hooks, then the call itself, with its
 * usage booked and, when the turn may be the structured answer, its partial
 * objects streamed.
 * @module
 */
import { abortable } from '../../core/abortable.js';
import { addUsage } from '../../core/usage.js';
import { watchPartialObject } from '../../model/partial-object.js';
import type { ModelRequest, ModelResponse, ModelStreamPart } from '../../model/types.js';
import { budgetWarning } from './budget-warning.js';
import type { LoopState } from './loop-state.js';
import { attachNote } from './request-notes.js';

/** One model call with the conversation so far. */
export async function callModel(loop: LoopState): Promise<ModelResponse> {
  const { deps, run } = loop;
  let request: ModelRequest = { ...deps.base, messages: run.messages };
  const tools = deps.registry.specs();
  if (tools.length > 0) request.tools = tools;
  const text = loop.notes.length > 0 ? loop.notes.join('\n\n') : undefined;
  // The budget warning rides on a tool result only (the seed's rule): a bare reminder would read as a user turn.
  const lastIsTool = run.messages[run.messages.length - 1]?.role === 'tool';
  const budget = lastIsTool ? budgetWarning(loop.iterations, deps.limits.maxIterations) : undefined;
  const restore = text || budget ? attachNote(run.messages, { text, budget }) : undefined;
  try {
    const context = run.context;
    if (context) request = await context.prepareRequest(request, { signal: run.signal, emit: run.emit });
    const prepare = deps.options.prepareRequest;
    if (prepare) {
      request = await prepare(request, { iteration: loop.iterations, signal: run.signal, emit: run.emit });
    }
    // The run's signal also fires at its time limit: a custom invoker deaf to it still lets the run settle.
    const response = await abortable(
      deps.invoker.invoke(request, {
        signal: run.signal,
        emit: run.emit,
        stream: deps.options.stream !== false,
        compress: context?.compressHook,
        onPart: deps.output?.inline ? partialObjects(loop) : undefined,
      }),
      run.signal,
    );
    addUsage(run.usage, response.usage);
    run.emit.emit('usage', { model: deps.invoker.id, usage: response.usage, total: { ...run.usage } });
    return response;
  } finally {
    restore?.();
  }
}

/** A turn that may be the structured answer streams it as `partial_object` events. */
function partialObjects(loop: LoopState): (part: ModelStreamPart) => void {
  return watchPartialObject((object) => loop.run.emit.emit('partial_object', { object }));
}
