/**
 * A complete Gemini reply as a {@link ModelResponse}: thought parts become
 * reasoning, function calls get deterministic ids when Gemini sends none,
 * and every `thoughtSignature` is kept where {@link toGeminiContents} expects
 * it on replay.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../core/messages.js';
import type { IdGenerator } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { FinishReason, ModelResponse } from '../../model/types.js';
import type { GeminiPartMetadata } from './contents.js';
import type { GeminiFunctionCall, GeminiResponseBody, GeminiUsage } from './wire.js';

const FILTERED = new Set(['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY']);

/** Maps Gemini's `finishReason` to a {@link FinishReason}; calls turn `STOP` into `tool_calls`. */
export function finishReasonOf(reason: string | undefined, hasCalls: boolean): FinishReason {
  if (!reason || reason === 'STOP') return hasCalls ? 'tool_calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return 'error';
}

/** Gemini usage in tandem's terms: thinking tokens count as output and as reasoning. */
export function usageOf(usage: GeminiUsage | undefined): Usage {
  const reasoning = usage?.thoughtsTokenCount ?? 0;
  return {
    inputTokens: (usage?.promptTokenCount ?? 0) + (usage?.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage?.candidatesTokenCount ?? 0) + reasoning,
    cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
    reasoningTokens: reasoning,
  };
}

/**
 * Our id of the `index`-th function call of a reply: Gemini's id, else
 * `<name>_<index>_<reply>`, where `reply` names the reply (its `responseId`,
 * else a fresh id): the index alone repeats on every turn, and a conversation's
 * call ids must be unique for its results to answer the right calls.
 */
export function callIdOf(call: GeminiFunctionCall, index: number, reply: string): string {
  return call.id || `${call.name ?? 'call'}_${index}_${reply}`;
}

/** What names a reply in the ids of its function calls: its `responseId`, else a fresh id. */
export function replyScope(responseId: string | undefined, ids: IdGenerator): string {
  return responseId || ids.next('reply');
}

/** `providerMetadata` for a function call part, or `undefined` when there is nothing to keep. */
export function callMetadata(
  call: GeminiFunctionCall,
  signature: string | undefined,
): ToolCallPart['providerMetadata'] | undefined {
  const meta: GeminiPartMetadata = {};
  if (signature) meta.thoughtSignature = signature;
  if (call.id) meta.functionCallId = call.id;
  return Object.keys(meta).length > 0 ? { gemini: { ...meta } } : undefined;
}

/** Converts a `generateContent` reply body; `ids` names a reply without a `responseId` in its call ids. */
export function toModelResponse(body: GeminiResponseBody, modelId: string, ids: IdGenerator): ModelResponse {
  const candidate = body?.candidates?.[0];
  const blocked = body?.promptFeedback?.blockReason;
  if (!candidate && !blocked) {
    throw new ModelError('empty_response', `${modelId}: reply has no candidates`, { model: modelId, body });
  }
  const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
  let calls = 0;
  let reply: string | undefined;
  for (const part of candidate?.content?.parts ?? []) {
    const signature = part.thoughtSignature;
    if (part.functionCall) {
      const call: ToolCallPart = {
        type: 'tool_call',
        id: callIdOf(part.functionCall, calls++, (reply ??= replyScope(body.responseId, ids))),
        name: part.functionCall.name ?? '',
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      };
      const meta = callMetadata(part.functionCall, signature);
      if (meta) call.providerMetadata = meta;
      content.push(call);
    } else if (typeof part.text === 'string') {
      if (part.thought) {
        const gemini: GeminiPartMetadata = signature
          ? { thought: true, thoughtSignature: signature }
          : { thought: true };
        content.push({ type: 'reasoning', text: part.text, providerMetadata: { gemini: { ...gemini } } });
        continue;
      }
      if (signature)
        content.push({
          type: 'reasoning',
          text: '',
          providerMetadata: { gemini: { thoughtSignature: signature } },
        });
      if (part.text) content.push({ type: 'text', text: part.text });
    }
  }
  const response: ModelResponse = {
    message: { role: 'assistant', content },
    finishReason:
      blocked && !candidate ? 'content_filter' : finishReasonOf(candidate?.finishReason, calls > 0),
    usage: usageOf(body.usageMetadata),
  };
  if (body.responseId) response.responseId = body.responseId;
  return response;
}
