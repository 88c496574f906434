/**
 * MCP content blocks (of prompts, sampling requests and resources) as tandem
 * message parts: text stays text, images and audio become media parts, the
 * rest becomes the text {@link resultText} gives it.
 * @module
 */
import { describeMedia } from '../core/media.js';
import type { MediaPart, Message, TextPart } from '../core/messages.js';
import { type McpContentPart, resultText } from './content.js';

/** One resource content of `resources/read` or of an embedded resource. */
export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A block as a part: `image` → image part, `audio` → file part, a binary resource → its media part. */
export function blockPart(block: McpContentPart): TextPart | MediaPart {
  if ((block.type === 'image' || block.type === 'audio') && block.data !== undefined) {
    const type = block.type === 'image' ? 'image' : 'file';
    return { type, mediaType: block.mimeType ?? 'application/octet-stream', data: block.data };
  }
  if (block.type === 'resource' && block.resource?.blob !== undefined) return resourcePart(block.resource);
  return { type: 'text', text: resultText({ content: [block] }) };
}

/** A resource content as a part: text as `[resource: uri]` and its text, a blob as an image or file part. */
export function resourcePart(content: McpResourceContent): TextPart | MediaPart {
  if (content.blob === undefined)
    return { type: 'text', text: resultText({ content: [{ type: 'resource', resource: content }] }) };
  const mediaType = content.mimeType ?? 'application/octet-stream';
  const type = mediaType.startsWith('image/') ? 'image' : 'file';
  const name = content.uri.slice(content.uri.lastIndexOf('/') + 1);
  const part: MediaPart = { type, mediaType, data: content.blob };
  if (name) part.filename = decoded(name);
  return part;
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * One MCP message (one block, or a list of blocks in sampling) as a tandem
 * message. A user message keeps images and audio as media parts; an
 * assistant message can hold only text, so media become placeholders there.
 */
export function mcpMessage(role: 'user' | 'assistant', content: McpContentPart | McpContentPart[]): Message {
  const parts = (Array.isArray(content) ? content : [content]).map(blockPart);
  if (role === 'user') return { role: 'user', content: parts };
  const text = parts.map((part) => (part.type === 'text' ? part.text : describeMedia(part))).join('\n');
  return { role: 'assistant', content: [{ type: 'text', text }] };
}
