/**
 * `tandem-agents/openai`: OpenAI Chat Completions and Responses, and every
 * OpenAI-compatible server (vLLM, Ollama, LM Studio, DeepSeek, Qwen, Kimi,
 * GLM, Groq, OpenRouter) through `baseURL`.
 *
 * ```ts
 * const openai = createOpenAI({ apiKey });
 * const model = openai('gpt-4o-mini');
 * const local = createOpenAI({ baseURL: 'http://localhost:11434/v1', name: 'ollama' })('qwen3:8b');
 * ```
 * @packageDocumentation
 */
import { ConfigError } from '../../core/errors.js';
import type { ChatModel } from '../../model/types.js';
import { OpenAIChatModel } from './chat-model.js';
import type { OpenAIChatSettings } from './chat-settings.js';
import { type OpenAIProviderOptions, resolveOpenAIConfig } from './config.js';
import { serverContextWindow } from './discover.js';
import { createOpenAIResponsesModel, type OpenAIResponsesSettings } from './responses.js';
import { thinkingFields } from './thinking.js';

export { OpenAIChatModel } from './chat-model.js';
export type { OpenAIChatSettings, ReplayReasoning } from './chat-settings.js';
export {
  isLocalURL,
  isOpenAIHost,
  OPENAI_BASE_URL,
  type OpenAIProviderOptions,
  type ResolvedOpenAIConfig,
  resolveOpenAIConfig,
} from './config.js';
export {
  createOpenAIEmbedding,
  OpenAIEmbeddingModel,
  type OpenAIEmbeddingOptions,
} from './embeddings.js';
export {
  createOpenAIImageModel,
  OpenAIImageModel,
  type OpenAIImageModelOptions,
  type OpenAIImageSettings,
} from './images.js';
export { createOpenAIResponsesModel, type OpenAIResponsesSettings } from './responses.js';

/** What {@link createOpenAI} returns: call it with a model name for a Chat Completions model. */
export interface OpenAIProvider {
  (modelId: string, settings?: OpenAIChatSettings): OpenAIChatModel;
  /** A Chat Completions model (`POST /chat/completions`); the same as calling the provider. */
  chat(modelId: string, settings?: OpenAIChatSettings): OpenAIChatModel;
  /** An OpenAI Responses API model (`POST /responses`). */
  responses(modelId: string, settings?: OpenAIResponsesSettings): ChatModel;
  /**
   * A Chat Completions model whose `info.contextWindow` is what the server
   * reports (vLLM's `max_model_len`, Ollama's model info, …) rather than an
   * assumed 128 000 tokens; context compression then works against the real
   * window. A window in `settings.info` wins; a server that reports none
   * leaves it unset. Rejects with a `ModelError` naming the URL when the
   * server cannot be asked.
   */
  discover(
    modelId: string,
    settings?: OpenAIChatSettings & { signal?: AbortSignal },
  ): Promise<OpenAIChatModel>;
}

/**
 * A provider for OpenAI or any OpenAI-compatible server.
 *
 * @example
 * ```ts
 * const deepseek = createOpenAI({ baseURL: 'https://api.deepseek.com/v1', apiKey, name: 'deepseek' });
 * const model = deepseek('deepseek-reasoner');
 * ```
 */
export function createOpenAI(options: OpenAIProviderOptions = {}): OpenAIProvider {
  const config = resolveOpenAIConfig(options);
  const thinking =
    options.thinking === undefined ? undefined : thinkingFields(config.baseURL, options.thinking);
  const chat = (modelId: string, settings?: OpenAIChatSettings): OpenAIChatModel =>
    new OpenAIChatModel(
      config,
      modelId,
      thinking ? { ...settings, extraBody: { ...thinking, ...settings?.extraBody } } : settings,
    );
  const provider = ((modelId: string, settings?: OpenAIChatSettings) =>
    chat(modelId, settings)) as OpenAIProvider;
  provider.chat = chat;
  provider.responses = (modelId, settings) => {
    if (thinking) {
      throw new ConfigError(
        `createOpenAI: thinking applies to Chat Completions models, not the Responses model ${modelId}: set its reasoningEffort`,
      );
    }
    return createOpenAIResponsesModel(config, modelId, settings);
  };
  provider.discover = async (modelId, { signal, ...settings } = {}) => {
    if (settings.info?.contextWindow) return chat(modelId, settings);
    const contextWindow = await serverContextWindow(config, modelId, signal);
    return chat(
      modelId,
      contextWindow ? { ...settings, info: { ...settings.info, contextWindow } } : settings,
    );
  };
  return provider;
}
