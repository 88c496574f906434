/**
 * Conversation messages and their content parts. Plain data: serialisable as
 * JSON, never holding class instances, so a run's state can be saved as is.
 * @module
 */

/** Opaque provider data a part must carry back on replay (e.g. Gemini `thoughtSignature`). */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** Plain text written by the user or the model. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * Model reasoning ("thinking"). `signature` / `redacted` are the provider's
 * opaque proof of the reasoning, replayed verbatim on later turns where the
 * provider requires it (Anthropic thinking, DeepSeek/Kimi `reasoning_content`).
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  /** Encrypted / redacted reasoning the provider returned instead of text. */
  redacted?: string;
  providerMetadata?: ProviderMetadata;
}

/** A tool call requested by the model. `arguments` is the JSON text the model wrote, unparsed. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
  providerMetadata?: ProviderMetadata;
}

/**
 * Bytes of an image or a file: a `Uint8Array`, or base64 text (no `data:`
 * prefix). Saved run states hold base64, so a state stays plain JSON.
 */
export type MediaData = Uint8Array | string;

/**
 * An image the model should see: its bytes (`data`) or a URL the provider
 * fetches (`url`) — exactly one of the two.
 */
export interface ImagePart {
  type: 'image';
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  data?: MediaData;
  url?: string;
  filename?: string;
}

/** A document (PDF, text, audio…) the model should read: `data` or `url`, exactly one. */
export interface FilePart {
  type: 'file';
  /** IANA media type, e.g. `application/pdf`. */
  mediaType: string;
  data?: MediaData;
  url?: string;
  filename?: string;
}

/** Binary content a user message or a tool result may carry. */
export type MediaPart = ImagePart | FilePart;

/** The result of one tool call, matched to it by `toolCallId`. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  toolName: string;
  /** What the model reads as text (guardrails, truncation and compression work on it). */
  content: string;
  /** Images and files the tool returned besides its text, in order. */
  attachments?: MediaPart[];
  isError?: boolean;
}

/** A message written by the user (or by the framework on the user's behalf, e.g. a continuation request). */
export interface UserMessage {
  role: 'user';
  content: string | Array<TextPart | MediaPart>;
}

/** A model turn: text, reasoning and tool calls in the order the model produced them. */
export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ReasoningPart | ToolCallPart>;
}

/** Results of the tool calls of the preceding assistant message. */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
}

/** Any message of a conversation. The system prompt is never a message: it is `ModelRequest.system`. */
export type Message = UserMessage | AssistantMessage | ToolMessage;

/** A user message from text. */
export function userMessage(text: string): UserMessage {
  return { role: 'user', content: text };
}

/** An assistant message holding only text. */
export function assistantText(text: string): AssistantMessage {
  return { role: 'assistant', content: [{ type: 'text', text }] };
}

/** Concatenated text parts of a message (reasoning and tool calls excluded). */
export function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  let out = '';
  for (const part of message.content) if (part.type === 'text') out += part.text;
  return out;
}

/** Tool calls of an assistant message, in order. */
export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  const calls: ToolCallPart[] = [];
  for (const part of message.content) if (part.type === 'tool_call') calls.push(part);
  return calls;
}
