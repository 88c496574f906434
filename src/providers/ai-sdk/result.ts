/**
 * AI SDK `doGenerate` results → {@link ModelResponse}, plus the usage and
 * finish-reason readers the stream shares. Both spec versions are read by
 * shape, not by `specificationVersion`, so a v2 model that reports v3-style
 * usage (or the reverse) still counts right.
 * @module
 */
import type { ProviderMetadata, ReasoningPart, TextPart, ToolCallPart } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';
import type { FinishReason, ModelResponse } from '../../model/types.js';
import type { GenerateResult, SpecFinishReason, SpecUsage } from './types.js';

type Count = number | undefined | null;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * Reads usage of either shape: v2 `{ inputTokens: number, cachedInputTokens,
 * reasoningTokens }` or v3 `{ inputTokens: { total, cacheRead }, outputTokens:
 * { total, reasoning } }`.
 */
export function usageOf(usage: SpecUsage | undefined | null): Usage {
  const input = usage?.inputTokens as Count | { total?: Count; cacheRead?: Count };
  const output = usage?.outputTokens as Count | { total?: Count; reasoning?: Count };
  const flat = usage as { cachedInputTokens?: Count; reasoningTokens?: Count } | undefined | null;
  return {
    inputTokens: count(typeof input === 'object' ? input?.total : input),
    outputTokens: count(typeof output === 'object' ? output?.total : output),
    cachedInputTokens: count(typeof input === 'object' && input ? input.cacheRead : flat?.cachedInputTokens),
    reasoningTokens: count(typeof output === 'object' && output ? output.reasoning : flat?.reasoningTokens),
  };
}

/** Maps a v2 string or v3 `{ unified }` finish reason; `other`/`unknown` count as a stop (or tool calls). */
export function finishReasonOf(reason: SpecFinishReason | undefined, hasToolCalls: boolean): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason?.unified;
  switch (unified) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return 'error';
    case 'tool-calls':
      return 'tool_calls';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}

/** Tool input as the JSON text tandem keeps (the spec says string; a value is serialised). */
export function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

function withMetadata<T extends object>(part: T, metadata: unknown): T {
  if (metadata)
    (part as T & { providerMetadata?: ProviderMetadata }).providerMetadata = metadata as ProviderMetadata;
  return part;
}

/**
 * Converts a `doGenerate` result. Text, reasoning and client-side tool calls
 * are kept; calls the provider executed itself, their results, sources and
 * files have no place in a tandem message and are left out.
 */
export function toModelResponse(result: GenerateResult): ModelResponse {
  const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
  let hasToolCalls = false;
  for (const part of result.content) {
    if (part.type === 'text') {
      if (part.text) content.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      content.push(
        withMetadata<ReasoningPart>({ type: 'reasoning', text: part.text }, part.providerMetadata),
      );
    } else if (part.type === 'tool-call' && !part.providerExecuted) {
      hasToolCalls = true;
      content.push(
        withMetadata<ToolCallPart>(
          { type: 'tool_call', id: part.toolCallId, name: part.toolName, arguments: inputText(part.input) },
          part.providerMetadata,
        ),
      );
    }
  }
  const response: ModelResponse = {
    message: { role: 'assistant', content },
    finishReason: finishReasonOf(result.finishReason, hasToolCalls),
    usage: usageOf(result.usage),
  };
  if (result.response?.id) response.responseId = result.response.id;
  if (result.providerMetadata) response.providerMetadata = result.providerMetadata as ProviderMetadata;
  return response;
}
