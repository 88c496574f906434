/**
 * AI SDK `doStream` parts → {@link ModelStreamPart}s.
 * @module
 */
import type { ProviderMetadata } from '../../core/messages.js';
import type { ModelStreamPart } from '../../model/types.js';
import { toModelError } from './errors.js';
import { finishReasonOf, inputText, type ReadContext } from './result.js';
import type { SpecStreamPart } from './types.js';

function reasoningMarker(id: string, metadata: ProviderMetadata): ModelStreamPart {
  return { type: 'reasoning-delta', delta: '', id, providerMetadata: metadata };
}

/**
 * Reads an AI SDK stream of any spec version (parts a version adds that
 * tandem has no use for, such as v4 `ping` and `custom`, are skipped). Tool
 * inputs are keyed by their call id and given indexes in arrival order;
 * provider-executed tools are skipped. An `error` part, an `interrupted`
 * finish, a failing stream or an abort of `signal` throws a ModelError; the
 * stream is cancelled whenever reading stops early.
 */
export async function* fromAISDKStream(
  stream: ReadableStream<SpecStreamPart>,
  ctx: ReadContext,
  signal?: AbortSignal,
): AsyncGenerator<ModelStreamPart> {
  const reader = stream.getReader();
  // A model that ignores its abortSignal still stops: cancelling ends the pending read.
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const indexes = new Map<string, number>();
  const providerRun = new Set<string>();
  let hasToolCalls = false;
  let responseId: string | undefined;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<SpecStreamPart>;
      try {
        if (signal?.aborted) throw signal.reason;
        chunk = await reader.read();
      } catch (error) {
        throw toModelError(error, ctx, signal);
      }
      if (signal?.aborted) throw toModelError(signal.reason, ctx, signal);
      if (chunk.done) return;
      const part = chunk.value;
      switch (part.type) {
        case 'text-delta':
          yield { type: 'text-delta', delta: part.delta, id: part.id };
          break;
        case 'reasoning-start':
        case 'reasoning-end':
          if (part.providerMetadata) yield reasoningMarker(part.id, part.providerMetadata);
          break;
        case 'reasoning-delta': {
          const out: ModelStreamPart = { type: 'reasoning-delta', delta: part.delta, id: part.id };
          if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
          yield out;
          break;
        }
        case 'tool-input-start': {
          if (part.providerExecuted) {
            providerRun.add(part.id);
            break;
          }
          const index = indexes.size;
          indexes.set(part.id, index);
          yield { type: 'tool-call-delta', index, id: part.id, name: part.toolName, argsDelta: '' };
          break;
        }
        case 'tool-input-delta': {
          const index = indexes.get(part.id);
          if (index !== undefined) yield { type: 'tool-call-delta', index, argsDelta: part.delta };
          break;
        }
        case 'tool-call': {
          if (part.providerExecuted || providerRun.has(part.toolCallId)) break;
          hasToolCalls = true;
          let index = indexes.get(part.toolCallId);
          if (index === undefined) {
            index = indexes.size;
            indexes.set(part.toolCallId, index);
          }
          const out: ModelStreamPart = {
            type: 'tool-call',
            id: part.toolCallId,
            name: part.toolName,
            arguments: inputText(part.input),
            index,
          };
          if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
          yield out;
          break;
        }
        case 'response-metadata':
          responseId = part.id ?? responseId;
          break;
        case 'finish': {
          const out: ModelStreamPart = {
            type: 'finish',
            finishReason: finishReasonOf(ctx.dialect.finishReason(part.finishReason), hasToolCalls, ctx),
            usage: ctx.dialect.usage(part.usage),
          };
          if (responseId) out.responseId = responseId;
          if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
          yield out;
          break;
        }
        case 'error':
          throw toModelError(part.error, ctx, signal);
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => undefined);
  }
}
