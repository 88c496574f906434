/**
 * Learning a model's context window from the server that serves it, instead
 * of assuming 128 000 tokens: an OpenAI-compatible `/models` entry
 * (`max_model_len` on vLLM and SGLang, `context_length` on OpenRouter and
 * LM Studio, `context_window` on Groq), else Ollama's model info
 * (`/api/show`: the `num_ctx` the model is set to run with, else its
 * architecture's `context_length`).
 * @module
 */
import { ModelError } from '../../core/errors.js';
import { errorFromResponse, networkError } from '../shared/errors.js';
import type { ResolvedOpenAIConfig } from './config.js';

/** Fields of a `/models` entry that carry the window, by server. */
const WINDOW_FIELDS = ['max_model_len', 'context_length', 'context_window', 'max_context_length'] as const;

/** The window the server reports for `modelId`, or `undefined` when it reports none. */
export async function serverContextWindow(
  config: ResolvedOpenAIConfig,
  modelId: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const listed = await request(config, modelId, { path: '/models', signal });
  const entries = (listed as { data?: unknown } | undefined)?.data;
  const entry = Array.isArray(entries)
    ? (entries as Array<Record<string, unknown>>).find((e) => e?.id === modelId)
    : undefined;
  for (const field of WINDOW_FIELDS) {
    const value = entry?.[field];
    if (typeof value === 'number' && value > 0) return value;
  }
  return ollamaWindow(config, modelId, signal);
}

/** Ollama serves its OpenAI-compatible API under `/v1`; its own API is beside it. */
async function ollamaWindow(
  config: ResolvedOpenAIConfig,
  modelId: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  if (!/\/v1$/.test(config.baseURL)) return undefined;
  const root = config.baseURL.slice(0, -'/v1'.length);
  const shown = await request(config, modelId, {
    path: '/api/show',
    root,
    body: { model: modelId },
    signal,
    optional: true,
  });
  if (!shown || typeof shown !== 'object') return undefined;
  const { parameters, model_info: info } = shown as {
    parameters?: unknown;
    model_info?: Record<string, unknown>;
  };
  const numCtx =
    typeof parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(parameters)?.[1] : undefined;
  if (numCtx) return Number(numCtx);
  const key = info && Object.keys(info).find((k) => k.endsWith('.context_length'));
  const value = key ? info?.[key] : undefined;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

interface RequestOptions {
  path: string;
  root?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** A 404 (no such endpoint) resolves `undefined` instead of failing. */
  optional?: boolean;
}

async function request(
  config: ResolvedOpenAIConfig,
  modelId: string,
  options: RequestOptions,
): Promise<unknown> {
  const url = `${options.root ?? config.baseURL}${options.path}`;
  const ctx = { provider: config.provider, model: modelId, url };
  let response: Response;
  try {
    response = await (config.fetch ?? globalThis.fetch)(url, {
      method: options.body ? 'POST' : 'GET',
      headers: {
        accept: 'application/json',
        ...config.headers(),
        ...(options.body ? { 'content-type': 'application/json' } : {}),
      },
      body: options.body ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    throw networkError(error, ctx);
  }
  const text = await response.text();
  if (response.status === 404 && (options.optional || options.path === '/models')) return undefined;
  if (!response.ok) {
    const error = errorFromResponse(response, text, ctx);
    const id = `${config.provider}:${modelId}`;
    throw new ModelError(error.kind, `${id}: ${url} answered ${response.status}: ${error.message}`, {
      model: id,
      status: response.status,
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    const id = `${config.provider}:${modelId}`;
    throw new ModelError('invalid_response', `${id}: ${url} answered with text that is not JSON`, {
      model: id,
      cause,
    });
  }
}
