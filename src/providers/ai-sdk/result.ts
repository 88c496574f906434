/**
 * AI SDK `doGenerate` results → {@link ModelResponse}, plus the finish-reason
 * and tool-input readers the stream shares. Version differences come from the
 * model's {@link SpecDialect}.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ProviderMetadata, ReasoningPart, TextPart, ToolCallPart } from '../../core/messages.js';
import type { FinishReason, ModelResponse } from '../../model/types.js';
import type { ErrorContext } from '../shared/errors.js';
import type { SpecDialect } from './dialects.js';
import type { GenerateResult } from './types.js';

type ContentPart = TextPart | ReasoningPart | ToolCallPart;

/**
 * Maps a unified finish reason; `other` and unknown reasons count as a stop
 * (or tool calls). `interrupted` (v4: the provider's stream ended without a
 * completion signal) means the reply may be cut anywhere, tool-call input
 * included, so it throws a retryable `connection` error, as tandem's own
 * adapters do for a cut-off stream.
 */
export function finishReasonOf(
  unified: string | undefined,
  hasToolCalls: boolean,
  ctx: ErrorContext,
): FinishReason {
  switch (unified) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return 'error';
    case 'tool-calls':
      return 'tool_calls';
    case 'interrupted': {
      const id = `${ctx.provider}:${ctx.model}`;
      throw new ModelError('connection', `${id}: the reply was interrupted before it was complete`, {
        model: id,
      });
    }
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}

/** Tool input as the JSON text tandem keeps (the spec says string; a value is serialised). */
export function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

function withMetadata<T extends object>(part: T, metadata: ProviderMetadata | undefined): T {
  if (metadata) (part as T & { providerMetadata?: ProviderMetadata }).providerMetadata = metadata;
  return part;
}

// The JSON answer replaces the text parts (drafts before it would break parsing) where the first one was.
function withStructuredText(content: ContentPart[], text: string): ContentPart[] {
  const out: ContentPart[] = [];
  let placed = false;
  for (const part of content) {
    if (part.type !== 'text') out.push(part);
    else if (!placed) {
      placed = true;
      if (text) out.push({ type: 'text', text });
    }
  }
  if (!placed && text) out.push({ type: 'text', text });
  return out;
}

/** How a model's results are read: its name for errors and its version's dialect. */
export interface ReadContext extends ErrorContext {
  dialect: SpecDialect;
}

/**
 * Converts a `doGenerate` result. Text, reasoning and client-side tool calls
 * are kept; calls the provider executed itself, their results, sources,
 * files and custom parts have no place in a tandem message and are left out.
 * For a JSON request, a v4 `structuredOutputText` is the reply's text.
 */
export function toModelResponse(result: GenerateResult, read: ReadContext, json: boolean): ModelResponse {
  let content: ContentPart[] = [];
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
  const structured = json ? read.dialect.structuredText(result) : undefined;
  if (typeof structured === 'string') content = withStructuredText(content, structured);
  const response: ModelResponse = {
    message: { role: 'assistant', content },
    finishReason: finishReasonOf(read.dialect.finishReason(result.finishReason), hasToolCalls, read),
    usage: read.dialect.usage(result.usage),
  };
  if (result.response?.id) response.responseId = result.response.id;
  if (result.providerMetadata) response.providerMetadata = result.providerMetadata;
  return response;
}
