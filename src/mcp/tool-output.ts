/**
 * What the model gets of an MCP tool result: the text of its contents, and
 * its image and audio contents as attachments it can see (an image part; audio
 * as a file part).
 * @module
 */
import type { MediaPart } from '../core/messages.js';
import type { ToolMediaResult } from '../tools/output.js';
import { type McpContentPart, resultText } from './content.js';
import { blockPart } from './parts.js';

function isMedia(block: McpContentPart): boolean {
  return (block.type === 'image' || block.type === 'audio') && block.data !== undefined;
}

/** The result's text alone when it has no image or audio, else the text of the rest with them attached. */
export function mcpToolOutput(result: { text: string; content: McpContentPart[] }): string | ToolMediaResult {
  const media = result.content.filter(isMedia);
  if (media.length === 0) return result.text;
  return {
    content: resultText({ content: result.content.filter((block) => !isMedia(block)) }),
    attachments: media.map((block) => blockPart(block) as MediaPart),
  };
}
