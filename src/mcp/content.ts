/**
 * What the model sees of an MCP tool result. MCP results are lists of
 * content parts; a tandem tool result is text.
 * @module
 */

/** One content part of an MCP tool result, as far as the mapping needs it. */
export interface McpContentPart {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

/**
 * The text of a result: the content parts the server sent, joined by
 * newlines — text as is, binary parts summarised
 * (`[image: image/png, 68 bytes]`) since the model cannot see them, embedded
 * resources as their URI followed by their text. `structuredContent` is data
 * for programs (servers send its text form as content too), so it is given as
 * JSON only when there is no content. A result of the 2024-10-07 protocol
 * (`toolResult`) is given as JSON.
 */
export function resultText(result: {
  content?: unknown;
  structuredContent?: unknown;
  toolResult?: unknown;
}): string {
  if (!Array.isArray(result.content) && result.toolResult !== undefined) {
    return typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  }
  const parts = Array.isArray(result.content) ? (result.content as McpContentPart[]) : [];
  if (parts.length === 0 && result.structuredContent !== undefined && result.structuredContent !== null) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.map(partText).join('\n');
}

function partText(part: McpContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text ?? '';
    case 'image':
    case 'audio':
      return `[${part.type}: ${part.mimeType ?? 'unknown type'}, ${base64Bytes(part.data ?? '')} bytes]`;
    case 'resource': {
      const resource = part.resource;
      if (!resource) return '[resource]';
      if (resource.text !== undefined) return `[resource: ${resource.uri}]\n${resource.text}`;
      const mime = resource.mimeType ? `, ${resource.mimeType}` : '';
      return `[resource: ${resource.uri}${mime}, ${base64Bytes(resource.blob ?? '')} bytes]`;
    }
    case 'resource_link':
      return `[resource link: ${part.uri ?? ''}${part.name ? ` (${part.name})` : ''}]`;
    default:
      return `[${part.type} content]`;
  }
}

/** Decoded size of base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const length = data.replace(/\s/g, '').length;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}
