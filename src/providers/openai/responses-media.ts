/**
 * Images and files as OpenAI Responses content: `input_image` (a data URL or
 * the image's URL) and `input_file` (`file_data` as a data URL, or
 * `file_url`). A tool result's attachments go into its `function_call_output`,
 * whose `output` is then a list of `input_text`, `input_image` and
 * `input_file` items.
 * @module
 */
import { extensionOf } from '../../core/media.js';
import type { MediaPart, ToolResultPart, UserMessage } from '../../core/messages.js';
import {
  attachmentPath,
  checkMedia,
  dataURL,
  type MediaContext,
  mediaError,
  userPartPath,
} from '../shared/media.js';

/** A content item of a Responses input message or function call output. */
export type ResponsesContentItem = Record<string, unknown>;

/**
 * One image or file as a content item.
 * @throws ModelError `bad_request` for audio, which the Responses API does not take.
 */
export function responsesMediaItem(part: MediaPart, where: string, ctx: MediaContext): ResponsesContentItem {
  checkMedia(part, where, ctx);
  if (part.mediaType.startsWith('image/')) {
    return { type: 'input_image', image_url: part.url ?? dataURL(part), detail: 'auto' };
  }
  if (part.mediaType.startsWith('audio/')) {
    throw mediaError(
      ctx,
      { part, where },
      'the Responses API takes no audio input (Chat Completions takes WAV and MP3)',
    );
  }
  if (part.url !== undefined) return { type: 'input_file', file_url: part.url };
  const filename = part.filename ?? `file.${extensionOf(part.mediaType)}`;
  return { type: 'input_file', file_data: dataURL(part), filename };
}

/** The content items of a user message, in order. */
export function userContent(message: UserMessage, index: number, ctx: MediaContext): ResponsesContentItem[] {
  if (typeof message.content === 'string') return [{ type: 'input_text', text: message.content }];
  return message.content.map((part, i) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : responsesMediaItem(part, userPartPath(index, i), ctx),
  );
}

/** A `function_call_output` item: text alone, or text and the result's attachments. */
export function functionCallOutput(
  result: ToolResultPart,
  index: number,
  ctx: MediaContext,
): ResponsesContentItem {
  const item = { type: 'function_call_output', call_id: result.toolCallId };
  const attachments = result.attachments ?? [];
  if (attachments.length === 0) return { ...item, output: result.content };
  const output: ResponsesContentItem[] = [];
  if (result.content) output.push({ type: 'input_text', text: result.content });
  attachments.forEach((part, i) => {
    output.push(responsesMediaItem(part, attachmentPath(index, result, i), ctx));
  });
  return { ...item, output };
}
