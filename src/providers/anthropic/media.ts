/**
 * Images and files as Anthropic content blocks: `image` (JPEG, PNG, GIF,
 * WebP; base64 or URL source) and `document` (PDF as base64 or URL, plain
 * text as a text source). Both go in user messages and inside `tool_result`
 * content. Anything else (audio, video, other documents) is refused before
 * sending.
 * @module
 */
import { fromBase64 } from '../../core/media.js';
import type { MediaPart, ToolResultPart, UserMessage } from '../../core/messages.js';
import {
  attachmentPath,
  base64Of,
  checkMedia,
  type MediaContext,
  mediaError,
  userPartPath,
} from '../shared/media.js';
import type {
  AnthropicBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicTextBlock,
} from './wire.js';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * One image or file as a block.
 * @throws ModelError `bad_request` for media types Anthropic does not take, and text documents given by URL.
 */
export function anthropicMediaBlock(
  part: MediaPart,
  where: string,
  ctx: MediaContext,
): AnthropicImageBlock | AnthropicDocumentBlock {
  checkMedia(part, where, ctx);
  const { mediaType } = part;
  if (mediaType.startsWith('image/')) {
    if (!IMAGE_TYPES.has(mediaType))
      throw mediaError(ctx, { part, where }, 'Anthropic takes JPEG, PNG, GIF and WebP images');
    const source = part.url !== undefined ? { type: 'url' as const, url: part.url } : base64Source(part);
    return { type: 'image', source };
  }
  let block: AnthropicDocumentBlock;
  if (mediaType === 'application/pdf') {
    const source = part.url !== undefined ? { type: 'url' as const, url: part.url } : base64Source(part);
    block = { type: 'document', source };
  } else if (mediaType === 'text/plain' && part.url === undefined) {
    block = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: textOf(part) } };
  } else {
    throw mediaError(
      ctx,
      { part, where },
      'Anthropic takes images, PDF documents and plain-text documents given as data',
    );
  }
  if (part.filename) block.title = part.filename;
  return block;
}

function base64Source(part: MediaPart): { type: 'base64'; media_type: string; data: string } {
  return { type: 'base64', media_type: part.mediaType, data: base64Of(part) };
}

function textOf(part: MediaPart): string {
  const bytes = typeof part.data === 'string' ? fromBase64(part.data) : (part.data ?? new Uint8Array(0));
  return new TextDecoder().decode(bytes);
}

/** The blocks of a user message: text (empty text left out) and media, in order. */
export function userBlocks(message: UserMessage, index: number, ctx: MediaContext): AnthropicBlock[] {
  if (typeof message.content === 'string')
    return message.content ? [{ type: 'text', text: message.content }] : [];
  const blocks: AnthropicBlock[] = [];
  message.content.forEach((part, i) => {
    if (part.type !== 'text') blocks.push(anthropicMediaBlock(part, userPartPath(index, i), ctx));
    else if (part.text) blocks.push({ type: 'text', text: part.text });
  });
  return blocks;
}

/** A `tool_result` block: its text, and its attachments as image and document blocks after it. */
export function toolResultBlock(result: ToolResultPart, index: number, ctx: MediaContext): AnthropicBlock {
  const attachments = result.attachments ?? [];
  let content: Extract<AnthropicBlock, { type: 'tool_result' }>['content'] = result.content;
  if (attachments.length > 0) {
    const blocks: Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock> = [];
    // Anthropic refuses empty text blocks.
    if (result.content) blocks.push({ type: 'text', text: result.content });
    attachments.forEach((part, i) => {
      blocks.push(anthropicMediaBlock(part, attachmentPath(index, result, i), ctx));
    });
    content = blocks;
  }
  const block: AnthropicBlock = { type: 'tool_result', tool_use_id: result.toolCallId, content };
  if (result.isError) block.is_error = true;
  return block;
}
