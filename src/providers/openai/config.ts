/**
 * Provider-level options of the OpenAI adapters (Chat Completions and
 * Responses), resolved once per `createOpenAI` call.
 * @module
 */
import { apiKeyOf, KeyRefresher } from '../shared/api-key.js';
import { postJSON } from '../shared/http.js';

/** Options of `createOpenAI`. */
export interface OpenAIProviderOptions {
  /**
   * API key, sent as `Authorization: Bearer <key>`. When omitted and `baseURL`
   * is OpenAI's own, `OPENAI_API_KEY` from the environment is used (read
   * safely: runtimes without `process` are fine, and per request); with
   * neither (nor an `authorization` header), a call throws a `ConfigError`
   * before any request. Other servers never get the environment's OpenAI
   * key, and need none.
   */
  apiKey?: string;
  /**
   * Called once when a request is refused with 401: returns a fresh key
   * (short-lived tokens, rotated secrets), which then replaces `apiKey` for
   * every later request; the refused request is sent again with it.
   */
  refreshApiKey?: () => string | Promise<string>;
  /** Base URL of the API (default `https://api.openai.com/v1`); any OpenAI-compatible server's `/v1`. */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** `fetch` to use (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Fail with a `timeout` error when no response headers arrive within this many ms (default: none). */
  timeoutMs?: number;
  /** Provider name used in model ids (`<name>:<model>`) and errors (default `openai`). */
  name?: string;
  /** `OpenAI-Organization` header. */
  organization?: string;
  /** `OpenAI-Project` header. */
  project?: string;
  /**
   * Turns the models' thinking on or off (a providers config's
   * `enable_thinking`), as the server at `baseURL` names the switch:
   * `enable_thinking` on Alibaba Cloud (DashScope), `thinking: { type }` on
   * DeepSeek, Zhipu GLM and Moonshot Kimi, `chat_template_kwargs` on any
   * other server (vLLM, SGLang, llama.cpp). Chat Completions models only;
   * a `ConfigError` on OpenAI's own API, which has no such switch.
   * `extraBody` and `providerOptions` still override it.
   */
  thinking?: boolean;
}

/** Options after defaults, shared by the Chat and Responses models. */
export interface ResolvedOpenAIConfig {
  /** Provider name, e.g. `openai`. */
  provider: string;
  /** Base URL without a trailing slash. */
  baseURL: string;
  /** Headers of one request (evaluated per request, so key rotation through the environment works). */
  headers: () => Record<string, string>;
  /** With `refreshApiKey`: renews the key after a 401 and returns the new headers. */
  reauthorize?: () => Promise<Record<string, string>>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** OpenAI's own API. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** True when `baseURL` is OpenAI's own API (not a compatible server). */
export function isOpenAIHost(baseURL: string): boolean {
  return hostOf(baseURL) === 'api.openai.com';
}

/** True when `baseURL` points at this machine (localhost, 127.x, ::1). */
export function isLocalURL(baseURL: string): boolean {
  const host = hostOf(baseURL);
  if (!host) return false;
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]';
}

/** Applies the defaults to {@link OpenAIProviderOptions}. */
export function resolveOpenAIConfig(options: OpenAIProviderOptions = {}): ResolvedOpenAIConfig {
  const baseURL = (options.baseURL ?? OPENAI_BASE_URL).replace(/\/+$/, '');
  const useEnvKey = isOpenAIHost(baseURL);
  const refresher = options.refreshApiKey && new KeyRefresher('createOpenAI', options.refreshApiKey);
  const config: ResolvedOpenAIConfig = {
    provider: options.name ?? 'openai',
    baseURL,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    headers() {
      const headers: Record<string, string> = {};
      const given = refresher?.current ?? options.apiKey;
      const apiKey = useEnvKey
        ? apiKeyOf({
            factory: 'createOpenAI',
            given,
            env: ['OPENAI_API_KEY'],
            required: true,
            headers: options.headers,
            authHeaders: ['authorization'],
          })
        : given;
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      if (options.organization) headers['openai-organization'] = options.organization;
      if (options.project) headers['openai-project'] = options.project;
      return { ...headers, ...options.headers };
    },
  };
  if (refresher) {
    config.reauthorize = async () => {
      await refresher.renew();
      return config.headers();
    };
  }
  return config;
}

/** One POST to an OpenAI-compatible endpoint: its path under the base URL, the body, the model it is for. */
export interface OpenAIPost {
  path: string;
  body: unknown;
  model: string;
  signal?: AbortSignal;
  /** Asks for server-sent events. */
  stream?: boolean;
}

/** POSTs under `config`: its headers (key checked, refreshed on a 401), fetch and time limit. */
export function postOpenAI(config: ResolvedOpenAIConfig, post: OpenAIPost): Promise<Response> {
  const headers = config.headers();
  return postJSON({
    url: `${config.baseURL}${post.path}`,
    body: post.body,
    headers: post.stream ? { ...headers, accept: 'text/event-stream' } : headers,
    reauthorize: config.reauthorize,
    signal: post.signal,
    fetch: config.fetch,
    timeoutMs: config.timeoutMs,
    provider: config.provider,
    model: post.model,
  });
}
