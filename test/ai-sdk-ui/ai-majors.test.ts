/**
 * `tandem-agents/ai-sdk-ui` against each supported major of `ai` (5, 6, 7,
 * installed side by side as `ai-v5`, `ai`, `ai-v7`): that major's own
 * `readUIMessageStream` folds tandem's stream into the UIMessage its native
 * `streamText` gives for the same scripted conversation, and its own SSE
 * parser (`parseJsonEventStream` + `uiMessageChunkSchema`, what
 * `DefaultChatTransport` uses) accepts every chunk.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toUIMessageStream, toUIMessageStreamResponse } from '../../src/ai-sdk-ui/index.js';
import { defineTool, Executor } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

/** The parts of a UIMessage this test reads; typed loosely because the three majors' types differ. */
type Message = { id: string; role: string; parts: Array<{ type: string; [key: string]: unknown }> };
type Chunks = ReadableStream<unknown>;

/** What differs between majors: the module, and the mock model's stream-part dialect (V2 for ai 5, V3 after). */
interface Major {
  name: string;
  load: () => Promise<Record<string, unknown>>;
  loadTest: () => Promise<Record<string, unknown>>;
  mock: 'MockLanguageModelV2' | 'MockLanguageModelV3';
}

const majors: Major[] = [
  {
    name: 'ai 5',
    load: () => import('ai-v5'),
    loadTest: () => import('ai-v5/test'),
    mock: 'MockLanguageModelV2',
  },
  { name: 'ai 6', load: () => import('ai'), loadTest: () => import('ai/test'), mock: 'MockLanguageModelV3' },
  {
    name: 'ai 7',
    load: () => import('ai-v7'),
    loadTest: () => import('ai-v7/test'),
    mock: 'MockLanguageModelV3',
  },
];

function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

/** The provider-level finish part in each dialect. */
function finish(major: Major, reason: 'tool-calls' | 'stop') {
  if (major.mock === 'MockLanguageModelV2')
    return {
      type: 'finish',
      finishReason: reason,
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    };
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  return { type: 'finish', finishReason: { unified: reason, raw: undefined }, usage };
}

/** Native: the major's `streamText` over its mock model, scripted with the same two turns tandem's model plays. */
async function nativeStream(major: Major): Promise<Chunks> {
  const ai = (await major.load()) as Record<string, (...args: unknown[]) => unknown>;
  const testing = (await major.loadTest()) as Record<string, new (options: unknown) => unknown>;
  const turns = [
    [
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'Need the weather.' },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Let me check.' },
      { type: 'text-end', id: 't1' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Paris"}' },
      finish(major, 'tool-calls'),
    ],
    [
      { type: 'text-start', id: 't2' },
      { type: 'text-delta', id: 't2', delta: 'Sunny in Paris.' },
      { type: 'text-end', id: 't2' },
      finish(major, 'stop'),
    ],
  ];
  let call = 0;
  const Mock = testing[major.mock]!;
  const model = new Mock({ doStream: async () => ({ stream: streamOf(turns[call++]!) }) });
  const weatherTool = ai.tool!({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }: { city: string }) => `sunny in ${city}`,
  });
  const result = ai.streamText!({
    model,
    prompt: 'Weather in Paris?',
    stopWhen: ai.stepCountIs!(5),
    tools: { weather: weatherTool },
  }) as { toUIMessageStream: () => Chunks };
  return result.toUIMessageStream();
}

const weather = defineTool({
  name: 'weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  parameters: z.object({ order: z.string() }),
  needsApproval: true,
  execute: ({ order }) => `refunded ${order}`,
});

function tandemRun() {
  const model = new ScriptedModel([
    {
      reasoning: 'Need the weather.',
      text: 'Let me check.',
      toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }],
    },
    { text: 'Sunny in Paris.' },
  ]);
  return new Executor({ model, tools: [weather] }).run('Weather in Paris?');
}

async function fold(major: Major, stream: Chunks): Promise<Message> {
  const ai = (await major.load()) as { readUIMessageStream: (o: unknown) => AsyncIterable<Message> };
  let last: Message | undefined;
  for await (const m of ai.readUIMessageStream({ stream, terminateOnError: true })) last = m;
  if (!last) throw new Error(`${major.name}: the stream gave no message`);
  return last;
}

/** The chunks of an SSE response, parsed and validated by the major's own parser and chunk schema. */
async function chunksOf(major: Major, response: Response): Promise<Chunks> {
  const ai = (await major.load()) as Record<string, (...args: unknown[]) => unknown>;
  const parsed = ai.parseJsonEventStream!({
    stream: response.body,
    schema: ai.uiMessageChunkSchema,
  }) as Chunks;
  return parsed.pipeThrough(
    new TransformStream<unknown, unknown>({
      transform(part, controller) {
        const result = part as { success: boolean; value?: unknown; error?: unknown };
        if (!result.success) throw result.error;
        controller.enqueue(result.value);
      },
    }),
  );
}

/** Parts without tandem-only `data-*` parts and without reasoning ids (the provider's vs tandem's own). */
function comparable(message: Message) {
  return message.parts
    .filter((p) => !p.type.startsWith('data-'))
    .map((p) => (p.type === 'reasoning' ? { ...p, id: undefined } : p));
}

describe.each(majors)('$name', (major) => {
  it('readUIMessageStream folds tandem into the UIMessage of a native streamText run', async () => {
    const native = await fold(major, await nativeStream(major));
    const tandem = await fold(major, toUIMessageStream(tandemRun()) as Chunks);
    expect(comparable(tandem)).toEqual(comparable(native));
    expect(comparable(tandem).map((p) => p.type)).toEqual([
      'step-start',
      'reasoning',
      'text',
      'tool-weather',
      'step-start',
      'text',
    ]);
  });

  it("the SSE response passes the major's own chunk schema and folds the same", async () => {
    const native = await fold(major, await nativeStream(major));
    const tandem = await fold(major, await chunksOf(major, toUIMessageStreamResponse(tandemRun())));
    expect(comparable(tandem)).toEqual(comparable(native));
    expect(tandem.parts.some((p) => p.type === 'data-usage')).toBe(true);
  });
});

describe('approval requests per major', () => {
  function pausedRun() {
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'call_9', name: 'refund', args: { order: '42' } }] },
    ]);
    return new Executor({ model, tools: [refund] }).run('Refund order 42');
  }

  it.each(majors.slice(1))('$name folds the approval request into approval-requested', async (major) => {
    const message = await fold(major, await chunksOf(major, toUIMessageStreamResponse(pausedRun())));
    expect(message.parts.find((p) => p.type === 'tool-refund')).toMatchObject({
      state: 'approval-requested',
      toolCallId: 'call_9',
    });
  });

  it('ai 5 (no approval chunk type) folds the same stream without error: the call stays input-available', async () => {
    const major = majors[0]!;
    const message = await fold(major, toUIMessageStream(pausedRun()) as Chunks);
    expect(message.parts.find((p) => p.type === 'tool-refund')).toMatchObject({
      state: 'input-available',
      toolCallId: 'call_9',
      input: { order: '42' },
    });
  });

  it("ai 5's wire schema rejects the approval chunk; approvalRequests: false streams what it accepts", async () => {
    const major = majors[0]!;
    const strict = fold(major, await chunksOf(major, toUIMessageStreamResponse(pausedRun())));
    await expect(strict).rejects.toThrow(/tool-approval-request|invalid_union|Type validation/i);
    const response = toUIMessageStreamResponse(pausedRun(), { approvalRequests: false });
    const message = await fold(major, await chunksOf(major, response));
    expect(message.parts.find((p) => p.type === 'tool-refund')).toMatchObject({
      state: 'input-available',
      toolCallId: 'call_9',
    });
  });
});
