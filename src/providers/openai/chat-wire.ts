/**
 * The Chat Completions wire format, as OpenAI and the compatible servers
 * send it. Every field is optional: servers differ in what they omit.
 * @module
 */

/** A tool call in a request message or a complete response. */
export interface WireToolCall {
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string | Record<string, unknown> };
}

/** A tool-call fragment of a stream delta. */
export interface WireToolCallDelta extends WireToolCall {
  index?: number;
}

/** A part of a user message's content array. */
export type WireContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** A message as sent in a request. */
export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: WireToolCall[];
      /** DeepSeek / Kimi / Qwen / GLM thinking text, replayed on later turns. */
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Token counts of a reply (OpenAI fields plus DeepSeek's cache counters). */
export interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  prompt_cache_hit_tokens?: number;
}

/** The assistant message of a non-streaming reply. */
export interface WireResponseMessage {
  content?: string | null;
  refusal?: string | null;
  reasoning_content?: string | null;
  /** OpenRouter / Groq name for the reasoning text. */
  reasoning?: string | null;
  tool_calls?: WireToolCall[] | null;
}

/** A non-streaming `chat.completion`. */
export interface WireCompletion {
  id?: string;
  model?: string;
  choices?: Array<{ index?: number; message?: WireResponseMessage; finish_reason?: string | null }>;
  usage?: WireUsage | null;
  error?: unknown;
}

/** One `chat.completion.chunk`. */
export interface WireChunk {
  id?: string;
  choices?: Array<{
    index?: number;
    delta?: Omit<WireResponseMessage, 'tool_calls'> & { tool_calls?: WireToolCallDelta[] | null };
    finish_reason?: string | null;
  }>;
  usage?: WireUsage | null;
  /** Errors some servers put inside an otherwise normal chunk (OpenRouter). */
  error?: unknown;
}
