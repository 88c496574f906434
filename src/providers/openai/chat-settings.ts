/**
 * Per-model settings of the Chat Completions adapter.
 * @module
 */
import type { ModelInfo } from '../../model/types.js';

/** When reasoning of earlier assistant turns is sent back as `reasoning_content`. */
export type ReplayReasoning = 'auto' | 'always' | 'never';

/** Settings of one Chat Completions model (second argument of `createOpenAI(...)(modelId, settings)`). */
export interface OpenAIChatSettings {
  /**
   * Request field carrying `ModelRequest.maxOutputTokens`. Default
   * `max_completion_tokens` on api.openai.com (its reasoning models reject
   * `max_tokens`), `max_tokens` on every other server.
   */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Replay of reasoning parts on later assistant turns, as `reasoning_content`:
   * `auto` (default) only on turns with tool calls — DeepSeek and Kimi thinking
   * modes require it there and reject or ignore it elsewhere; `always`; `never`.
   */
  replayReasoning?: ReplayReasoning;
  /** `parallel_tool_calls`, sent only when set and the request has tools. */
  parallelToolCalls?: boolean;
  /** Ask for the final usage chunk when streaming (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean;
  /** `strict` of the `json_schema` response format. Default false (any JSON Schema is accepted). */
  strictJsonSchema?: boolean;
  /** Fields merged into every request body, e.g. `{ thinking: { type: 'enabled' } }` for GLM. */
  extraBody?: Record<string, unknown>;
  /**
   * A reply text opening with `<think>…</think>` (reasoning models on vLLM,
   * Ollama or llama.cpp without a reasoning parser): `parse` (default) makes
   * the block a reasoning part and the rest the answer — an unclosed block is
   * all reasoning, so the executor asks again; `text` keeps it as text.
   */
  inlineThinking?: 'parse' | 'text';
  /** What is known about the model (context window, output limit…), reported as `ModelInfo`. */
  info?: ModelInfo;
}
