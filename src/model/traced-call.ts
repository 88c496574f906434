/**
 * One model call attempt inside a tracing span (a CLIENT span named
 * `chat {model}` with the OpenTelemetry GenAI attributes), when the run has
 * tracing; otherwise the call as is. The adapter's `fetch` runs inside the
 * span, so an instrumented HTTP client's span nests under it.
 * @module
 */
import type { Emitter } from '../core/events.js';
import type { SpanAttributes } from '../core/tracing.js';
import type { ChatModel, ModelRequest, ModelResponse } from './types.js';

/** GenAI provider names for the adapters' id prefixes (`gen_ai.provider.name`). */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
};

/**
 * The attempt a model span describes. The resilient invoker's attempts on one
 * model are one, so a traced call builds no object of its own to say so.
 */
export interface TracedAttempt {
  readonly model: ChatModel;
  /** The request as sent on this attempt (after any compression). */
  readonly request: ModelRequest;
  /** 1-based number of the attempt on this model. */
  readonly attempt: number;
}

/**
 * Runs `call` (attempt `traced`) inside a model span of `emit`'s tracing.
 */
export function tracedModelCall(
  emit: Emitter | undefined,
  traced: TracedAttempt,
  call: () => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const span = emit?.span;
  if (!span) return call();
  const { model, request, attempt } = traced;
  const { provider, name } = splitModelId(model.id);
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': PROVIDER_NAMES[provider] ?? provider,
    'gen_ai.request.model': name,
    'gen_ai.request.temperature': request.temperature,
    'gen_ai.request.max_tokens': request.maxOutputTokens,
    'tandem.model.id': model.id,
    'tandem.attempt': attempt,
  };
  return span({ kind: 'model', name: `chat ${name}`, attributes, input: request.messages }, async (s) => {
    const response = await call();
    s.setAttributes({
      'gen_ai.response.model': name,
      'gen_ai.response.id': response.responseId,
      'gen_ai.response.finish_reasons': [response.finishReason],
      'gen_ai.usage.input_tokens': response.usage.inputTokens,
      'gen_ai.usage.output_tokens': response.usage.outputTokens,
    });
    s.output(response.message);
    return response;
  });
}

function splitModelId(id: string): { provider: string; name: string } {
  const colon = id.indexOf(':');
  return colon < 0
    ? { provider: 'unknown', name: id }
    : { provider: id.slice(0, colon), name: id.slice(colon + 1) };
}
