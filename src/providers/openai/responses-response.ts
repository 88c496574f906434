/**
 * OpenAI Responses response object → {@link ModelResponse}, plus the pieces
 * the stream parser shares with it: usage, finish reason and the errors a
 * failed response or an `error` event carry.
 * @module
 */
import { ModelError, type ModelErrorKind } from '../../core/errors.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../core/messages.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { FinishReason, ModelResponse } from '../../model/types.js';
import { contextLimitFromMessage, isContextLengthMessage } from '../shared/errors.js';

/** The fields of a Responses `response` object tandem reads. */
export interface ResponsesObject {
  id?: string;
  status?: string;
  error?: { code?: string | null; message?: string | null } | null;
  incomplete_details?: { reason?: string | null } | null;
  output?: ResponsesOutputItem[];
  usage?: ResponsesUsage | null;
}

/** One item of `response.output`. */
export interface ResponsesOutputItem {
  type?: string;
  id?: string;
  /** message */
  content?: Array<{ type?: string; text?: string; refusal?: string }>;
  /** reasoning */
  summary?: Array<{ type?: string; text?: string }>;
  encrypted_content?: string | null;
  /** function_call */
  call_id?: string;
  name?: string;
  arguments?: string;
}

/** `response.usage` as the API reports it. */
export interface ResponsesUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** Token usage of a response (all zero when the API sent none). */
export function usageOf(usage: ResponsesUsage | null | undefined): Usage {
  if (!usage) return emptyUsage();
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** Why the response ended: a cut-off wins over tool calls, which win over a plain stop. */
export function finishReasonOf(response: ResponsesObject, hasToolCalls: boolean): FinishReason {
  const reason = response.incomplete_details?.reason;
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** Provider metadata that ties a part to its Responses output item. */
export function itemMetadata(itemId: string): { openai: { itemId: string } } {
  return { openai: { itemId } };
}

/**
 * The reasoning parts of one reasoning item: one per summary part (the stream
 * delivers them as separate blocks), the last carrying the encrypted content.
 */
function reasoningParts(item: ResponsesOutputItem): ReasoningPart[] {
  const id = item.id ?? '';
  const parts: ReasoningPart[] = (item.summary ?? []).map((summary) => ({
    type: 'reasoning',
    text: summary.text ?? '',
    providerMetadata: itemMetadata(id),
  }));
  if (parts.length === 0) parts.push({ type: 'reasoning', text: '', providerMetadata: itemMetadata(id) });
  const last = parts[parts.length - 1] as ReasoningPart;
  if (item.encrypted_content) last.redacted = item.encrypted_content;
  return parts;
}

// Codes OpenAI puts in `error` events and failed responses.
const CODE_KINDS: Record<string, ModelErrorKind> = {
  insufficient_quota: 'rate_limit',
  rate_limit_exceeded: 'rate_limit',
  context_length_exceeded: 'context_length',
  server_error: 'server',
  internal_error: 'server',
  invalid_prompt: 'bad_request',
  invalid_request_error: 'bad_request',
  content_filter: 'content_filter',
};

/**
 * The {@link ModelError} of a stream `error` event or a failed response. There
 * is no HTTP status to go by (the stream itself was a 200), so the code decides.
 */
export function responsesError(
  error: { code?: string | null; type?: string | null; message?: string | null } | null | undefined,
  model: string,
): ModelError {
  const code = error?.code ?? error?.type ?? '';
  const message = error?.message || `${model}: response failed${code ? ` (${code})` : ''}`;
  let kind: ModelErrorKind = CODE_KINDS[code] ?? 'server';
  if (kind !== 'context_length' && isContextLengthMessage(message)) kind = 'context_length';
  return new ModelError(kind, message, {
    model,
    // Quota exhaustion is reported like a rate limit, but waiting never fixes it.
    retryable: code === 'insufficient_quota' ? false : undefined,
    contextLimit: kind === 'context_length' ? contextLimitFromMessage(message) : undefined,
    body: error,
  });
}

/** Converts a complete (non-streamed) Responses object. */
export function parseResponsesObject(body: unknown, model: string): ModelResponse {
  const response = (body ?? {}) as ResponsesObject;
  if (response.status === 'failed') throw responsesError(response.error, model);
  if (!Array.isArray(response.output)) {
    throw new ModelError('invalid_response', `${model}: response has no output array`, { model, body });
  }
  const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
  let hasToolCalls = false;
  for (const item of response.output) {
    if (item.type === 'reasoning') {
      content.push(...reasoningParts(item));
    } else if (item.type === 'message') {
      for (const part of item.content ?? []) {
        const text = part.type === 'refusal' ? part.refusal : part.text;
        if (text) content.push({ type: 'text', text });
      }
    } else if (item.type === 'function_call') {
      hasToolCalls = true;
      content.push({
        type: 'tool_call',
        id: item.call_id ?? item.id ?? '',
        name: item.name ?? '',
        arguments: item.arguments ?? '',
      });
    }
  }
  const result: ModelResponse = {
    message: { role: 'assistant', content },
    finishReason: finishReasonOf(response, hasToolCalls),
    usage: usageOf(response.usage),
  };
  if (response.id) result.responseId = response.id;
  return result;
}
