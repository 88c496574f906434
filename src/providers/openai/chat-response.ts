/**
 * Maps a non-streaming Chat Completions reply (and the usage and finish
 * reasons streams share with it) to a {@link ModelResponse}.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../core/messages.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { FinishReason, ModelResponse } from '../../model/types.js';
import { errorFromBody, statusOfErrorBody } from '../shared/errors.js';
import type { WireCompletion, WireToolCall, WireUsage } from './chat-wire.js';
import { splitThink } from './think-tags.js';

/** Provider and model a reply belongs to, for errors. */
export interface ReplyContext {
  provider: string;
  model: string;
  /** Read a leading `<think>…</think>` of the text as reasoning (settings `inlineThinking: 'parse'`). */
  thinkTags?: boolean;
}

/** Usage from the wire: OpenAI `*_tokens_details`, DeepSeek `prompt_cache_hit_tokens`. */
export function mapUsage(usage: WireUsage | null | undefined): Usage {
  if (!usage) return emptyUsage();
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cachedInputTokens: Math.max(
      usage.prompt_tokens_details?.cached_tokens ?? 0,
      usage.prompt_cache_hit_tokens ?? 0,
    ),
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** The finish reason; unknown or missing reasons become `tool_calls` when calls were made, else `stop`. */
export function mapFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}

/** Tool-call arguments as JSON text (a few servers send an object instead of a string). */
export function argumentsText(fn: WireToolCall['function']): string {
  const value: unknown = fn?.arguments;
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** The error a 200 body or chunk carries in a top-level `error` field. */
export function inlineError(error: unknown, ctx: ReplyContext, afterOutput: boolean): ModelError {
  const body = { error };
  return errorFromBody({ status: statusOfErrorBody(body, 500), body }, { ...ctx, afterOutput });
}

/** Maps a `chat.completion` body. Throws a {@link ModelError} for error bodies and replies without a message. */
export function fromChatCompletion(body: WireCompletion, ctx: ReplyContext): ModelResponse {
  if (body.error) throw inlineError(body.error, ctx, false);
  const choice = body.choices?.[0];
  const message = choice?.message;
  if (!message) {
    const id = `${ctx.provider}:${ctx.model}`;
    throw new ModelError('invalid_response', `${id}: reply has no message`, { model: id, body });
  }
  const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
  const raw = message.content ?? message.refusal;
  const inline: { reasoning?: string; text?: string | null } =
    raw && ctx.thinkTags ? splitThink(raw) : { text: raw };
  const reasoning = message.reasoning_content ?? message.reasoning ?? inline.reasoning;
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  const text = inline.text;
  if (text) content.push({ type: 'text', text });
  const calls = message.tool_calls ?? [];
  calls.forEach((call, i) => {
    content.push({
      type: 'tool_call',
      id: call.id || `call_${i}`,
      name: call.function?.name ?? '',
      arguments: argumentsText(call.function),
    });
  });
  const response: ModelResponse = {
    message: { role: 'assistant', content },
    finishReason: mapFinishReason(choice?.finish_reason, calls.length > 0),
    usage: mapUsage(body.usage),
  };
  if (body.id) response.responseId = body.id;
  return response;
}
