/**
 * `createGemini`: the Gemini API (`generateContent` / `streamGenerateContent`)
 * as a tandem {@link ChatModel}. Uses only `fetch`, so it runs on Node, Bun,
 * Deno, browsers and edge runtimes.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import { createIdGenerator, type IdGenerator } from '../../core/seams.js';
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
import { type GeminiModelSettings, toGeminiBody } from './request.js';
import { toModelResponse } from './response.js';
import { geminiStreamParts } from './stream.js';
import type { GeminiResponseBody } from './wire.js';

/** Options of {@link createGemini}. */
export interface GeminiOptions extends HttpConfig {
  /**
   * API key sent as `x-goog-api-key` (default `GEMINI_API_KEY`, then `GOOGLE_API_KEY`, from the environment,
   * read per request). Google's own API with none (nor an `x-goog-api-key` or `authorization` header) throws
   * a `ConfigError` at the first call, before any request; another `baseURL` needs none.
   */
  apiKey?: string;
  /** API root (default `https://generativelanguage.googleapis.com/v1beta`); requests go to `<baseURL>/models/<model>:…`. */
  baseURL?: string;
  /**
   * Names a reply that carries no `responseId` in the ids of its function
   * calls when Gemini sends none (`<name>_<index>_<reply>`). Default: UUIDs.
   */
  ids?: IdGenerator;
  /**
   * Thinking on or off for every model of this provider (a providers
   * config's `enable_thinking`), as `thinkingConfig`: `true` asks for dynamic
   * thinking with thought summaries (`thinkingBudget: -1, includeThoughts`);
   * `false` turns it off (`thinkingBudget: 0`; Gemini 3, which cannot turn
   * it off, gets its lowest level, `thinkingLevel: 'low'`; 2.5 Pro refuses
   * to stop thinking). A model's own `thinking` setting wins.
   */
  thinking?: boolean;
}

/** Settings of one Gemini model. */
export interface GeminiSettings extends GeminiModelSettings {
  /** Overrides the defaults reported as {@link ChatModel.info}. */
  info?: ModelInfo;
}

/** Makes Gemini models: `createGemini()('gemini-2.5-flash')`. */
export type GeminiProvider = (modelId: string, settings?: GeminiSettings) => ChatModel;

const PROVIDER = 'gemini';

// Gemini 3 takes function declarations and a response schema in one request; earlier models refuse the pair.
// It also sets thinking by level: a budget of 0 does not turn it off.
const TOOLS_WITH_SCHEMA = /(?:^|\/)gemini-(?:[3-9]|\d{2,})/;

// Gemini answers a bad API key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID), which is an auth failure.
function authFailure(error: unknown): unknown {
  if (!(error instanceof ModelError) || error.kind !== 'bad_request') return error;
  if (!/API_KEY_INVALID|API key not valid/.test(JSON.stringify(error.body ?? '') + error.message))
    return error;
  return new ModelError('auth', error.message, {
    status: error.status,
    model: error.model,
    body: error.body,
    cause: error,
  });
}

/** Creates the Gemini provider. */
export function createGemini(options: GeminiOptions = {}): GeminiProvider {
  const baseURL = (options.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta').replace(/\/+$/, '');
  const ids = options.ids ?? createIdGenerator();
  const keySource: ApiKeySource = {
    factory: 'createGemini',
    given: options.apiKey,
    env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    required: isHost(baseURL, 'generativelanguage.googleapis.com'),
    headers: options.headers,
    authHeaders: ['x-goog-api-key', 'authorization'],
  };
  const refresher = options.refreshApiKey && new KeyRefresher('createGemini', options.refreshApiKey);
  const requestHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = {};
    const apiKey = apiKeyOf({ ...keySource, given: refresher?.current ?? keySource.given });
    if (apiKey) headers['x-goog-api-key'] = apiKey;
    return Object.assign(headers, options.headers);
  };
  const reauthorize = refresher && (() => refresher.renew().then(requestHeaders));

  return (modelId, own = {}) => {
    const settings = withThinking(own, options.thinking, TOOLS_WITH_SCHEMA.test(modelId));
    const id = `${PROVIDER}:${modelId}`;
    const ctx = { provider: PROVIDER, model: modelId };
    const path = /^(models|tunedModels)\//.test(modelId) ? modelId : `models/${modelId}`;
    const info: ModelInfo = {
      contextWindow: 1_048_576,
      supportsTools: true,
      supportsJson: true,
      structuredOutput: 'json_schema',
      structuredOutputWithTools: TOOLS_WITH_SCHEMA.test(modelId),
      supportsReasoning: true,
      ...settings.info,
    };
    const post = (request: ModelRequest, url: string, signal?: AbortSignal) =>
      postJSON({
        url,
        body: toGeminiBody(request, settings, { ...ctx, accepts: info.inputMediaTypes }),
        headers: requestHeaders(),
        reauthorize,
        signal,
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        ...ctx,
      }).catch((error: unknown) => {
        throw authFailure(error);
      });
    return {
      id,
      info,
      async generate(request: ModelRequest, call?: CallOptions): Promise<ModelResponse> {
        const response = await post(request, `${baseURL}/${path}:generateContent`, call?.signal);
        const body = await readJSONBody<GeminiResponseBody>(response, call?.signal, ctx);
        return toModelResponse(body, id, ids);
      },
      async *stream(request: ModelRequest, call?: CallOptions): AsyncGenerator<ModelStreamPart> {
        const response = await post(
          request,
          `${baseURL}/${path}:streamGenerateContent?alt=sse`,
          call?.signal,
        );
        yield* geminiStreamParts(readSSE(response, call?.signal, ctx), { ...ctx, ids });
      },
    };
  };
}

/** A model's settings with the provider's thinking switch, unless the model sets its own. */
function withThinking(settings: GeminiSettings, on: boolean | undefined, byLevel: boolean): GeminiSettings {
  if (on === undefined || settings.thinking !== undefined) return settings;
  const thinking: GeminiSettings['thinking'] = on
    ? { budgetTokens: -1, includeThoughts: true }
    : byLevel
      ? { level: 'low' }
      : { budgetTokens: 0 };
  return { ...settings, thinking };
}
