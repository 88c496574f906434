/**
 * Anthropic's server-sent events as {@link ModelStreamPart}s. Deltas carry the
 * content block index as their id, so the core aggregator rebuilds the blocks
 * in order; a tool call is announced by a `tool-call-delta` and completed by a
 * `tool-call` part when its block stops — except the answer tool of a
 * structured-output request, whose input streams as text. An `error` event
 * ends the stream with a typed {@link ModelError}.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ModelStreamPart } from '../../model/types.js';
import { errorFromBody, type ResponseErrorContext } from '../shared/errors.js';
import { parseEventJSON } from '../shared/sse.js';
import { type AnswerTool, answerText } from './answer-tool.js';
import { REDACTED_MARK } from './messages.js';
import { answeredReason, finishReasonOf, usageOf } from './response.js';
import type { AnthropicUsage } from './wire.js';

/** One server-sent event: its `event:` name and `data:` text. */
export interface RawEvent {
  event?: string;
  data: string;
}

// The HTTP status an error type stands for, so stream errors map like HTTP errors.
const STATUS_OF_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

interface OpenToolCall {
  id: string;
  name: string;
  args: string;
}

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return value !== null && typeof value === 'object' ? (value as Json) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function mergeUsage(into: AnthropicUsage, from: unknown): void {
  const usage = record(from) as AnthropicUsage;
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ] as const) {
    const value = usage[key];
    if (typeof value === 'number') into[key] = value;
  }
}

/** The answer tool's block: its input streams as text; a wrapped one is unwrapped when it stops. */
interface OpenAnswer {
  index: number;
  /** Id of the text parts its input streams as (the block's index, as every part of the block has). */
  id: string;
  /** Input of a wrapped answer, held until its block stops. */
  held: string;
}

/**
 * Converts Anthropic stream events to stream parts; throws {@link ModelError}
 * on `error` events. `answer` is the request's answer tool, if any.
 */
export async function* anthropicStreamParts(
  events: AsyncIterable<RawEvent>,
  ctx: ResponseErrorContext,
  answer?: AnswerTool,
): AsyncGenerator<ModelStreamPart> {
  const usage: AnthropicUsage = {};
  const calls = new Map<number, OpenToolCall>();
  let open: OpenAnswer | undefined;
  let called = false;
  let responseId: string | undefined;
  let stopReason: string | null | undefined;
  let stopped = false;
  const model = `${ctx.provider}:${ctx.model}`;

  for await (const raw of events) {
    if (raw.data === '' || raw.data === '[DONE]') continue;
    const event = record(parseEventJSON(raw.data, model));
    const type = text(event.type) || raw.event;
    const index = typeof event.index === 'number' ? event.index : 0;
    const id = String(index);
    switch (type) {
      case 'message_start': {
        const message = record(event.message);
        responseId = text(message.id) || undefined;
        mergeUsage(usage, message.usage);
        break;
      }
      case 'content_block_start': {
        const block = record(event.content_block);
        if (block.type === 'text' && text(block.text))
          yield { type: 'text-delta', delta: text(block.text), id };
        else if (block.type === 'thinking' && text(block.thinking)) {
          yield { type: 'reasoning-delta', delta: text(block.thinking), id };
        } else if (block.type === 'redacted_thinking') {
          yield {
            type: 'reasoning-delta',
            delta: '',
            id,
            redacted: text(block.data),
            providerMetadata: { anthropic: { [REDACTED_MARK]: true } },
          };
        } else if (block.type === 'tool_use' && answer && block.name === answer.name) {
          open = { index, id, held: '' };
          const input = record(block.input);
          if (Object.keys(input).length > 0) yield* answerDelta(answer, open, JSON.stringify(input));
        } else if (block.type === 'tool_use') {
          called = true;
          const input = record(block.input);
          const call = { id: text(block.id), name: text(block.name), args: '' };
          // Blocks normally start with `input: {}` and stream the JSON; a non-empty start input is the whole input.
          if (Object.keys(input).length > 0) call.args = JSON.stringify(input);
          calls.set(index, call);
          yield { type: 'tool-call-delta', index, id: call.id, name: call.name, argsDelta: call.args };
        }
        break;
      }
      case 'content_block_delta': {
        const delta = record(event.delta);
        if (delta.type === 'text_delta') yield { type: 'text-delta', delta: text(delta.text), id };
        else if (delta.type === 'thinking_delta')
          yield { type: 'reasoning-delta', delta: text(delta.thinking), id };
        else if (delta.type === 'signature_delta') {
          yield { type: 'reasoning-delta', delta: '', id, signature: text(delta.signature) };
        } else if (delta.type === 'input_json_delta' && open?.index === index) {
          yield* answerDelta(answer!, open, text(delta.partial_json));
        } else if (delta.type === 'input_json_delta') {
          const call = calls.get(index);
          const fragment = text(delta.partial_json);
          if (call && fragment) {
            call.args += fragment;
            yield { type: 'tool-call-delta', index, argsDelta: fragment };
          }
        }
        break;
      }
      case 'content_block_stop': {
        if (open?.index === index) {
          if (answer!.wrapped) yield { type: 'text-delta', delta: unwrapped(answer!, open.held), id };
          open = undefined;
        }
        const call = calls.get(index);
        if (call) {
          calls.delete(index);
          yield { type: 'tool-call', id: call.id, name: call.name, arguments: call.args || '{}', index };
        }
        break;
      }
      case 'message_delta':
        stopReason = text(record(event.delta).stop_reason) || stopReason;
        mergeUsage(usage, event.usage);
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error': {
        const error = record(event.error);
        throw errorFromBody({ status: STATUS_OF_ERROR_TYPE[text(error.type)] ?? 500, body: event }, ctx);
      }
    }
    if (stopped) break;
  }

  if (!stopped && !stopReason) {
    throw new ModelError('invalid_response', `${model}: stream ended before message_stop`, { model });
  }
  const finish: ModelStreamPart = {
    type: 'finish',
    finishReason: answeredReason(finishReasonOf(stopReason), called),
    usage: usageOf(usage),
  };
  if (responseId) finish.responseId = responseId;
  const written = usage.cache_creation_input_tokens;
  if (written) finish.providerMetadata = { anthropic: { cacheCreationInputTokens: written } };
  yield finish;
}

/** A piece of the answer tool's input: text at once, or held when the answer is wrapped. */
function* answerDelta(answer: AnswerTool, open: OpenAnswer, fragment: string): Generator<ModelStreamPart> {
  if (!fragment) return;
  if (answer.wrapped) open.held += fragment;
  else yield { type: 'text-delta', delta: fragment, id: open.id };
}

/** The JSON of a wrapped answer's value; input that does not parse is passed on for the caller to judge. */
function unwrapped(answer: AnswerTool, held: string): string {
  try {
    return answerText(answer, JSON.parse(held || '{}'));
  } catch {
    return held;
  }
}
