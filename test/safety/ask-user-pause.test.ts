/**
 * `ask_user` in a run that pauses to ask (`pauseOnInterrupt`): the question
 * is not put on the bus; the run ends `interrupted` with it in
 * `result.interruptions`, is answered on `result.state`, and resumes — in
 * the same process or another — with the answer as the call's result,
 * exactly like an approval.
 */
import { describe, expect, it } from 'vitest';
import {
  askUserTool,
  Executor,
  InterruptError,
  MemoryCheckpointStore,
  MemoryInterruptBus,
  Orchestrator,
  type RunState,
  type TandemEvent,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

/** The tool results the model was sent in its `call`-th request (1-based). */
function toolResults(model: ScriptedModel, call: number): string[] {
  const request = model.requests[call - 1]!;
  return request.messages.flatMap((m) => (m.role === 'tool' ? m.content.map((r) => r.content) : []));
}

function script() {
  return new ScriptedModel([
    {
      toolCalls: [
        { id: 'q1', name: 'ask_user', args: { question: 'Which colour?', options: ['red', 'blue'] } },
      ],
    },
    { text: 'Blue it is.' },
  ]);
}

describe('ask_user pauses a run that pauses to ask', () => {
  it('ends an Executor run interrupted with the question, and resumes with the answer', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus({ clock: runtime.clock });
    const model = script();
    const executor = new Executor({
      model,
      tools: [askUserTool({ bus, runtime })],
      runtime,
      safety: { pauseOnInterrupt: true },
    });
    const run = executor.run('Pick a colour for me');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const paused = await run.result;
    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toMatchObject([
      {
        kind: 'question',
        toolName: 'ask_user',
        callId: 'q1',
        title: 'Which colour?',
        options: ['red', 'blue'],
      },
    ]);
    // Nobody is asked live: the question waits in the state, not on the bus.
    expect(await bus.pending(run.runId)).toEqual([]);
    expect(events.filter((e) => e.type === 'interrupt')).toHaveLength(1);

    const state = paused.state!;
    const id = paused.interruptions![0]!.id;
    expect(() => state.answer(id, 'green')).toThrow(InterruptError);
    expect(() => state.approve(id)).toThrow(/is a question/);
    state.answer(id, 'blue');
    const resumed = await executor.resume(JSON.parse(JSON.stringify(state))).result;
    expect(resumed).toMatchObject({ status: 'success', output: 'Blue it is.' });
    expect(toolResults(model, 2)).toEqual(['User selected: blue']);
    expect(await bus.pending(run.runId)).toEqual([]);
  });

  it('pauses an Orchestrator run, which resumes from its checkpoint with a free-text answer', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus({ clock: runtime.clock });
    const store = new MemoryCheckpointStore<RunState>();
    const executor = new ScriptedModel([
      { toolCalls: [{ id: 'q1', name: 'ask_user', args: { question: 'Your name?' } }] },
      { text: 'Hello, Ada.' },
    ]);
    const orchestrator = new Orchestrator({
      models: { planner: new ScriptedModel([]), executor },
      tools: [askUserTool({ bus, runtime })],
      planning: { classify: 'heuristic' },
      checkpoints: { store },
      safety: { pauseOnInterrupt: true },
      runtime,
    });
    const run = orchestrator.run('Greet me');
    const paused = await run.result;
    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toMatchObject([
      { kind: 'question', toolName: 'ask_user', title: 'Your name?' },
    ]);
    const saved = (await store.load(run.runId))!;
    expect(saved.status).toBe('paused');
    paused.state!.answer(paused.interruptions![0]!.id, 'Ada');
    const resumed = await orchestrator.resume(JSON.parse(JSON.stringify(paused.state))).result;
    expect(resumed).toMatchObject({ status: 'success', output: 'Hello, Ada.' });
    expect(toolResults(executor, 2)).toEqual(['User responded: Ada']);
    expect(await bus.pending(run.runId)).toEqual([]);
  });

  it('pauses a plan step on the question; the resumed step gets the answer and the plan goes on', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus({ clock: runtime.clock });
    const plan = {
      title: 'Greet',
      summary: 'Ask, then greet',
      steps: [
        {
          id: 'ask',
          description: 'Ask the name',
          expectedOutput: 'a name',
          tools: ['ask_user'],
          expectedFiles: [],
          risk: 'safe',
          dependsOn: [],
        },
        {
          id: 'greet',
          description: 'Greet by name',
          expectedOutput: 'a greeting',
          tools: [],
          expectedFiles: [],
          risk: 'safe',
          dependsOn: ['ask'],
        },
      ],
    };
    const executor = new ScriptedModel([
      { toolCalls: [{ id: 'q1', name: 'ask_user', args: { question: 'Your name?' } }] },
      { text: 'The name is Ada.' },
      { text: 'Hello, Ada.' },
    ]);
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([
          { text: '{"needsPlan": true, "reasoning": "two steps"}' },
          { text: JSON.stringify(plan) },
        ]),
        executor,
        verifier: false,
        finalizer: new ScriptedModel([{ text: 'Greeted Ada.' }]),
      },
      tools: [askUserTool({ bus, runtime })],
      planning: { classify: 'llm' },
      safety: { pauseOnInterrupt: true },
      runtime,
    });
    const paused = await orchestrator.run('Ask my name, then greet me').result;
    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toMatchObject([{ kind: 'question', stepId: 'ask', title: 'Your name?' }]);
    paused.state!.answer(paused.interruptions![0]!.id, 'Ada');
    const resumed = await orchestrator.resume(paused.state).result;
    expect(resumed).toMatchObject({ status: 'success', output: 'Greeted Ada.' });
    expect(toolResults(executor, 2)).toEqual(['User responded: Ada']);
    expect(await bus.pending(paused.state!.runId)).toEqual([]);
  });
});
