/**
 * A {@link ModelRequest} as the body of `models/<model>:generateContent`.
 * @module
 */
import type { ModelRequest, ToolChoice } from '../../model/types.js';
import type { MediaContext } from '../shared/media.js';
import { GEMINI_LIMITS, MediaBudget } from '../shared/media-limits.js';
import { toGeminiContents } from './contents.js';
import type { GeminiRequestBody } from './wire.js';

/** Per-model settings of the Gemini adapter. */
export interface GeminiModelSettings {
  /** `maxOutputTokens` when the request names none (default: the model's own limit). */
  maxOutputTokens?: number;
  /** `thinkingConfig`: token budget (`0` turns thinking off on 2.5 Flash), level (Gemini 3), thought summaries. */
  thinking?: {
    budgetTokens?: number;
    level?: 'minimal' | 'low' | 'medium' | 'high';
    includeThoughts?: boolean;
  };
  /** Sent as `safetySettings`. */
  safetySettings?: Array<{ category: string; threshold: string }>;
}

function systemInstruction(system: ModelRequest['system']): GeminiRequestBody['systemInstruction'] {
  const texts = typeof system === 'string' ? [system] : (system ?? []).map((p) => p.text);
  const parts = texts.filter((t) => t).map((text) => ({ text }));
  return parts.length > 0 ? { parts } : undefined;
}

function toolConfig(choice: ToolChoice | undefined): GeminiRequestBody['toolConfig'] {
  if (choice === undefined || choice === 'auto') return undefined;
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

function generationConfig(request: ModelRequest, settings: GeminiModelSettings): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  const max = request.maxOutputTokens ?? settings.maxOutputTokens;
  if (max !== undefined) config.maxOutputTokens = max;
  if (request.stop && request.stop.length > 0) config.stopSequences = request.stop;
  if (request.responseFormat?.type === 'json') {
    config.responseMimeType = 'application/json';
    if (request.responseFormat.schema) config.responseJsonSchema = request.responseFormat.schema;
  }
  const thinking = settings.thinking;
  if (thinking) {
    const thinkingConfig: Record<string, unknown> = {};
    if (thinking.budgetTokens !== undefined) thinkingConfig.thinkingBudget = thinking.budgetTokens;
    if (thinking.level !== undefined) thinkingConfig.thinkingLevel = thinking.level;
    if (thinking.includeThoughts !== undefined) thinkingConfig.includeThoughts = thinking.includeThoughts;
    config.thinkingConfig = thinkingConfig;
  }
  return config;
}

/**
 * Builds the request body. `providerOptions.gemini` is merged in last; its
 * `generationConfig` is merged into the generated one rather than replacing it.
 * Never modifies `request`.
 * @param media - who maps images and files, for checks and errors.
 * @throws ModelError `bad_request` for an image or file the model cannot take, or one over
 * Gemini's inline limits (100 MB of inline data per request, 50 MB per PDF, as base64).
 */
export function toGeminiBody(
  request: ModelRequest,
  settings: GeminiModelSettings = {},
  media: MediaContext = { provider: 'gemini', model: 'unknown' },
): GeminiRequestBody {
  const budget = new MediaBudget(GEMINI_LIMITS);
  const body: GeminiRequestBody = { contents: toGeminiContents(request.messages, { ...media, budget }) };
  const system = systemInstruction(request.system);
  if (system) body.systemInstruction = system;
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parametersJsonSchema: t.parameters,
        })),
      },
    ];
    const config = toolConfig(request.toolChoice);
    if (config) body.toolConfig = config;
  }
  const { generationConfig: extraConfig, ...extra } = request.providerOptions?.gemini ?? {};
  const config = {
    ...generationConfig(request, settings),
    ...(extraConfig as Record<string, unknown> | undefined),
  };
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (settings.safetySettings) body.safetySettings = settings.safetySettings;
  return { ...body, ...extra };
}
