/**
 * The real AI SDK provider package of each major (`@ai-sdk/openai-compatible`
 * 1, 2 and 3: spec v2, v3 and v4), wrapped by `fromAISDK` and pointed at the
 * loopback fixture server, plus builders of the Chat Completions wire format
 * that server speaks.
 */
import { createOpenAICompatible as createV2 } from 'ai-provider-v2';
import { createOpenAICompatible as createV3 } from 'ai-provider-v3';
import { createOpenAICompatible as createV4 } from 'ai-provider-v4';
import { fromAISDK } from '../../../src/providers/ai-sdk/index.js';
import type { StreamingModel } from '../helpers.js';

/** One AI SDK major: its spec version and its provider factory. */
export interface Major {
  spec: 'v2' | 'v3' | 'v4';
  ai: number;
  create: typeof createV2 | typeof createV3 | typeof createV4;
}

/** Every major `fromAISDK` supports, for `describe.each`. */
export const MAJORS: Major[] = [
  { spec: 'v2', ai: 5, create: createV2 },
  { spec: 'v3', ai: 6, create: createV3 },
  { spec: 'v4', ai: 7, create: createV4 },
];

/** The model id the tests ask for. */
export const MODEL_ID = 'gpt-test';

/** `fromAISDK` over `major`'s chat model talking to `baseURL`. */
export function realModel(major: Major, baseURL: string): StreamingModel {
  const provider = major.create({ name: 'compat', baseURL, apiKey: 'test-key', includeUsage: true });
  // `ai` 6 (the dev dependency) types only v2 and v3 models; `ai` 7 users get v4 in `LanguageModel`.
  return fromAISDK(provider.chatModel(MODEL_ID) as never) as StreamingModel;
}

/** A wire tool call. */
export interface WireCall {
  id: string;
  name: string;
  arguments: string;
}

/** Usage as the wire reports it: 120 in (100 cached), 40 out (30 reasoning). */
export const WIRE_USAGE = {
  prompt_tokens: 120,
  completion_tokens: 40,
  total_tokens: 160,
  prompt_tokens_details: { cached_tokens: 100 },
  completion_tokens_details: { reasoning_tokens: 30 },
};

/** {@link WIRE_USAGE} as tandem counts it. */
export const USAGE = { inputTokens: 120, outputTokens: 40, cachedInputTokens: 100, reasoningTokens: 30 };

/** A whole Chat Completions reply. */
export function completion(
  message: { content?: string; reasoning_content?: string; tool_calls?: WireCall[] },
  finish = 'stop',
): Record<string, unknown> {
  const toolCalls = message.tool_calls?.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: MODEL_ID,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: message.content ?? null, ...message, tool_calls: toolCalls },
        finish_reason: finish,
      },
    ],
    usage: WIRE_USAGE,
  };
}

function frame(choices: unknown[], extra: Record<string, unknown> = {}): string {
  const chunk = {
    id: 'chatcmpl-2',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: MODEL_ID,
  };
  return `data: ${JSON.stringify({ ...chunk, choices, ...extra })}\n\n`;
}

/** One SSE chunk per delta, with no finish: the start of a streamed reply. */
export function deltaFrames(deltas: Array<Record<string, unknown>>): string {
  return deltas.map((delta) => frame([{ index: 0, delta, finish_reason: null }])).join('');
}

/** A whole streamed reply: the delta chunks, a finish chunk, a usage chunk and `[DONE]`. */
export function chunks(deltas: Array<Record<string, unknown>>, finish = 'stop'): string {
  const end = frame([{ index: 0, delta: {}, finish_reason: finish }]) + frame([], { usage: WIRE_USAGE });
  return `${deltaFrames(deltas)}${end}data: [DONE]\n\n`;
}

/** A streamed tool-call delta (`name` and `id` only on a call's first delta). */
export function callDelta(index: number, args: string, first?: { id: string; name: string }) {
  const call: Record<string, unknown> = { index, function: { arguments: args } };
  if (first) {
    call.id = first.id;
    call.type = 'function';
    (call.function as Record<string, unknown>).name = first.name;
  }
  return { tool_calls: [call] };
}
