/**
 * A complete Anthropic reply as a {@link ModelResponse}: blocks become parts
 * in order, thinking keeps its signature, usage counts cache reads and writes
 * as input.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';
import type { FinishReason, ModelResponse } from '../../model/types.js';
import { type AnswerTool, answerText } from './answer-tool.js';
import { REDACTED_MARK } from './messages.js';
import type { AnthropicResponseBody, AnthropicUsage } from './wire.js';

/** Maps Anthropic's `stop_reason` to a {@link FinishReason}. */
export function finishReasonOf(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** A reply that stopped to call only the answer tool has stopped: its answer is text. */
export function answeredReason(reason: FinishReason, calledTools: boolean): FinishReason {
  return reason === 'tool_calls' && !calledTools ? 'stop' : reason;
}

/**
 * Anthropic's `input_tokens` leaves out cache reads and writes; tandem's
 * `inputTokens` is the whole prompt, with cache reads as `cachedInputTokens`.
 */
export function usageOf(usage: AnthropicUsage | undefined): Usage {
  const read = usage?.cache_read_input_tokens ?? 0;
  const written = usage?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + read + written,
    outputTokens: usage?.output_tokens ?? 0,
    cachedInputTokens: read,
    reasoningTokens: 0,
  };
}

/** Reasoning part of Anthropic's redacted thinking. */
export function redactedReasoning(data: string): ReasoningPart {
  return {
    type: 'reasoning',
    text: '',
    redacted: data,
    providerMetadata: { anthropic: { [REDACTED_MARK]: true } },
  };
}

/**
 * Converts a `POST /v1/messages` reply body. A call of `answer` (the answer
 * tool of a structured-output request) becomes the reply's text.
 */
export function toModelResponse(
  body: AnthropicResponseBody,
  modelId: string,
  answer?: AnswerTool,
): ModelResponse {
  if (!body || !Array.isArray(body.content)) {
    throw new ModelError('invalid_response', `${modelId}: reply has no content array`, {
      model: modelId,
      body,
    });
  }
  const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
  for (const block of body.content) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        content.push({ type: 'reasoning', text: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        content.push(redactedReasoning(block.data));
        break;
      case 'tool_use':
        if (block.name === answer?.name) {
          content.push({ type: 'text', text: answerText(answer, block.input) });
          break;
        }
        content.push({
          type: 'tool_call',
          id: block.id,
          name: block.name,
          arguments: JSON.stringify(block.input ?? {}),
        });
        break;
    }
  }
  const response: ModelResponse = {
    message: { role: 'assistant', content },
    finishReason: answeredReason(
      finishReasonOf(body.stop_reason),
      content.some((part) => part.type === 'tool_call'),
    ),
    usage: usageOf(body.usage),
  };
  if (body.id) response.responseId = body.id;
  const written = body.usage?.cache_creation_input_tokens;
  if (written) response.providerMetadata = { anthropic: { cacheCreationInputTokens: written } };
  return response;
}
