/**
 * {@link ModelRequest} → OpenAI Responses request body (`POST /responses`).
 * @module
 */
import type { ModelInfo, ModelRequest, SystemPart } from '../../model/types.js';
import type { MediaContext } from '../shared/media.js';
import { MediaBudget, type MediaLimits } from '../shared/media-limits.js';
import { toResponsesInput } from './responses-input.js';

/** Options of one Responses model, fixed when it is created. */
export interface OpenAIResponsesSettings {
  /**
   * Keep responses on OpenAI's servers (`store`). Default `false`: tandem
   * sends the whole conversation with every call, so nothing needs storing,
   * and reasoning models are asked for encrypted reasoning to replay instead.
   */
  store?: boolean;
  /**
   * Whether the model reasons (o-series, gpt-5, codex). Default: guessed from
   * the model id. A reasoning model gets `include: ['reasoning.encrypted_content']`
   * when not storing, the `reasoning` options below, and no `temperature`
   * (which those models reject); other models get none of them, since they
   * reject encrypted reasoning.
   */
  reasoningModel?: boolean;
  /** `reasoning.effort`, e.g. `'low'`, `'medium'`, `'high'` (reasoning models only; default: the model's). */
  reasoningEffort?: string;
  /**
   * `reasoning.summary`: `'auto'`, `'concise'` or `'detailed'` (reasoning models only;
   * default: none requested, as summaries need a verified organization).
   */
  reasoningSummary?: string;
  /** `parallel_tool_calls` (default: the API's, which allows them). */
  parallelToolCalls?: boolean;
  /** Capabilities reported as `ChatModel.info`. */
  info?: ModelInfo;
}

// o1/o3/o4…, gpt-5.x and codex reason; their "-chat" variants do not.
const REASONING_MODEL = /^(?:[\w-]+\/)?(?:o\d|gpt-5|codex)(?!.*-chat)/i;

/** True when `modelId` names a reasoning model, unless the settings say otherwise. */
export function isReasoningModel(modelId: string, settings: OpenAIResponsesSettings = {}): boolean {
  return settings.reasoningModel ?? REASONING_MODEL.test(modelId);
}

function instructionsOf(system: string | SystemPart[] | undefined): string | undefined {
  if (system === undefined) return undefined;
  const text = typeof system === 'string' ? system : system.map((part) => part.text).join('\n\n');
  return text || undefined;
}

function toolChoiceOf(choice: ModelRequest['toolChoice']): unknown {
  if (choice === undefined || typeof choice === 'string') return choice;
  return { type: 'function', name: choice.name };
}

function textFormatOf(format: ModelRequest['responseFormat']): unknown {
  if (!format) return undefined;
  if (!format.schema) return { format: { type: 'json_object' } };
  const out: Record<string, unknown> = { type: 'json_schema', name: format.name ?? 'response' };
  if (format.description) out.description = format.description;
  out.schema = format.schema;
  out.strict = false;
  return { format: out };
}

/** The model a Responses body is for: made once per model, the same for every call. */
export interface ResponsesTarget {
  /** The provider's model name, e.g. `gpt-5-mini`. */
  modelId: string;
  settings: OpenAIResponsesSettings;
  /** The provider named in errors; `openai` when absent. */
  provider?: string | undefined;
  /** The server's size limits for inline images and files, when known. */
  mediaLimits?: MediaLimits | undefined;
}

/**
 * Builds the JSON body of one Responses call. `stop` sequences are not sent:
 * the Responses API has no such parameter. `providerOptions.openai` is merged
 * in last, so it can set or override any field.
 * @throws ModelError `bad_request` for an image or file the model cannot take or over `target.mediaLimits`.
 */
export function buildResponsesBody(
  request: ModelRequest,
  target: ResponsesTarget,
  stream: boolean,
): Record<string, unknown> {
  const { modelId, settings, provider, mediaLimits } = target;
  const overrides = request.providerOptions?.openai;
  // A per-call `store` decides how reasoning is replayed, so it is honoured here too.
  const store = typeof overrides?.store === 'boolean' ? overrides.store : (settings.store ?? false);
  const reasoning = isReasoningModel(modelId, settings);
  const body: Record<string, unknown> = { model: modelId };
  const instructions = instructionsOf(request.system);
  if (instructions) body.instructions = instructions;
  const media: MediaContext = {
    provider: provider ?? 'openai',
    model: modelId,
    accepts: settings.info?.inputMediaTypes,
  };
  if (mediaLimits) media.budget = new MediaBudget(mediaLimits);
  body.input = toResponsesInput(request.messages, store, media);
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
    const choice = toolChoiceOf(request.toolChoice);
    if (choice !== undefined) body.tool_choice = choice;
  }
  const text = textFormatOf(request.responseFormat);
  if (text) body.text = text;
  if (request.temperature !== undefined && !reasoning) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (reasoning && (settings.reasoningEffort || settings.reasoningSummary)) {
    const options: Record<string, string> = {};
    if (settings.reasoningEffort) options.effort = settings.reasoningEffort;
    if (settings.reasoningSummary) options.summary = settings.reasoningSummary;
    body.reasoning = options;
  }
  if (settings.parallelToolCalls !== undefined) body.parallel_tool_calls = settings.parallelToolCalls;
  body.store = store;
  if (reasoning && !store) body.include = ['reasoning.encrypted_content'];
  if (stream) body.stream = true;
  return { ...body, ...overrides };
}
