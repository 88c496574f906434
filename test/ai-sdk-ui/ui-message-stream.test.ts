/**
 * `tandem-agents/ai-sdk-ui` against the real counterpart (`ai` 6; the fold
 * against native `streamText` for each major is in ai-majors.test.ts): SSE,
 * an approval round trip through UIMessages whose part equals a native
 * `needsApproval` part; a reconnect mid-run gets the rest.
 */
import {
  parseJsonEventStream,
  readUIMessageStream,
  streamText,
  tool,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerApprovals,
  createUIStreamRegistry,
  fromUIMessages,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from '../../src/ai-sdk-ui/index.js';
import { defineTool, Executor, Orchestrator, type TandemEvent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A stream of `items`. */
function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

const weather = defineTool({
  name: 'weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

function tandemModel() {
  return new ScriptedModel([
    { text: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }] },
    { text: 'Sunny in Paris.' },
  ]);
}

async function fold(stream: ReadableStream<UIMessageChunk>, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, message, terminateOnError: true })) last = m;
  if (!last) throw new Error('the stream gave no message');
  return last;
}

/** Parts without `data-*` parts (only tandem has them) and reasoning ids (the provider's on one side, tandem's own on the other). */
function comparable(message: UIMessage) {
  return message.parts
    .filter((p) => !p.type.startsWith('data-'))
    .map((p) => (p.type === 'reasoning' ? { ...p, id: undefined } : p));
}

/** The chunks of an SSE response, read with the AI SDK's own parser. */
function chunksOf(response: Response): ReadableStream<UIMessageChunk> {
  return parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(part, controller) {
        if (!part.success) throw part.error;
        controller.enqueue(part.value);
      },
    }),
  );
}

describe('toUIMessageStream', () => {
  it('streams as SSE with the v1 header; model text and tool output cross as data', async () => {
    const hostile = '</script><img src=x onerror=alert(1)>\n\ndata: {"type":"finish"}';
    const echo = defineTool({
      name: 'echo',
      description: 'Echo',
      parameters: z.object({}),
      execute: () => hostile,
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'c1', name: 'echo', args: {} }] },
      { text: hostile },
    ]);
    const response = toUIMessageStreamResponse(new Executor({ model, tools: [echo] }).run('go'));
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const message = await fold(chunksOf(response));
    const tool = message.parts.find((p) => p.type === 'tool-echo');
    expect(tool).toMatchObject({ state: 'output-available', output: hostile });
    expect(message.parts.find((p) => p.type === 'text')).toMatchObject({ text: hostile });
  });

  it('sends the usage as a data part', async () => {
    const executor = new Executor({ model: tandemModel(), tools: [weather] });
    const message = await fold(toUIMessageStream(executor.run('Weather?')) as ReadableStream<UIMessageChunk>);
    const usagePart = message.parts.find((p) => p.type === 'data-usage');
    expect(usagePart).toMatchObject({ id: 'usage', data: { model: 'scripted:model' } });
  });
});

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  parameters: z.object({ order: z.string() }),
  needsApproval: true,
  execute: ({ order }) => `refunded ${order}`,
});

/** What `useChat`'s `addToolApprovalResponse` does to the waiting part. */
function answer(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  const answered = structuredClone(message);
  for (const part of answered.parts) {
    if ('approval' in part && part.state === 'approval-requested')
      Object.assign(part, {
        state: 'approval-responded',
        approval: { id: part.approval.id, approved, reason },
      });
  }
  return answered;
}

async function approvalRoundTrip(approved: boolean) {
  const model = new ScriptedModel([
    { toolCalls: [{ id: 'call_9', name: 'refund', args: { order: '42' } }] },
    (request) => {
      const last = request.messages[request.messages.length - 1];
      const result = last?.role === 'tool' ? last.content[0]?.content : '';
      return { text: `Done: ${result}` };
    },
  ]);
  const executor = new Executor({ model, tools: [refund] });
  const registry = createUIStreamRegistry();
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Refund order 42' }] };

  // Request 1: the run pauses; the stream asks for approval in the AI SDK's shape.
  const first = fromUIMessages([user]);
  const run = executor.run(first.input!, { history: first.history });
  registry.track(run, { chatId: 'chat-1', messageId: 'a1' });
  const asked = await fold(chunksOf(toUIMessageStreamResponse(run, { messageId: 'a1' })));
  const part = asked.parts.find((p) => p.type === 'tool-refund');
  expect(part).toMatchObject({ state: 'approval-requested', toolCallId: 'call_9', input: { order: '42' } });
  const native = await nativeApprovalPart();
  const withoutId = (p: unknown) => ({ ...(p as object), approval: undefined });
  expect(withoutId(part)).toEqual(withoutId(native)); // the AI SDK's own shape, but for the approval's id

  // Request 2: the UI answered; the answer resumes the paused run and continues the same message.
  const body = [user, answer(asked, approved, approved ? undefined : 'not this one')];
  const second = fromUIMessages(body);
  expect(second.approvals).toEqual([
    expect.objectContaining({
      toolCallId: 'call_9',
      approved,
      approvalId: (part as { approval: { id: string } }).approval.id,
    }),
  ]);
  const state = registry.takePaused('chat-1');
  if (!state) throw new Error('the paused state was not kept');
  const resumed = executor.resume(answerApprovals(state, second.approvals));
  const stream = toUIMessageStream(resumed, { messageId: second.messageId, approvals: second.approvals });
  return fold(stream as ReadableStream<UIMessageChunk>, body[1]);
}

/** The approval request of a native `streamText` run over a tool with `needsApproval`. */
async function nativeApprovalPart() {
  const call = { type: 'tool-call', toolCallId: 'call_9', toolName: 'refund', input: '{"order":"42"}' };
  const finish = { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage };
  const model = new MockLanguageModelV3({
    doStream: async () => ({ stream: streamOf([call, finish] as never[]) }),
  });
  const tools = {
    refund: tool({
      inputSchema: z.object({ order: z.string() }),
      needsApproval: true,
      execute: async ({ order }) => `refunded ${order}`,
    }),
  };
  const message = await fold(streamText({ model, prompt: 'Refund order 42', tools }).toUIMessageStream());
  return message.parts.find((p) => p.type === 'tool-refund');
}

describe('approvals through UIMessages', () => {
  it('an approval answered in useChat runs the call and continues the message', async () => {
    const done = await approvalRoundTrip(true);
    expect(done.id).toBe('a1');
    expect(done.parts.find((p) => p.type === 'tool-refund')).toMatchObject({
      state: 'output-available',
      output: 'refunded 42',
      approval: { approved: true },
    });
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: refunded 42' });
  });

  it('a rejection streams tool-output-denied and the model reads the reason', async () => {
    const done = await approvalRoundTrip(false);
    expect(done.parts.find((p) => p.type === 'tool-refund')).toMatchObject({ state: 'output-denied' });
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('not this one') });
  });
});

/** Reads SSE frames `{ id, data }` from a response until `stop` says so; cancels the rest. */
async function readFrames(response: Response, stop: (data: string) => boolean) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: Array<{ id?: number; data: string }> = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      frames.push({ id: id === undefined ? undefined : Number(id), data });
      if (stop(data)) {
        await reader.cancel();
        return frames;
      }
      end = buffer.indexOf('\n\n');
    }
  }
  return frames;
}

describe('resumable streams', () => {
  it('a client that reconnects mid-run gets the rest, no duplicate, no gap', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModel([
      { text: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }] },
      async () => {
        await gate;
        return { text: 'Sunny in Paris.' };
      },
    ]);
    const registry = createUIStreamRegistry();
    const run = new Executor({ model, tools: [weather] }).run('Weather in Paris?');
    registry.track(run, { chatId: 'chat-2' });
    expect(registry.isActive('chat-2')).toBe(true);

    // The first connection drops after the tool's output, while the run waits on its second model call.
    const before = await readFrames(registry.response('chat-2', { after: 0 }), (d) =>
      d.includes('tool-output-available'),
    );
    const lastId = before.at(-1)!.id!;
    const request = new Request('http://x/api/chat/chat-2/stream', {
      headers: { 'last-event-id': String(lastId) },
    });
    const again = registry.response(run.runId, { request });
    release();
    const after = await readFrames(again, () => false);

    const ids = [...before, ...after].flatMap((f) => (f.id === undefined ? [] : [f.id]));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    const joined = [...before, ...after].filter((f) => f.id !== undefined).map((f) => JSON.parse(f.data));
    const whole = await fold(streamOf(joined));
    expect(comparable(whole).map((p) => p.type)).toEqual([
      'step-start',
      'text',
      'tool-weather',
      'step-start',
      'text',
    ]);
    expect(whole.parts.at(-1)).toMatchObject({ text: 'Sunny in Paris.' });
    expect(registry.isActive('chat-2')).toBe(false);
  });

  it("answers useChat's resume: the whole stream while running, 204 once ended or unknown", async () => {
    const registry = createUIStreamRegistry();
    expect(registry.response('nobody').status).toBe(204);
    const run = new Executor({ model: tandemModel(), tools: [weather] }).run('Weather?');
    registry.track(run, { chatId: 'chat-3' });
    const live = await fold(chunksOf(registry.response('chat-3')));
    expect(comparable(live).map((p) => p.type)).toEqual([
      'step-start',
      'text',
      'tool-weather',
      'step-start',
      'text',
    ]);
    await run.result;
    expect(registry.response('chat-3').status).toBe(204);
    expect(registry.response('chat-3', { after: 3 }).status).toBe(200);
  });
});

describe('fromUIMessages', () => {
  it('turns the request body into input and a history of turns with tool results', () => {
    const messages: UIMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather?' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool-weather',
            toolCallId: 'c1',
            state: 'output-available',
            input: { city: 'Paris' },
            output: 'sunny',
          },
          { type: 'step-start' },
          { type: 'text', text: 'Sunny.' },
        ],
      },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] },
    ];
    const { input, history, approvals } = fromUIMessages(messages);
    expect(input).toBe('Thanks');
    expect(approvals).toEqual([]);
    expect(history).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_call', id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'weather', content: 'sunny' }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny.' }] },
    ]);
  });
});

describe('data parts', () => {
  it('streams the plan, step progress and checklist as typed data parts, updated in place', async () => {
    const base = { runId: 'run_1', at: 0 };
    const steps = [{ id: 's1', description: 'Look it up', dependsOn: [], status: 'pending' as const }];
    const events = [
      { ...base, seq: 1, type: 'run_started', input: 'go' },
      { ...base, seq: 2, type: 'plan_overview', title: 'Plan', summary: 'one step', steps },
      {
        ...base,
        seq: 3,
        type: 'plan_step_started',
        stepId: 's1',
        step: steps[0],
        attempt: 1,
        mode: 'normal',
      },
      { ...base, seq: 4, type: 'todo_update', content: '- [x] Look it up', checked: 1, total: 1 },
      { ...base, seq: 5, type: 'plan_step_completed', stepId: 's1', output: 'ok', completed: 1, total: 1 },
      { ...base, seq: 6, type: 'token', stepId: 's1', agent: 'executor', delta: 'done' },
      {
        ...base,
        seq: 7,
        type: 'complete',
        output: 'done',
        status: 'success',
        usage: { inputTokens: 0, outputTokens: 0 },
      },
    ] as unknown as TandemEvent[];
    async function* source() {
      yield* events;
    }
    const message = await fold(toUIMessageStream(source()) as ReadableStream<UIMessageChunk>);
    const data = message.parts.filter((p) => p.type.startsWith('data-'));
    expect(data).toEqual([
      { type: 'data-plan', id: 'plan', data: { title: 'Plan', summary: 'one step', steps } },
      { type: 'data-step', id: 's1', data: { stepId: 's1', status: 'completed', completed: 1, total: 1 } },
      {
        type: 'data-checklist',
        id: 'checklist',
        data: { content: '- [x] Look it up', checked: 1, total: 1 },
      },
    ]);
    const plain = await fold(toUIMessageStream(source(), { data: false }) as ReadableStream<UIMessageChunk>);
    expect(plain.parts.map((p) => p.type)).toEqual(['step-start', 'text']);
  });

  it('a failed run ends with an error chunk naming the cause', async () => {
    const model = new ScriptedModel([{ error: new Error('provider down') }]);
    const run = new Executor({ model, resilience: { retry: false } }).run('hi');
    const chunks: UIMessageChunk[] = [];
    const reader = (toUIMessageStream(run) as ReadableStream<UIMessageChunk>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.at(-2)).toMatchObject({
      type: 'error',
      errorText: expect.stringContaining('provider down'),
    });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'error' });
  });
});

describe('an orchestrated run', () => {
  it('streams the plan and each step as data parts, and each agent and step writes its own text part', async () => {
    const plan = {
      title: 'Sum',
      summary: 'Compute, then report',
      steps: [
        { id: 's1', description: 'compute', expectedOutput: 'a number', dependsOn: [] },
        { id: 's2', description: 'report', expectedOutput: 'a sentence', dependsOn: ['s1'] },
      ],
    };
    const models = {
      planner: new ScriptedModel([{ text: JSON.stringify(plan) }]),
      executor: new ScriptedModel([{ text: 'found 3' }, { text: 'step two used 3' }]),
      verifier: new ScriptedModel([{ text: 'PASS: all done' }]),
      finalizer: new ScriptedModel([{ text: 'The answer is 3.' }]),
    };
    const run = new Orchestrator({ models, planning: { classify: () => 'complex' } }).run(
      'Compute the sum then report it',
    );
    const message = await fold(toUIMessageStream(run) as ReadableStream<UIMessageChunk>);
    expect(message.parts.find((p) => p.type === 'data-plan')).toMatchObject({
      data: { title: 'Sum', steps: [{ id: 's1' }, { id: 's2' }] },
    });
    const steps = message.parts.filter((p) => p.type === 'data-step');
    expect(steps).toEqual([
      expect.objectContaining({
        id: 's1',
        data: expect.objectContaining({ status: 'completed', completed: 1 }),
      }),
      expect.objectContaining({
        id: 's2',
        data: expect.objectContaining({ status: 'completed', completed: 2 }),
      }),
    ]);
    const texts = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []));
    expect(texts).toEqual(expect.arrayContaining(['found 3', 'step two used 3']));
    expect(texts.at(-1)).toContain('The answer is 3.');
  });
});
