/**
 * A {@link ModelRequest} as the body of `POST /v1/messages`.
 * @module
 */
import type { ModelRequest, ToolChoice } from '../../model/types.js';
import { ANTHROPIC_LIMITS, MediaBudget } from '../shared/media-limits.js';
import { answerToolInstruction, answerToolOf, answerToolSpec } from './answer-tool.js';
import { applyCacheBreakpoints, type CacheOptions } from './cache.js';
import { toAnthropicMessages } from './messages.js';
import type { AnthropicRequestBody, AnthropicTextBlock } from './wire.js';

/** `max_tokens` when neither the request nor the settings name one (the API requires it). */
export const DEFAULT_MAX_TOKENS = 4096;

/** Per-model settings of the Anthropic adapter. */
export interface AnthropicModelSettings {
  /** `max_tokens` when the request has no `maxOutputTokens` (default 4096, on top of the thinking budget). */
  maxTokens?: number;
  /** Extended thinking with this many budget tokens (at least 1024). */
  thinking?: { budgetTokens: number };
  /** Prompt-cache breakpoints (default on: system + last 3 messages, 5-minute TTL); `false` sends none. */
  cache?: false | CacheOptions;
  /** `false` asks for at most one tool call per turn (`disable_parallel_tool_use`). */
  parallelToolCalls?: boolean;
}

function systemBlocks(system: ModelRequest['system']): { blocks: AnthropicTextBlock[]; flagged: number[] } {
  const blocks: AnthropicTextBlock[] = [];
  const flagged: number[] = [];
  if (typeof system === 'string') {
    if (system) blocks.push({ type: 'text', text: system });
  } else if (system) {
    for (const part of system) {
      if (!part.text) continue;
      if (part.cache) flagged.push(blocks.length);
      blocks.push({ type: 'text', text: part.text });
    }
  }
  return { blocks, flagged };
}

// Anthropic has no plain JSON mode; the instruction goes into the system prompt, never a user message.
function jsonInstruction(format: NonNullable<ModelRequest['responseFormat']>): AnthropicTextBlock {
  const schema = format.schema ? ` matching this JSON Schema:\n${JSON.stringify(format.schema)}` : '';
  return { type: 'text', text: `Reply with a single JSON value only, no prose and no code fences,${schema}` };
}

function toolChoiceOf(
  choice: ToolChoice | undefined,
  parallel: boolean | undefined,
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') out = { type: 'any' };
  else if (typeof choice === 'object') out = { type: 'tool', name: choice.name };
  else if (choice === 'auto' || parallel === false) out = { type: 'auto' };
  if (out && parallel === false) out.disable_parallel_tool_use = true;
  return out;
}

/**
 * Whether the answer tool can be forced: not beside tools the model may
 * still call (unless the request allows none), and not with extended
 * thinking, which refuses a forced tool.
 */
function forcible(request: ModelRequest, settings: AnthropicModelSettings): boolean {
  const otherTools = request.toolChoice !== 'none' && (request.tools?.length ?? 0) > 0;
  return !otherTools && settings.thinking === undefined;
}

/**
 * Builds the request body for `model`. Never modifies `request`. A response
 * format with a schema becomes the answer tool (`answer-tool.ts`).
 * @param inputMediaTypes - media types the model takes (`ModelInfo.inputMediaTypes`).
 * @throws ModelError `bad_request` for an image or file Anthropic or the model cannot take, or
 * one over Anthropic's size limits (an image over 5 MB, inline data over 32 MB, as base64).
 */
export function toAnthropicBody(
  model: string,
  request: ModelRequest,
  settings: AnthropicModelSettings = {},
  inputMediaTypes?: readonly string[],
): AnthropicRequestBody {
  const { blocks, flagged } = systemBlocks(request.system);
  const answer = answerToolOf(request.responseFormat);
  const forced = answer !== undefined && forcible(request, settings);
  if (answer && !forced) blocks.push(answerToolInstruction(answer));
  else if (request.responseFormat?.type === 'json' && !answer)
    blocks.push(jsonInstruction(request.responseFormat));
  let messages = toAnthropicMessages(request.messages, {
    provider: 'anthropic',
    model,
    accepts: inputMediaTypes,
    budget: new MediaBudget(ANTHROPIC_LIMITS),
  });
  let system = blocks.length > 0 ? blocks : undefined;
  if (settings.cache !== false) {
    const cached = applyCacheBreakpoints({ system, messages, systemBreakpoints: flagged }, settings.cache);
    messages = cached.messages;
    system = cached.system;
  }

  const budget = settings.thinking?.budgetTokens;
  const explicitMax = request.maxOutputTokens ?? settings.maxTokens;
  const body: AnthropicRequestBody = {
    model,
    max_tokens: explicitMax ?? DEFAULT_MAX_TOKENS + (budget ?? 0),
    messages,
  };
  if (system) body.system = system;
  const tools = answer && request.toolChoice === 'none' ? [] : (request.tools ?? []);
  if (tools.length > 0 || answer) {
    body.tools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    if (answer) body.tools.push(answerToolSpec(request.responseFormat!, answer));
    const choice = forced
      ? { type: 'tool', name: answer!.name }
      : toolChoiceOf(request.toolChoice, settings.parallelToolCalls);
    if (choice) body.tool_choice = choice;
  }
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stop && request.stop.length > 0) body.stop_sequences = request.stop;
  return { ...body, ...request.providerOptions?.anthropic };
}
