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
import { DIALECTS, dialectOf } from './dialects.js';
import { toModelError } from './errors.js';
import { type ReadContext, toModelResponse } from './result.js';
import { fromAISDKStream } from './stream.js';
import type { SpecModel, SpecStreamPart } from './types.js';

/** Options of {@link fromAISDK}. */
export interface FromAISDKOptions {
  /** Overrides `ChatModel.id` (default `aisdk:<provider>:<modelId>`, e.g. `aisdk:openai.responses:gpt-5`). */
  id?: string;
  /**
   * Capabilities reported as `ChatModel.info`, over the default: structured
   * output as the AI SDK's `responseFormat` with a schema (the provider
   * honours it natively or falls back, and tandem validates either way);
   * nothing else claimed.
   */
  info?: ModelInfo;
}

const VERSIONS = Object.keys(DIALECTS);
const SUPPORTED = `${VERSIONS.slice(0, -1).join(', ')} and ${VERSIONS.at(-1)}`;

function readContext(model: LanguageModel): { spec: SpecModel; read: ReadContext } {
  if (typeof model === 'string') {
    throw new ConfigError(
      `fromAISDK needs a model object, not the id "${model}": pass e.g. openai('gpt-5') from @ai-sdk/openai, or gateway('${model}')`,
    );
  }
  // Typed by whichever `ai` major is installed; read structurally, by the version the object declares.
  const candidate = model as unknown as Partial<SpecModel> | null | undefined;
  const version = candidate?.specificationVersion;
  const dialect = dialectOf(version);
  if (!dialect) {
    throw new ConfigError(
      `fromAISDK supports AI SDK language models of specification ${SUPPORTED}, got ${String(version)}`,
    );
  }
  const spec = candidate as SpecModel;
  return { spec, read: { provider: 'aisdk', model: `${spec.provider}:${spec.modelId}`, dialect } };
}

/**
 * Wraps an AI SDK language model (`LanguageModelV2` from `ai` 5,
 * `LanguageModelV3` from `ai` 6 or `LanguageModelV4` from `ai` 7) as a
 * tandem {@link ChatModel}.
 *
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { fromAISDK } from 'tandem-agents/ai-sdk';
 * const model = fromAISDK(openai('gpt-5-mini'));
 * ```
 * @throws ConfigError for a model id string, a value that is not a model, or an unsupported specification version.
 */
export function fromAISDK(model: LanguageModel, options: FromAISDKOptions = {}): ChatModel {
  const { spec, read } = readContext(model);
  const id = options.id ?? `aisdk:${read.model}`;
  const mapping = {
    dialect: read.dialect,
    media: { provider: read.provider, model: read.model, accepts: options.info?.inputMediaTypes },
  };
  const callOptions = (request: ModelRequest, signal: AbortSignal | undefined) =>
    toCallOptions(request, signal, mapping);

  return {
    id,
    info: { structuredOutput: 'json_schema', ...options.info },
    async generate(request: ModelRequest, call?: CallOptions): Promise<ModelResponse> {
      const signal = call?.signal;
      try {
        if (signal?.aborted) throw signal.reason;
        const result = await spec.doGenerate(callOptions(request, signal));
        return toModelResponse(result, read, request.responseFormat !== undefined);
      } catch (error) {
        throw toModelError(error, read, signal);
      }
    },
    async *stream(request: ModelRequest, call?: CallOptions): AsyncGenerator<ModelStreamPart> {
      const signal = call?.signal;
      let stream: ReadableStream<SpecStreamPart>;
      try {
        if (signal?.aborted) throw signal.reason;
        ({ stream } = await spec.doStream(callOptions(request, signal)));
      } catch (error) {
        throw toModelError(error, read, signal);
      }
      yield* fromAISDKStream(stream, read, signal);
    },
  };
}
