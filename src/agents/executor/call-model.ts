/**
 * Calling the model for one turn: the request (base fields, tools, the
 * conversation with this turn's notes attached for the call only), the
 * context manager and `prepareRequest` hooks, then the call itself, with its
 * usage booked and, when the turn may be the structured answer, its partial
 * objects streamed.
 * @module
 */

import { passesUntouched } from '../../context/default-context.js';
import { abortable } from '../../core/abortable.js';
import { addUsage } from '../../core/usage.js';
import { answeringModelId } from '../../model/invoke.js';
import { watchPartialObject } from '../../model/partial-object.js';
import { settlesOnAbort, type WatchedInvokeOptions } from '../../model/resilience/resilient-invoker.js';
import type { ModelRequest, ModelResponse, ModelStreamPart, ToolSpec } from '../../model/types.js';
import { budgetWarning } from './budget-warning.js';
import type { LoopState } from './loop-state.js';
import { TurnNotes } from './request-notes.js';

/**
 * One model call with the conversation so far; the reply's usage is not yet
 * booked ({@link bookUsage}). Without a context manager
 * (or with the default one while the conversation is short) or a
 * `prepareRequest` hook the request goes out as is, with no extra hop.
 */
export function callModel(loop: LoopState): Promise<ModelResponse> {
  const { deps, run } = loop;
  const tools = deps.registry.builtSpecs();
  // A tool registered during the run: its spec is built (maybe importing zod) before the call.
  if (!tools) return deps.registry.specs().then(() => callModel(loop));
  const request = requestOf(loop, tools);
  const text = loop.notes.length > 0 ? loop.notes.join('\n\n') : undefined;
  // The budget warning rides on a tool result only (the seed's rule): a bare reminder would read as a user turn.
  const lastIsTool = run.messages[run.messages.length - 1]?.role === 'tool';
  const budget = lastIsTool ? budgetWarning(loop.iterations, deps.limits.maxIterations) : undefined;
  const notes = text || budget ? new TurnNotes(run.messages, { text, budget }) : undefined;
  let sent: Promise<ModelResponse>;
  try {
    // The default context manager passing a short conversation through is known at once: the request skips
    // the async hop, which cost every turn a promise and every run waiting on its model ~0.25 KB (bench).
    const direct = !deps.options.prepareRequest && (!run.context || passesUntouched(run.context, request));
    sent = direct
      ? send(loop, notes ? notes.attach(request) : request, notes)
      : sendPrepared(loop, request, notes);
  } catch (error) {
    // An invoker that throws instead of rejecting: the caller handles one kind of failure.
    sent = Promise.reject(error);
  }
  return notes ? sent.finally(() => notes.detach()) : sent;
}

/** The request through the context manager, then with the turn's notes through the `prepareRequest` hook, then sent. */
async function sendPrepared(
  loop: LoopState,
  request: ModelRequest,
  notes: TurnNotes | undefined,
): Promise<ModelResponse> {
  const { deps, run } = loop;
  const context = run.context;
  if (context) request = await context.prepareRequest(request, { signal: run.signal, emit: run.emit });
  if (notes) request = notes.attach(request);
  const prepare = deps.options.prepareRequest;
  if (prepare) {
    request = await prepare(request, { iteration: loop.iterations, signal: run.signal, emit: run.emit });
  }
  return send(loop, request, notes);
}

/** Calls the model; the turn books the reply's usage ({@link bookUsage}). */
function send(loop: LoopState, request: ModelRequest, notes?: TurnNotes): Promise<ModelResponse> {
  const { deps, run } = loop;
  const compress = notes ? notes.around(run.context?.compressHook) : run.context?.compressHook;
  const options: WatchedInvokeOptions = {
    signal: run.signal,
    emit: run.emit,
    stream: deps.options.stream !== false,
    compress,
    onPart: deps.output?.inline ? partialObjects(loop) : undefined,
    watchdog: run.watchdog,
  };
  const call = deps.invoker.invoke(request, options);
  // The run's signal also fires at its time limit: an invoker of your own deaf to it still lets the run settle.
  // The built-in invoker settles on that signal itself: racing it again would cost every waiting run a promise layer.
  return settlesOnAbort(deps.invoker) ? call : abortable(call, run.signal);
}

/**
 * Books a reply's usage on the run and reports it. The turn calls it first
 * thing with the reply, rather than a handler here: one promise layer less
 * for every run waiting on its model (bench).
 */
export function bookUsage(loop: LoopState, response: ModelResponse): void {
  const { deps, run } = loop;
  addUsage(run.usage, response.usage);
  run.emit.emit('usage', {
    model: answeringModelId(response, deps.invoker),
    usage: response.usage,
    total: { ...run.usage },
  });
}

/**
 * The turn's request. The conversation array is the run's own, appended to
 * in place, so one request object serves every turn while the tool list
 * stays the same — unless a `prepareRequest` hook, which may change the
 * request it is given, gets a fresh one each turn.
 */
function requestOf(loop: LoopState, tools: ToolSpec[]): ModelRequest {
  const { deps, run } = loop;
  const last = loop.request;
  if (last && loop.requestSpecs === tools && !deps.options.prepareRequest) return last;
  // Not a spread: V8 gave each spread copy a hidden class of its own, a few hundred bytes per run.
  const request: ModelRequest = Object.assign({}, deps.base) as ModelRequest;
  request.messages = run.messages;
  if (tools.length > 0) request.tools = tools;
  loop.request = request;
  loop.requestSpecs = tools;
  return request;
}

/** A turn that may be the structured answer streams it as `partial_object` events. */
function partialObjects(loop: LoopState): (part: ModelStreamPart) => void {
  return watchPartialObject((object) => loop.run.emit.emit('partial_object', { object }));
}
