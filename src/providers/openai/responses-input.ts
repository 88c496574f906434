/**
 * Conversation → OpenAI Responses `input` items. Assistant turns become output
 * items (messages, `function_call`, `reasoning`) in the order the model wrote
 * them, because the API pairs a reasoning item with the item that followed it.
 * @module
 */
import type { AssistantMessage, Message, ReasoningPart } from '../../core/messages.js';
import type { MediaContext } from '../shared/media.js';
import { functionCallOutput, userContent } from './responses-media.js';

/** One item of the Responses `input` array, as sent on the wire. */
export type ResponsesInputItem = Record<string, unknown>;

/** Reads the Responses item id tandem stored on a part (`providerMetadata.openai.itemId`). */
function openaiItemId(part: { providerMetadata?: ReasoningPart['providerMetadata'] }): string | undefined {
  const id = part.providerMetadata?.openai?.itemId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Converts messages into Responses input items.
 * @param store - whether the request stores responses server-side; without it a
 *   reasoning item can only be replayed when it carries its encrypted content.
 * @param media - who maps images and files, for checks and errors.
 * @throws ModelError `bad_request` for an image or file the API or model cannot take.
 */
export function toResponsesInput(
  messages: Message[],
  store: boolean,
  media: MediaContext = { provider: 'openai', model: 'unknown' },
): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'user') {
      items.push({ role: 'user', content: userContent(message, index, media) });
    } else if (message.role === 'tool') {
      for (const result of message.content) items.push(functionCallOutput(result, index, media));
    } else {
      pushAssistant(items, message, store);
    }
  });
  return items;
}

function pushAssistant(items: ResponsesInputItem[], message: AssistantMessage, store: boolean): void {
  // Consecutive reasoning parts of one Responses item (one per summary part) fold back into it.
  let reasoning:
    | { id: string; summary: Array<{ type: 'summary_text'; text: string }>; encrypted?: string }
    | undefined;
  const flush = () => {
    if (!reasoning) return;
    const item: ResponsesInputItem = { type: 'reasoning', id: reasoning.id, summary: reasoning.summary };
    if (reasoning.encrypted) item.encrypted_content = reasoning.encrypted;
    // Stateless requests cannot reference a stored item: without its encrypted content it is dropped.
    if (reasoning.encrypted || store) items.push(item);
    reasoning = undefined;
  };
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const id = openaiItemId(part);
      if (!id) continue;
      if (reasoning?.id !== id) {
        flush();
        reasoning = { id, summary: [] };
      }
      if (part.text) reasoning.summary.push({ type: 'summary_text', text: part.text });
      if (part.redacted) reasoning.encrypted = part.redacted;
      continue;
    }
    flush();
    if (part.type === 'text') {
      if (!part.text) continue;
      items.push({ role: 'assistant', content: [{ type: 'output_text', text: part.text }] });
    } else {
      items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.arguments });
    }
  }
  flush();
}
