/**
 * `executor.run(input, { session })`: history from the thread, what the run
 * adds appended at checkpoints and when it settles — whole turns, each
 * message once, never interleaved with another run's batch — and the
 * session's failures reported without losing the run's result.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  contextPerConversation,
  defineTool,
  Executor,
  InMemorySessionStore,
  type Message,
  type Session,
  SessionError,
  summaryBodyOf,
  type TandemEvent,
  textOf,
} from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, type ScriptStep, testRuntime } from '../../src/testing/index.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const refund = defineTool({
  name: 'refund',
  description: 'Refund an amount',
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => `refunded ${amount}`,
});

function executor(script: ScriptEntry[]) {
  const model = new ScriptedModel(script);
  return { model, executor: new Executor({ model, tools: [add, refund], runtime: testRuntime() }) };
}

const roles = (messages: readonly { role: string }[]) => messages.map((m) => m.role);
const stored = async (session: Session) => (await session.load()).items;
const addCall = (a: number, b: number, id?: string): ScriptStep => ({
  toolCalls: [{ name: 'add', args: { a, b }, ...(id ? { id } : {}) }],
});

describe('Executor runs on a session', () => {
  it('continues the thread: the second run sees the first, and each appends its input and reply', async () => {
    const { model, executor: exec } = executor([{ text: 'Hello, Ada.' }, { text: 'You are Ada.' }]);
    const session = new InMemorySessionStore().session('t1', { resourceId: 'ada' });
    const first = await exec.run('I am Ada.', { session }).result;
    expect(first.session).toEqual({ threadId: 't1', appended: 2 });
    await exec.run('Who am I?', { session }).result;
    expect(roles(model.requests[1]!.messages)).toEqual(['user', 'assistant', 'user']);
    expect(textOf(model.requests[1]!.messages[0]!)).toBe('I am Ada.');
    const items = await stored(session);
    expect(items.map((i) => textOf(i.message))).toEqual([
      'I am Ada.',
      'Hello, Ada.',
      'Who am I?',
      'You are Ada.',
    ]);
    expect(new Set(items.map((i) => i.runId)).size).toBe(2);
  });

  it("names the session's thread and resource on run_started", async () => {
    const { executor: exec } = executor([{ text: 'ok' }]);
    const run = exec.run('hi', { session: new InMemorySessionStore().session('t9', { resourceId: 'u9' }) });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await run.result;
    expect(events[0]).toMatchObject({ type: 'run_started', threadId: 't9', resourceId: 'u9' });
  });

  it('loads the last 50 items by default (historyLimit sets it), never starting at an orphaned result', async () => {
    const session = new InMemorySessionStore().session('long');
    const history: Message[] = [];
    for (let i = 0; i < 30; i++) history.push({ role: 'user', content: `q${i}` }, said(`a${i}`));
    await session.append(history);
    const { model, executor: exec } = executor([{ text: 'ok' }, { text: 'ok' }]);
    await exec.run('next', { session }).result;
    const sent = model.requests[0]!.messages;
    expect(sent).toHaveLength(51);
    expect(textOf(sent[0]!)).toBe('q5');
    // A window whose first item is a tool result starts after it.
    await session.append([callOf('c1'), resultOf('c1'), said('done')]);
    await exec.run('again', { session, historyLimit: 2 }).result;
    expect(roles(model.requests[1]!.messages)).toEqual(['assistant', 'user']);
  });

  it('refuses history beside a session, and a bad historyLimit, with a ConfigError', () => {
    const { executor: exec } = executor([]);
    const session = new InMemorySessionStore().session('t');
    expect(() => exec.run('x', { session, history: [] })).toThrow(/`history` or `session`, not both/);
    expect(() => exec.run('x', { session, historyLimit: -1 })).toThrow(/historyLimit/);
  });

  it('appends each tool turn at its checkpoint, so a crash later loses only the turn in flight', async () => {
    const session = new InMemorySessionStore().session('t');
    const seen: string[][] = [];
    const { executor: exec } = executor([
      addCall(2, 3),
      async () => {
        seen.push(roles((await stored(session)).map((i) => i.message)));
        return addCall(5, 5);
      },
      async () => {
        seen.push(roles((await stored(session)).map((i) => i.message)));
        return { text: '10' };
      },
    ]);
    const result = await exec.run('add things', { session }).result;
    expect(seen).toEqual([
      ['user', 'assistant', 'tool'],
      ['user', 'assistant', 'tool', 'assistant', 'tool'],
    ]);
    // The settle appended the answer alone: every message once.
    const items = await stored(session);
    expect(items.map((i) => i.message)).toEqual(result.messages);
    expect(result.session?.appended).toBe(6);
  });

  it('appends nothing for a run that failed before any reply, and only whole turns for one that failed later', async () => {
    const down = () => ({ error: Object.assign(new Error('model down'), { status: 400 }) });
    const session = new InMemorySessionStore().session('t');
    const { executor: exec } = executor([down(), addCall(1, 1), down()]);
    const failedAtOnce = await exec.run('first', { session }).result;
    expect(failedAtOnce.status).toBe('failed');
    expect(await stored(session)).toEqual([]);
    const failedLater = await exec.run('second', { session }).result;
    expect(failedLater.status).toBe('failed');
    expect(roles((await stored(session)).map((i) => i.message))).toEqual(['user', 'assistant', 'tool']);
  });

  it('appends a tool call only with its result: a run paused for approval keeps its open turn for the resume', async () => {
    const session = new InMemorySessionStore().session('t');
    const { executor: exec } = executor([
      addCall(1, 2),
      { toolCalls: [{ id: 'r1', name: 'refund', args: { amount: 3 } }] },
      { text: 'Refunded 3.' },
    ]);
    const paused = await exec.run('refund 1 + 2', { session }).result;
    expect(paused.status).toBe('interrupted');
    expect(roles((await stored(session)).map((i) => i.message))).toEqual(['user', 'assistant', 'tool']);
    const state = JSON.parse(JSON.stringify(paused.state));
    paused.state!.approve(paused.interruptions![0]!.id);
    const resumed = await exec.resume(paused.state!, { session }).result;
    expect(resumed.status).toBe('success');
    const items = await stored(session);
    expect(items.map((i) => i.message)).toEqual(resumed.messages);
    expect(roles(items.map((i) => i.message))).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(state.conversations.main.messages).toHaveLength(4);
  });

  it('keeps two concurrent runs on one session whole: every message once, each batch contiguous', async () => {
    const session = new InMemorySessionStore().session('shared');
    const script = (tag: string): ScriptEntry[] => [
      addCall(1, 1, `${tag}1`),
      addCall(2, 2, `${tag}2`),
      { text: tag },
    ];
    const a = new ScriptedModel(script('A'));
    const b = new ScriptedModel(script('B'));
    const runtime = testRuntime();
    const runA = new Executor({ model: a, tools: [add], runtime }).run('task A', { session, runId: 'A' });
    const runB = new Executor({ model: b, tools: [add], runtime }).run('task B', { session, runId: 'B' });
    const [ra, rb] = await Promise.all([runA.result, runB.result]);
    const items = await stored(session);
    expect(items).toHaveLength(ra.messages.length + rb.messages.length);
    for (const [runId, result] of [
      ['A', ra],
      ['B', rb],
    ] as const) {
      expect(items.filter((i) => i.runId === runId).map((i) => i.message)).toEqual(result.messages);
    }
    // Runs alternate only at turn boundaries: no call is ever separated from its result.
    items.forEach((item, i) => {
      if (item.message.role === 'tool') expect(items[i - 1]!.runId).toBe(item.runId);
    });
    // The runs did run at once: their batches alternate in the thread.
    expect(
      items
        .map((i) => i.runId)
        .join('')
        .match(/A+|B+/g)!.length,
    ).toBeGreaterThan(2);
  });

  it('returns the result when the store goes down mid-run: a typed error on the result and a session stage event', async () => {
    const store = new InMemorySessionStore();
    const session = flaky(store.session('t'), { failAppends: [1] });
    const { executor: exec } = executor([addCall(1, 2), { text: '3' }]);
    const run = exec.run('1 + 2', { session });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    expect(result.status).toBe('success');
    expect(result.output).toBe('3');
    expect(result.session?.error).toBeInstanceOf(SessionError);
    expect(result.session?.error).toMatchObject({ kind: 'unavailable' });
    expect(result.session?.error?.message).toMatch(/session t: connection refused/);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'stage', name: 'session', status: 'failed' }),
    );
    // The failed batch went with the next append, in order; nothing was written twice.
    expect((await stored(session)).map((i) => i.message)).toEqual(result.messages);
  });

  it('fails the run with the SessionError when the session cannot be loaded, before any model call', async () => {
    const { model, executor: exec } = executor([{ text: 'never' }]);
    const session = flaky(new InMemorySessionStore().session('t'), { failLoad: true });
    const result = await exec.run('hi', { session }).result;
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(SessionError);
    expect(result.error?.message).toMatch(/Could not load session t: connection refused/);
    expect(model.calls).toBe(0);
  });
});

function said(text: string): Message {
  return { role: 'assistant', content: [{ type: 'text', text }] };
}

function callOf(id: string): Message {
  return { role: 'assistant', content: [{ type: 'tool_call', id, name: 'add', arguments: '{"a":1,"b":1}' }] };
}

function resultOf(id: string): Message {
  return { role: 'tool', content: [{ type: 'tool_result', toolCallId: id, toolName: 'add', content: '2' }] };
}

/** `session` whose load, or whose n-th appends (1-based), fail as a store that went away would. */
function flaky(session: Session, fail: { failAppends?: number[]; failLoad?: boolean }): Session {
  let appends = 0;
  const refused = () => new Error('connection refused');
  return {
    id: session.id,
    load: (options) => (fail.failLoad ? Promise.reject(refused()) : session.load(options)),
    append: (messages, options) =>
      fail.failAppends?.includes(++appends) ? Promise.reject(refused()) : session.append(messages, options),
    pop: () => session.pop(),
    clear: () => session.clear(),
    saveSummary: (summary) => session.saveSummary(summary),
  };
}

describe('Executor runs on a session: summaries', () => {
  const long = (i: number) => `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(20)}`;
  const thread = async (session: Session, pairs: number) => {
    const messages: Message[] = [];
    for (let i = 0; i < pairs; i++) messages.push({ role: 'user', content: long(i) }, said(long(i)));
    await session.append(messages);
  };
  const summarizing = (summaries: string[]) => {
    const summarizer = new ScriptedModel(summaries.map((text) => ({ text })));
    const model = new ScriptedModel([{ text: 'ok' }, { text: 'ok' }]);
    const manager = contextPerConversation({
      model,
      summarizer,
      contextWindow: 100_000,
      thresholdTokens: 3_000,
      tailTokens: 600,
      minTailMessages: 2,
    });
    const exec = new Executor({ model, runtime: testRuntime(), context: { manager } });
    return { exec, model, summarizer };
  };

  it('starts from the stored summary and the items after it, the summary presented as the compressor presents its own', async () => {
    const session = new InMemorySessionStore().session('t');
    await session.append([
      { role: 'user', content: 'q1' },
      said('a1'),
      { role: 'user', content: 'q2' },
      said('a2'),
    ]);
    await session.saveSummary({ text: 'Ada asked q1 and got a1.', throughSeq: 2, createdAt: 0 });
    const { model, executor: exec } = executor([{ text: 'ok' }]);
    await exec.run('q3', { session }).result;
    const sent = model.requests[0]!.messages;
    // Merged into the first item after it, as the compressor merges a summary to keep roles alternating.
    expect(summaryBodyOf(sent[0]!)).toBe('Ada asked q1 and got a1.');
    expect(textOf(sent[0]!)).toMatch(/q2$/);
    expect(sent.slice(1).map(textOf)).toEqual(['a2', 'q3']);
  });

  it("saves the compressor's summary through the last item it covers, and folds it into the next one", async () => {
    const session = new InMemorySessionStore().session('t');
    await thread(session, 20);
    const first = summarizing(['SUMMARY-ONE']);
    const result = await first.exec.run('go on', { session }).result;
    expect(result.status).toBe('success');
    const saved = await session.load();
    // The summary stands for every item up to throughSeq: the protected head the model got before it, and
    // the summary itself; the model got exactly the items after it.
    expect(saved.summary?.text).toMatch(/^Start of the conversation:\n\[USER\]: message 0[\s\S]*SUMMARY-ONE/);
    const sent = first.model.requests[0]!.messages;
    const at = sent.findIndex((m) => summaryBodyOf(m) !== undefined);
    expect(summaryBodyOf(sent[at]!)).toContain('SUMMARY-ONE');
    const after = saved.items.map((i) => i.message).slice(0, -2);
    expect(saved.items[0]!.seq).toBe(saved.summary!.throughSeq + 1);
    expect(sent.slice(at + 1, -1)).toEqual(after);

    // The next run starts from that summary and, compressing again, updates it instead of starting over.
    await thread(session, 20);
    const second = summarizing(['SUMMARY-TWO']);
    await second.exec.run('and more', { session }).result;
    const asked = second.summarizer.requests.map((r) => r.messages.map(textOf).join('\n')).join('\n');
    expect(asked).toContain('SUMMARY-ONE');
    const updated = await session.load();
    expect(updated.summary?.text).toContain('SUMMARY-TWO');
    expect(updated.summary!.throughSeq).toBeGreaterThan(saved.summary!.throughSeq);
  });
});
