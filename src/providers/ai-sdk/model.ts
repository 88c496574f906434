/**
 * `fromAISDK`: any Vercel AI SDK language model object as a tandem
 * {@link ChatModel}. The model's own `doGenerate` / `doStream` are called
 * directly (no `generateText`, no AI SDK retries: tandem's invoker retries).
 * @module
 */
import type { LanguageModel } from 'ai';
import { ConfigError } from '../../core/errors.js';
import type {
  CallOptions,
  ChatModel,
  ModelInfo,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../model/types.js';
import { toCallOptions } from './call-options.js';
import { toModelError } from './errors.js';
import { toModelResponse } from './result.js';
import { fromAISDKStream } from './stream.js';
import type { AISDKLanguageModel, LanguageModelV3 } from './types.js';

/** Options of {@link fromAISDK}. */
export interface FromAISDKOptions {
  /** Overrides `ChatModel.id` (default `aisdk:<provider>:<modelId>`, e.g. `aisdk:openai.responses:gpt-5`). */
  id?: string;
  /** Capabilities reported as `ChatModel.info` (default: none claimed). */
  info?: ModelInfo;
}

const SUPPORTED = ['v2', 'v3'];

function checkModel(model: LanguageModel): AISDKLanguageModel {
  if (typeof model === 'string') {
    throw new ConfigError(
      `fromAISDK needs a model object, not the id "${model}": pass e.g. openai('gpt-5') from @ai-sdk/openai, or gateway('${model}')`,
    );
  }
  const version = (model as { specificationVersion?: unknown }).specificationVersion;
  if (typeof version !== 'string' || !SUPPORTED.includes(version)) {
    throw new ConfigError(
      `fromAISDK supports AI SDK language models of specification ${SUPPORTED.join(' and ')}, got ${String(version)}`,
    );
  }
  return model;
}

/**
 * Wraps an AI SDK language model (`LanguageModelV2` from `ai` 5 or
 * `LanguageModelV3` from `ai` 6) as a tandem {@link ChatModel}.
 *
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { fromAISDK } from 'tandem-agents/ai-sdk';
 * const model = fromAISDK(openai('gpt-5-mini'));
 * ```
 * @throws ConfigError for a model id string or an unsupported specification version.
 */
export function fromAISDK(model: LanguageModel, options: FromAISDKOptions = {}): ChatModel {
  // v2 call options are a subset of v3's and v2 results are read by shape, so one code path serves both.
  const spec = checkModel(model) as LanguageModelV3;
  const ctx = { provider: 'aisdk', model: `${spec.provider}:${spec.modelId}` };
  const id = options.id ?? `aisdk:${ctx.model}`;

  return {
    id,
    info: options.info,
    async generate(request: ModelRequest, call?: CallOptions): Promise<ModelResponse> {
      const signal = call?.signal;
      try {
        if (signal?.aborted) throw signal.reason;
        return toModelResponse(await spec.doGenerate(toCallOptions(request, signal)));
      } catch (error) {
        throw toModelError(error, ctx, signal);
      }
    },
    async *stream(request: ModelRequest, call?: CallOptions): AsyncGenerator<ModelStreamPart> {
      const signal = call?.signal;
      let result: Awaited<ReturnType<LanguageModelV3['doStream']>>;
      try {
        if (signal?.aborted) throw signal.reason;
        result = await spec.doStream(toCallOptions(request, signal));
      } catch (error) {
        throw toModelError(error, ctx, signal);
      }
      yield* fromAISDKStream(result.stream, ctx, signal);
    },
  };
}
