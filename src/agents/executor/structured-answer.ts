/**
 * The object of an execution with an output schema, made from its answer:
 * an answer asked for in the loop is extracted and validated, and re-asked
 * in the conversation with the schema's issues when it does not match; any
 * other answer (a loop with tools the format could not ride along with, or
 * a partial one) is turned into the object by one formatting call. Both
 * stream `partial_object` events; both are bounded by `maxOutputReasks`,
 * after which the execution fails with `RunError('invalid_output')`.
 * @module
 */
import { RunError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import { type Message, textOf, userMessage } from '../../core/messages.js';
import type { Clock } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import { answeringModelId, type ModelInvoker } from '../../model/invoke.js';
import { extractObject, generateWithRetry, StructuredOutputError } from '../../model/json.js';
import { isNativeMode, responseFormatFor, schemaInstruction } from '../../model/structured.js';
import type { ModelRequest } from '../../model/types.js';
import type { LoopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import type { OutputPlan } from './structured-output.js';

/** The formatting call's system prompt (the schema follows it for models without a native mode). */
export const FORMAT_ANSWER_PROMPT =
  'Turn the answer below into JSON for the required schema. Take every value from the answer (or the task); where the answer has nothing for a required field, give the closest value the schema allows.';

/** An object and its JSON text. */
export interface StructuredAnswer {
  object: unknown;
  json: string;
}

/**
 * `outcome` with its object, or the typed error of an answer that never
 * matched. With `extractOnly` (a run its budget stopped makes no more calls)
 * the object must be in the answer already.
 */
export async function withObject(
  loop: LoopState,
  outcome: ExecutorResult,
  extractOnly = false,
): Promise<ExecutorResult> {
  const plan = loop.deps.output!;
  const structured = extractOnly
    ? await extractObject(outcome.output, plan.format.schema)
    : await objectOf(loop, plan, outcome);
  // The object may have cost more calls and added re-asks: the result counts and keeps them.
  const { messages, usage } = loop.run;
  return {
    ...outcome,
    output: structured.json,
    object: structured.object,
    newMessages: messages.slice(loop.firstNew),
    usage: { ...usage },
  };
}

async function objectOf(
  loop: LoopState,
  plan: OutputPlan,
  outcome: ExecutorResult,
): Promise<StructuredAnswer> {
  if (!plan.inline || outcome.status !== 'success') {
    return formatAnswer(callOf(loop), taskText(loop.run.messages, loop.firstNew), outcome.output);
  }
  try {
    return await extractObject(outcome.output, plan.format.schema);
  } catch (error) {
    if (!(error instanceof StructuredOutputError) || plan.maxReasks === 0) throw invalid(error);
    return reask(loop, plan, error);
  }
}

/**
 * Asks again, with the issues. The accepted reply takes the place of the
 * answer that did not match in the conversation: a follow-up (or a session)
 * continues from the answer the result holds, and the corrections and
 * rejected replies in between are left out.
 */
async function reask(
  loop: LoopState,
  plan: OutputPlan,
  error: StructuredOutputError,
): Promise<StructuredAnswer> {
  const { deps, run } = loop;
  const correction = userMessage(correctionText(error));
  const request: ModelRequest = { ...deps.base, messages: [...run.messages, correction] };
  const tools = await deps.registry.specs();
  // The conversation holds tool calls, which some providers accept only beside tool definitions.
  if (tools.length > 0) Object.assign(request, { tools, toolChoice: 'none' });
  const { object, response } = await generate(callOf(loop), request, plan.maxReasks);
  const last = run.messages.length - 1;
  if (last >= loop.firstNew && run.messages[last]!.role === 'assistant')
    run.messages[last] = response.message;
  else run.messages.push(response.message);
  return object;
}

/** What a call for an object needs: the model, the plan, and the run it books its usage and events on. */
export interface ObjectCall {
  invoker: ModelInvoker;
  plan: OutputPlan;
  clock: Clock;
  signal: AbortSignal;
  emit: Emitter;
  /** The run's usage, added into. */
  usage: Usage;
  /** Stream the call, emitting `token` and `partial_object` events. */
  stream: boolean;
}

function callOf(loop: LoopState): ObjectCall {
  const { deps, run } = loop;
  return {
    invoker: deps.invoker,
    plan: deps.output!,
    clock: deps.clock,
    signal: run.signal,
    emit: run.emit,
    usage: run.usage,
    stream: deps.options.stream !== false,
  };
}

/**
 * One call turning an answer into the object of `call.plan`, outside any
 * conversation, re-asked with the schema's issues up to the plan's
 * `maxReasks` times.
 * @throws RunError `invalid_output` when no reply matched; `model` when the model call failed.
 */
export async function formatAnswer(
  call: ObjectCall,
  task: string,
  answer: string,
): Promise<StructuredAnswer> {
  const { plan } = call;
  const request: ModelRequest = {
    system: isNativeMode(plan.mode)
      ? FORMAT_ANSWER_PROMPT
      : `${FORMAT_ANSWER_PROMPT}\n\n${schemaInstruction(plan.format)}`,
    messages: [userMessage(`Task:\n${task}\n\nAnswer:\n${answer}`)],
  };
  const format = responseFormatFor(plan.format, plan.mode);
  if (format) request.responseFormat = format;
  return (await generate(call, request, plan.maxReasks + 1)).object;
}

/**
 * Calls until the reply holds the object, streaming partial objects. Each
 * call's usage is booked on the run, in a `usage` event naming the model
 * that answered.
 */
async function generate(call: ObjectCall, request: ModelRequest, attempts: number) {
  const { invoker, emit } = call;
  try {
    return await generateWithRetry({
      invoker,
      request,
      attempts,
      delays: [0],
      clock: call.clock,
      signal: call.signal,
      emit,
      usage: call.usage,
      stream: call.stream,
      onResponse: (response) => {
        emit.emit('usage', {
          model: answeringModelId(response, invoker),
          usage: response.usage,
          total: { ...call.usage },
        });
      },
      onPartialObject: (object) => emit.emit('partial_object', { object }),
      parse: (text) => extractObject(text, call.plan.format.schema),
      reask: correctionText,
    });
  } catch (error) {
    throw error instanceof StructuredOutputError ? invalid(error) : error;
  }
}

/** The error an answer that never matched ends the execution with; a failed model call stays a model error. */
function invalid(error: unknown): unknown {
  if (!(error instanceof StructuredOutputError)) return error;
  if (error.kind === 'model_failed')
    return new RunError('model', error.message, { cause: error.cause ?? error });
  return new RunError('invalid_output', `The answer does not match the output schema: ${error.message}`, {
    cause: error,
  });
}

function correctionText(error: StructuredOutputError): string {
  return `Your answer could not be used. ${error.message}\n\nReply again with only the corrected JSON, no other text.`;
}

/** The text of the execution's input: the last user message before what the execution added. */
function taskText(messages: readonly Message[], firstNew: number): string {
  for (let i = firstNew - 1; i >= 0; i--) if (messages[i]!.role === 'user') return textOf(messages[i]!);
  return '';
}
