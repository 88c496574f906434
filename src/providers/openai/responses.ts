/**
 * OpenAI Responses API adapter (`POST {baseURL}/responses`): the system
 * prompt travels as `instructions`, tool calls as `function_call` items and
 * reasoning as replayable (encrypted) `reasoning` items.
 * @module
 */
import type {
  CallOptions,
  ChatModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../model/types.js';
import { readJSONBody } from '../shared/http.js';
import { OPENAI_LIMITS } from '../shared/media-limits.js';
import { readSSE } from '../shared/sse.js';
import { isOpenAIHost, postOpenAI, type ResolvedOpenAIConfig } from './config.js';
import { buildResponsesBody, isReasoningModel, type OpenAIResponsesSettings } from './responses-request.js';
import { parseResponsesObject } from './responses-response.js';
import { responsesStreamParts } from './responses-stream.js';

export type { OpenAIResponsesSettings } from './responses-request.js';

/**
 * A {@link ChatModel} on the OpenAI Responses API. Reached by users through
 * `createOpenAI(...).responses(modelId)`.
 * @param config - the provider's resolved connection settings.
 * @param modelId - the provider's model name, e.g. `gpt-5-mini`.
 * @param settings - per-model options; see {@link OpenAIResponsesSettings}.
 */
export function createOpenAIResponsesModel(
  config: ResolvedOpenAIConfig,
  modelId: string,
  settings: OpenAIResponsesSettings = {},
): ChatModel {
  const id = `${config.provider}:${modelId}`;
  const ctx = { provider: config.provider, model: modelId };
  // OpenAI's stated limits; a compatible server's own are not known here.
  const limits = isOpenAIHost(config.baseURL) ? OPENAI_LIMITS : undefined;
  const target = { modelId, settings, provider: config.provider, mediaLimits: limits };

  const post = (request: ModelRequest, stream: boolean, signal: AbortSignal | undefined) =>
    postOpenAI(config, {
      path: '/responses',
      body: buildResponsesBody(request, target, stream),
      model: modelId,
      signal,
      stream,
    });

  return {
    id,
    info: settings.info ?? {
      supportsTools: true,
      supportsJson: true,
      structuredOutput: 'json_schema',
      structuredOutputWithTools: true,
      supportsReasoning: isReasoningModel(modelId, settings),
    },

    async generate(request: ModelRequest, options?: CallOptions): Promise<ModelResponse> {
      const signal = options?.signal;
      const response = await post(request, false, signal);
      return parseResponsesObject(await readJSONBody<unknown>(response, signal, ctx), id);
    },

    async *stream(request: ModelRequest, options?: CallOptions): AsyncGenerator<ModelStreamPart> {
      const signal = options?.signal;
      const response = await post(request, true, signal);
      yield* responsesStreamParts(readSSE(response, signal, ctx), id);
    },
  };
}
