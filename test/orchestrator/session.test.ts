/**
 * `orchestrator.run(input, { session })`: the thread's recent messages are
 * the run's history (for the executor, the planner and the rest), the
 * request and its answer are appended once when the run ends with one — a
 * paused run appends nothing until its resume answers — and a session that
 * cannot be loaded fails the run with its error.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  InMemorySessionStore,
  type Message,
  Orchestrator,
  type Session,
  SessionError,
  textOf,
} from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { planJson } from './helpers.js';

const simple: ScriptEntry = { text: '{"needsPlan": false, "reasoning": "one answer"}' };
const complex: ScriptEntry = { text: '{"needsPlan": true, "reasoning": "several steps"}' };

const refund = defineTool({
  name: 'refund',
  description: 'Refund an amount',
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => `refunded ${amount}`,
});

function orchestrator(scripts: { planner: ScriptEntry[]; executor: ScriptEntry[] }) {
  const planner = new ScriptedModel(scripts.planner, { id: 'scripted:planner' });
  const executor = new ScriptedModel(scripts.executor, { id: 'scripted:executor' });
  const o = new Orchestrator({
    models: {
      planner,
      executor,
      verifier: false,
      finalizer: ({ steps }) => steps.map((step) => step.output).join(' | '),
    },
    planning: { classify: 'llm' },
    tools: [refund],
    runtime: testRuntime(),
  });
  return { orchestrator: o, planner, executor };
}

const texts = async (session: Session) => (await session.load()).items.map((i) => textOf(i.message));

describe('Orchestrator runs on a session', () => {
  it('continues the thread in a simple run and appends the request with its answer', async () => {
    const session = new InMemorySessionStore().session('t', { resourceId: 'ada' });
    const { orchestrator: o, executor } = orchestrator({
      planner: [simple, simple],
      executor: [{ text: 'Hello, Ada.' }, { text: 'You are Ada.' }],
    });
    const first = await o.run('I am Ada.', { session }).result;
    expect(first.session).toEqual({ threadId: 't', appended: 2 });
    const second = await o.run('Who am I?', { session }).result;
    expect(second.status).toBe('success');
    expect(executor.requests[1]!.messages.map(textOf)).toEqual(['I am Ada.', 'Hello, Ada.', 'Who am I?']);
    expect(await texts(session)).toEqual(['I am Ada.', 'Hello, Ada.', 'Who am I?', 'You are Ada.']);
  });

  it('gives the planner the thread, and appends the plan run’s final answer', async () => {
    const session = new InMemorySessionStore().session('t');
    const earlier: Message[] = [
      { role: 'user', content: 'My budget is 40 euros.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
    ];
    await session.append(earlier);
    const { orchestrator: o, planner } = orchestrator({
      planner: [complex, { text: planJson([{ id: 's1' }]) }],
      executor: [{ text: 'step done' }],
    });
    const result = await o.run('Plan a dinner', { session }).result;
    expect(result.status).toBe('success');
    const seen = planner.requests.flatMap((r) => r.messages.map(textOf)).join('\n');
    expect(seen).toContain('My budget is 40 euros.');
    expect(await texts(session)).toEqual(['My budget is 40 euros.', 'Noted.', 'Plan a dinner', 'step done']);
  });

  it('appends nothing while paused; the resume appends the request and its answer once', async () => {
    const session = new InMemorySessionStore().session('t');
    const first = orchestrator({
      planner: [simple],
      executor: [{ toolCalls: [{ id: 'call_1', name: 'refund', args: { amount: 40 } }] }],
    });
    const paused = await first.orchestrator.run('Refund 40', { session }).result;
    expect(paused.status).toBe('interrupted');
    expect(await texts(session)).toEqual([]);
    paused.state!.approve(paused.interruptions![0]!.id);
    const second = orchestrator({ planner: [], executor: [{ text: 'Refunded 40.' }] });
    const state = JSON.parse(JSON.stringify(paused.state));
    const resumed = await second.orchestrator.resume(state, { session }).result;
    expect(resumed.status).toBe('success');
    expect(await texts(session)).toEqual(['Refund 40', 'Refunded 40.']);
    // The saved state of the completed run, resumed again (after a crash, say), adds nothing.
    const { decisions: _answered, ...answered } = state;
    const completed = {
      ...answered,
      status: 'completed',
      phase: 'done',
      output: 'Refunded 40.',
      interrupts: [],
    };
    const again = await second.orchestrator.resume(completed, { session }).result;
    expect(again).toMatchObject({ status: 'success', output: 'Refunded 40.' });
    expect(await texts(session)).toEqual(['Refund 40', 'Refunded 40.']);
  });

  it('fails the run with the SessionError when the session cannot be loaded', async () => {
    const store = new InMemorySessionStore();
    const inner = store.session('t');
    const session: Session = { ...inner, id: 't', load: () => Promise.reject(new Error('ECONNREFUSED')) };
    const { orchestrator: o, planner } = orchestrator({ planner: [simple], executor: [{ text: 'never' }] });
    const result = await o.run('hi', { session }).result;
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(SessionError);
    expect(result.error?.message).toMatch(/Could not load session t: ECONNREFUSED/);
    expect(planner.calls).toBe(0);
  });

  it('returns the answer when the append fails: the SessionError on the result and a session stage event', async () => {
    const inner = new InMemorySessionStore().session('t');
    const session: Session = {
      ...inner,
      id: 't',
      load: (options) => inner.load(options),
      append: () => Promise.reject(new Error('ECONNRESET')),
    };
    const { orchestrator: o } = orchestrator({ planner: [simple], executor: [{ text: 'Hello.' }] });
    const run = o.run('hi', { session });
    const stages: string[] = [];
    run.on('stage', (e) => stages.push(`${e.name}:${e.status}`));
    const result = await run.result;
    expect(result).toMatchObject({ status: 'success', output: 'Hello.' });
    expect(result.session?.error).toBeInstanceOf(SessionError);
    expect(result.session?.error?.message).toMatch(/Could not append 2 messages to session t: ECONNRESET/);
    expect(stages).toContain('session:failed');
    expect(await texts(inner)).toEqual([]);
  });

  it('keeps concurrent runs on one session whole: each request right before its own answer', async () => {
    const session = new InMemorySessionStore().session('t');
    const runs = ['one', 'two', 'three'].map((word) => {
      const { orchestrator: o } = orchestrator({ planner: [simple], executor: [{ text: `answer ${word}` }] });
      return o.run(`question ${word}`, { session }).result;
    });
    await Promise.all(runs);
    const all = await texts(session);
    expect(all).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) expect(all[i + 1]).toBe(all[i]!.replace('question', 'answer'));
  });

  it('refuses history beside a session', () => {
    const { orchestrator: o } = orchestrator({ planner: [], executor: [] });
    const session = new InMemorySessionStore().session('t');
    expect(() => o.run('x', { session, history: [] })).toThrow(/`history` or `session`, not both/);
  });
});
