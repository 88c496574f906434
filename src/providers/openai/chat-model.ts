/**
 * A {@link ChatModel} over the Chat Completions API of OpenAI or any
 * OpenAI-compatible server.
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
import { readJSONBody } from '../shared/http.js';
import { OPENAI_LIMITS } from '../shared/media-limits.js';
import { readSSE } from '../shared/sse.js';
import { chatRequestBody } from './chat-request.js';
import { fromChatCompletion, type ReplyContext } from './chat-response.js';
import type { OpenAIChatSettings } from './chat-settings.js';
import { parseChatStream } from './chat-stream.js';
import type { WireCompletion } from './chat-wire.js';
import { isLocalURL, isOpenAIHost, postOpenAI, type ResolvedOpenAIConfig } from './config.js';

/** Chat Completions model; `generate` uses the non-streaming endpoint, `stream` the SSE one. */
export class OpenAIChatModel implements ChatModel {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  readonly info: ModelInfo;
  private readonly ctx: ReplyContext;
  private readonly maxTokensParam: 'max_tokens' | 'max_completion_tokens';

  constructor(
    private readonly config: ResolvedOpenAIConfig,
    /** The model name the server knows, e.g. `gpt-4o-mini` or `qwen3:8b`. */
    readonly modelId: string,
    private readonly settings: OpenAIChatSettings = {},
  ) {
    this.id = `${config.provider}:${modelId}`;
    this.ctx = { provider: config.provider, model: modelId, thinkTags: settings.inlineThinking !== 'text' };
    const openai = isOpenAIHost(config.baseURL);
    this.maxTokensParam = settings.maxTokensParam ?? (openai ? 'max_completion_tokens' : 'max_tokens');
    this.info = {
      supportsTools: true,
      supportsJson: true,
      // Compatible servers vary: JSON mode is the common ground; `info` says when one takes schemas.
      structuredOutput: openai ? 'json_schema' : 'json',
      structuredOutputWithTools: openai,
      ...(isLocalURL(config.baseURL) ? { local: true } : {}),
      ...settings.info,
    };
  }

  /** One whole reply from the non-streaming endpoint. */
  async generate(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    const response = await this.post(request, false, options.signal);
    return fromChatCompletion(
      await readJSONBody<WireCompletion>(response, options.signal, this.ctx),
      this.ctx,
    );
  }

  /** The reply as stream parts, ending with a `finish` part carrying usage. */
  async *stream(request: ModelRequest, options: CallOptions = {}): AsyncGenerator<ModelStreamPart> {
    const response = await this.post(request, true, options.signal);
    yield* parseChatStream(readSSE(response, options.signal, this.ctx), this.ctx);
  }

  private post(request: ModelRequest, stream: boolean, signal: AbortSignal | undefined): Promise<Response> {
    const body = chatRequestBody(
      request,
      {
        modelId: this.modelId,
        provider: this.config.provider,
        settings: this.settings,
        maxTokensParam: this.maxTokensParam,
        mediaLimits: isOpenAIHost(this.config.baseURL) ? OPENAI_LIMITS : undefined,
      },
      stream,
    );
    return postOpenAI(this.config, { path: '/chat/completions', body, model: this.modelId, signal, stream });
  }
}
