/**
 * `createAnthropic`: the Anthropic Messages API as a tandem {@link ChatModel}.
 * Uses only `fetch`, so it runs on Node, Bun, Deno, browsers and edge runtimes.
 * @module
 */
import type {
  CallOptions,
  ChatModel,
  ModelInfo,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../model/types.js';
import { type ApiKeySource, apiKeyOf, isHost, KeyRefresher } from '../shared/api-key.js';
import { type HttpConfig, postJSON, readJSONBody } from '../shared/http.js';
import { readSSE } from '../shared/sse.js';
import { answerToolOf } from './answer-tool.js';
import { type AnthropicModelSettings, toAnthropicBody } from './request.js';
import { toModelResponse } from './response.js';
import { anthropicStreamParts } from './stream.js';
import type { AnthropicResponseBody } from './wire.js';

/** Options of {@link createAnthropic}. */
export interface AnthropicOptions extends HttpConfig {
  /**
   * API key sent as `x-api-key` (default `ANTHROPIC_API_KEY` from the environment, read per request).
   * Anthropic's own API with neither (nor an `x-api-key` or `authorization` header) throws a
   * `ConfigError` at the first call, before any request; another `baseURL` needs none.
   */
  apiKey?: string;
  /** API root (default `https://api.anthropic.com/v1`); requests go to `<baseURL>/messages`. */
  baseURL?: string;
  /** `anthropic-version` header (default `2023-06-01`). */
  version?: string;
  /**
   * Extended thinking for every model of this provider (a providers config's
   * `enable_thinking`): `true` sends `thinking: { type: 'enabled' }` with
   * 4096 budget tokens (`max_tokens` grows by as much unless given), `false`
   * sends none (the API's default). A model's own `thinking` setting wins.
   */
  thinking?: boolean;
}

/** Budget tokens of the provider-wide `thinking: true` (Anthropic's minimum is 1024). */
const DEFAULT_THINKING_BUDGET = 4096;

/** Settings of one Anthropic model. */
export interface AnthropicSettings extends AnthropicModelSettings {
  /** Overrides the defaults reported as {@link ChatModel.info}. */
  info?: ModelInfo;
}

/** Makes Anthropic models: `createAnthropic()('claude-sonnet-4-5', { thinking: { budgetTokens: 4096 } })`. */
export type AnthropicProvider = (modelId: string, settings?: AnthropicSettings) => ChatModel;

const PROVIDER = 'anthropic';

/** Creates the Anthropic provider. */
export function createAnthropic(options: AnthropicOptions = {}): AnthropicProvider {
  const baseURL = (options.baseURL ?? 'https://api.anthropic.com/v1').replace(/\/+$/, '');
  const keySource: ApiKeySource = {
    factory: 'createAnthropic',
    given: options.apiKey,
    env: ['ANTHROPIC_API_KEY'],
    required: isHost(baseURL, 'api.anthropic.com'),
    headers: options.headers,
    authHeaders: ['x-api-key', 'authorization'],
  };
  const refresher = options.refreshApiKey && new KeyRefresher('createAnthropic', options.refreshApiKey);
  const requestHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = { 'anthropic-version': options.version ?? '2023-06-01' };
    const apiKey = apiKeyOf({ ...keySource, given: refresher?.current ?? keySource.given });
    if (apiKey) headers['x-api-key'] = apiKey;
    return Object.assign(headers, options.headers);
  };
  const reauthorize = refresher && (() => refresher.renew().then(requestHeaders));

  return (modelId, own = {}) => {
    const settings = withThinking(own, options.thinking);
    const id = `${PROVIDER}:${modelId}`;
    const ctx = { provider: PROVIDER, model: modelId };
    const info: ModelInfo = {
      contextWindow: 200_000,
      supportsTools: true,
      supportsJson: true,
      // A forced answer tool; a request with tools cannot force it, so the answer is formatted after them.
      structuredOutput: 'tool',
      structuredOutputWithTools: false,
      supportsReasoning: settings.thinking !== undefined,
      ...settings.info,
    };
    const post = (request: ModelRequest, stream: boolean, signal?: AbortSignal) => {
      const body = toAnthropicBody(modelId, request, settings, info.inputMediaTypes);
      if (stream) body.stream = true;
      return postJSON({
        url: `${baseURL}/messages`,
        body,
        headers: requestHeaders(),
        reauthorize,
        signal,
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        ...ctx,
      });
    };
    return {
      id,
      info,
      async generate(request: ModelRequest, call?: CallOptions): Promise<ModelResponse> {
        const response = await post(request, false, call?.signal);
        const body = await readJSONBody<AnthropicResponseBody>(response, call?.signal, ctx);
        return toModelResponse(body, id, answerToolOf(request.responseFormat));
      },
      async *stream(request: ModelRequest, call?: CallOptions): AsyncGenerator<ModelStreamPart> {
        const response = await post(request, true, call?.signal);
        const answer = answerToolOf(request.responseFormat);
        yield* anthropicStreamParts(readSSE(response, call?.signal, ctx), ctx, answer);
      },
    };
  };
}

/** A model's settings with the provider's thinking switch, unless the model sets its own. */
function withThinking(settings: AnthropicSettings, on: boolean | undefined): AnthropicSettings {
  if (!on || settings.thinking !== undefined) return settings;
  return { ...settings, thinking: { budgetTokens: DEFAULT_THINKING_BUDGET } };
}
