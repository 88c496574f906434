/**
 * Conversation messages in Anthropic's shape: assistant turns keep their
 * thinking blocks (signature and redacted data verbatim), tool results of one
 * turn travel together in a single user message, and consecutive messages of
 * the same role are merged because the API wants user and assistant turns to
 * alternate.
 * @module
 */
import type { AssistantMessage, Message, ReasoningPart } from '../../core/messages.js';
import type { MediaContext } from '../shared/media.js';
import { toolInputObject } from '../shared/tool-input.js';
import { toolResultBlock, userBlocks } from './media.js';
import type { AnthropicBlock, AnthropicMessage } from './wire.js';

/** Marks a reasoning part as Anthropic's redacted thinking, so other providers' opaque data is never sent here. */
export const REDACTED_MARK = 'redactedThinking';

function thinkingBlock(part: ReasoningPart): AnthropicBlock | undefined {
  if (part.redacted && part.providerMetadata?.anthropic?.[REDACTED_MARK]) {
    return { type: 'redacted_thinking', data: part.redacted };
  }
  // Thinking without Anthropic's signature (another provider's reasoning) would be rejected.
  if (part.signature) return { type: 'thinking', thinking: part.text, signature: part.signature };
  return undefined;
}

function assistantBlocks(message: AssistantMessage): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text) blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      const block = thinkingBlock(part);
      if (block) blocks.push(block);
    } else {
      blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: toolInputObject(part.arguments) });
    }
  }
  return blocks;
}

function blocksOf(message: Message, index: number, media: MediaContext): AnthropicBlock[] {
  switch (message.role) {
    case 'user':
      return userBlocks(message, index, media);
    case 'assistant':
      return assistantBlocks(message);
    case 'tool':
      return message.content.map((result) => toolResultBlock(result, index, media));
  }
}

/**
 * Converts tandem messages to Anthropic `messages` (new objects; the input is never touched).
 * @param media - who maps images and files, for checks and errors.
 * @throws ModelError `bad_request` for an image or file Anthropic or the model cannot take.
 */
export function toAnthropicMessages(
  messages: Message[],
  media: MediaContext = { provider: 'anthropic', model: 'unknown' },
): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  messages.forEach((message, index) => {
    const blocks = blocksOf(message, index, media);
    if (blocks.length === 0) return;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = out[out.length - 1];
    if (last && last.role === role) (last.content as AnthropicBlock[]).push(...blocks);
    else out.push({ role, content: blocks });
  });
  return out;
}
