/**
 * The parts of the Anthropic Messages wire format this adapter reads and
 * writes. Only the fields it uses; the API sends more.
 * @module
 */

/** A prompt-cache breakpoint marker. */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A text block. */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

/** A thinking block; `signature` must come back verbatim on later turns. */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Thinking the safety systems encrypted; `data` must come back verbatim. */
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Where an image or document block's content comes from. */
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: 'text/plain'; data: string };

/** An image the model sees (JPEG, PNG, GIF or WebP). */
export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicSource;
  cache_control?: CacheControl;
}

/** A document the model reads (PDF or plain text). */
export interface AnthropicDocumentBlock {
  type: 'document';
  source: AnthropicSource;
  title?: string;
  cache_control?: CacheControl;
}

/** A tool call. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

/** The result of a tool call, sent in a user message. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
  cache_control?: CacheControl;
}

/** Any content block this adapter sends or receives. */
export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock;

/** One message of the `messages` array. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/** Token counts as the API reports them; cache reads and writes are not part of `input_tokens`. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A complete (non-streamed) reply. */
export interface AnthropicResponseBody {
  id?: string;
  model?: string;
  content?: AnthropicBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsage;
}

/** A tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

/** The body of `POST /v1/messages`. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: AnthropicTextBlock[];
  tools?: AnthropicTool[];
  tool_choice?: Record<string, unknown>;
  thinking?: { type: 'enabled'; budget_tokens: number };
  temperature?: number;
  stop_sequences?: string[];
  stream?: boolean;
  [key: string]: unknown;
}
