/**
 * Images and files in Chat Completions messages: `image_url` (a data URL or
 * the image's URL), `input_audio` (WAV or MP3 bytes) and `file` (other
 * documents, as bytes only). Tool messages take text only, so a tool
 * result's attachments travel in a user message right after the turn's tool
 * messages, introduced by a line naming the call they belong to.
 * @module
 */
import { extensionOf } from '../../core/media.js';
import { type MediaPart, type ToolResultPart, textOf, type UserMessage } from '../../core/messages.js';
import {
  attachmentPath,
  base64Of,
  checkMedia,
  dataURL,
  type MediaContext,
  mediaError,
  userPartPath,
} from '../shared/media.js';
import type { WireContentPart, WireMessage } from './chat-wire.js';

const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/**
 * One image or file as a content part.
 * @throws ModelError `bad_request` for audio other than WAV/MP3, or audio and files given by URL.
 */
export function chatMediaPart(part: MediaPart, where: string, ctx: MediaContext): WireContentPart {
  checkMedia(part, where, ctx);
  if (part.mediaType.startsWith('image/')) {
    return { type: 'image_url', image_url: { url: part.url ?? dataURL(part) } };
  }
  if (part.url !== undefined) {
    throw mediaError(
      ctx,
      { part, where },
      'Chat Completions takes audio and files as bytes only: pass data (the Responses API takes file URLs)',
    );
  }
  if (part.mediaType.startsWith('audio/')) {
    const format = AUDIO_FORMATS[part.mediaType];
    if (!format) throw mediaError(ctx, { part, where }, 'Chat Completions takes audio as WAV or MP3 only');
    return { type: 'input_audio', input_audio: { data: base64Of(part), format } };
  }
  const filename = part.filename ?? `file.${extensionOf(part.mediaType)}`;
  return { type: 'file', file: { file_data: dataURL(part), filename } };
}

/** A user message: a string while it is all text, else text and media parts in order. */
export function chatUserMessage(message: UserMessage, index: number, ctx: MediaContext): WireMessage {
  const content = message.content;
  if (typeof content === 'string') return { role: 'user', content };
  if (content.every((part) => part.type === 'text')) return { role: 'user', content: textOf(message) };
  return {
    role: 'user',
    content: content.map((part, i) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : chatMediaPart(part, userPartPath(index, i), ctx),
    ),
  };
}

/** A tool result and the index of the message holding it. */
export interface PlacedResult {
  result: ToolResultPart;
  message: number;
}

/** The user message carrying the attachments of tool results, or `undefined` when they have none. */
export function attachmentsMessage(
  results: readonly PlacedResult[],
  ctx: MediaContext,
): WireMessage | undefined {
  const content: WireContentPart[] = [];
  for (const { result, message } of results) {
    if (!result.attachments?.length) continue;
    const name = result.toolName || 'tool';
    content.push({ type: 'text', text: `Attachments of the ${name} result (call ${result.toolCallId}):` });
    result.attachments.forEach((part, i) => {
      content.push(chatMediaPart(part, attachmentPath(message, result, i), ctx));
    });
  }
  return content.length > 0 ? { role: 'user', content } : undefined;
}
