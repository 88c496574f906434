/**
 * OpenAI Responses stream events → {@link ModelStreamPart}s. Events are typed
 * by their `type` field (the `event:` line repeats it); output items are keyed
 * by `output_index`, which also keys tool-call deltas.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ModelStreamPart } from '../../model/types.js';
import { parseEventJSON } from '../shared/sse.js';
import {
  finishReasonOf,
  itemMetadata,
  type ResponsesObject,
  type ResponsesOutputItem,
  responsesError,
  usageOf,
} from './responses-response.js';

interface StreamEvent {
  type?: string;
  output_index?: number;
  item_id?: string;
  summary_index?: number;
  delta?: string;
  item?: ResponsesOutputItem;
  response?: ResponsesObject;
  error?: { code?: string | null; type?: string | null; message?: string | null } | null;
  code?: string | null;
  message?: string | null;
}

/**
 * Converts the data payloads of a Responses SSE stream. Throws a
 * {@link ModelError} for an `error` event, a `response.failed` event, or a
 * stream that ends before `response.completed` / `response.incomplete`.
 */
export async function* responsesStreamParts(
  events: AsyncIterable<{ data: string }>,
  model: string,
): AsyncGenerator<ModelStreamPart> {
  // Last reasoning block (summary part) of each reasoning item: its encrypted content attaches there.
  const lastSummaryPart = new Map<string, string>();
  let hasToolCalls = false;
  let responseId: string | undefined;
  for await (const { data } of events) {
    if (data === '[DONE]') continue;
    const event = parseEventJSON(data, model) as StreamEvent;
    const index = event.output_index ?? 0;
    switch (event.type) {
      case 'response.created':
        responseId = event.response?.id ?? responseId;
        break;
      case 'response.output_item.added':
        if (event.item?.type === 'function_call') {
          const { call_id, name, arguments: args } = event.item;
          yield { type: 'tool-call-delta', index, id: call_id, name, argsDelta: args ?? '' };
        }
        break;
      case 'response.function_call_arguments.delta':
        yield { type: 'tool-call-delta', index, argsDelta: event.delta ?? '' };
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        yield { type: 'text-delta', delta: event.delta ?? '', id: event.item_id };
        break;
      case 'response.reasoning_summary_part.added':
      case 'response.reasoning_summary_text.delta': {
        const itemId = event.item_id ?? '';
        const id = `${itemId}:${event.summary_index ?? 0}`;
        const delta = event.type === 'response.reasoning_summary_text.delta' ? (event.delta ?? '') : '';
        if (lastSummaryPart.get(itemId) === id) {
          yield { type: 'reasoning-delta', delta, id };
        } else {
          lastSummaryPart.set(itemId, id);
          yield { type: 'reasoning-delta', delta, id, providerMetadata: itemMetadata(itemId) };
        }
        break;
      }
      case 'response.output_item.done': {
        const item = event.item;
        if (item?.type === 'function_call') {
          hasToolCalls = true;
          yield {
            type: 'tool-call',
            id: item.call_id ?? item.id ?? '',
            name: item.name ?? '',
            arguments: item.arguments ?? '',
            index,
          };
        } else if (item?.type === 'reasoning' && item.id) {
          const last = lastSummaryPart.get(item.id);
          if (last && !item.encrypted_content) break;
          // No summary: an empty part still marks the item for replay.
          const part: ModelStreamPart = {
            type: 'reasoning-delta',
            delta: '',
            id: last ?? item.id,
            providerMetadata: itemMetadata(item.id),
          };
          if (item.encrypted_content) part.redacted = item.encrypted_content;
          yield part;
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = event.response ?? {};
        yield {
          type: 'finish',
          finishReason: finishReasonOf(response, hasToolCalls),
          usage: usageOf(response.usage),
          responseId: response.id ?? responseId,
        };
        return;
      }
      case 'response.failed':
        throw responsesError(event.response?.error, model);
      case 'error':
        throw responsesError(event.error ?? event, model);
    }
  }
  throw new ModelError('invalid_response', `${model}: stream ended before the response completed`, {
    model,
  });
}
