import { describe, expect, it } from 'vitest';
import {
  AgentRegistry,
  ConfigError,
  HandoffManager,
  imagePart,
  MemoryCheckpointStore,
  type Message,
  ModelError,
  Orchestrator,
  type RunState,
  type TandemEvent,
  toBase64,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { decideComplex, planJson, setup } from './helpers.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const chart = imagePart(PNG, 'image/png', { filename: 'charts.png' });
const history: Message[] = [
  { role: 'user', content: "We're comparing two charts" },
  { role: 'assistant', content: [{ type: 'text', text: 'Send them over and ask away.' }] },
];
const followUp = [{ type: 'text' as const, text: 'Which one grows faster?' }, chart];

/** The image parts of a request's messages. */
function imagesOf(request: { messages: readonly Message[] } | undefined) {
  const images: unknown[] = [];
  for (const message of request?.messages ?? []) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'image') images.push(part);
  }
  return images;
}

const textOfAll = (request: { messages: readonly Message[] } | undefined) =>
  JSON.stringify(request?.messages);

describe('Orchestrator: a follow-up with an image and a history', () => {
  it('plans with the history and the image in view, and the first step sees them too', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]) }],
      executor: [{ text: 'Chart A grows 10%/yr, chart B 25%/yr' }, { text: 'B grows faster' }],
      verifier: [{ text: 'PASS: answered' }],
      finalizer: [{ text: 'Chart B grows faster.' }],
    });
    const result = await orchestrator.run(followUp, { history }).result;
    expect(result.status).toBe('success');

    const [decide, plan] = models.planner.requests;
    for (const request of [decide, plan]) {
      expect(request!.messages.slice(0, 2)).toEqual(history);
      expect(request!.messages[2]).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'Task: ' }, ...followUp],
      });
    }

    const [first, second] = models.executor.requests;
    expect(first!.messages.slice(0, 2)).toEqual(history);
    const request = first!.messages[2]!;
    expect(request.role).toBe('user');
    // The step job is plain JSON (it may travel to a queue worker): the bytes are base64 text.
    expect(request.content).toEqual([
      followUp[0],
      { ...chart, data: toBase64(PNG) },
      { type: 'text', text: expect.stringMatching(/^\n\nExecute step: do a/) },
    ]);
    // A step that builds on another reads its findings and the request's text, not the image again.
    expect(imagesOf(second)).toEqual([]);
    expect(String(second!.system)).toContain("The user's request: Which one grows faster?");
    expect(String(second!.system)).toContain('[image: image/png, charts.png, 8 bytes]');
  });

  it('lets the finalizer answer in the conversation: the history before the task and findings', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 'a' }]) }],
      executor: [{ text: 'B grows faster' }],
      verifier: [{ text: 'PASS: answered' }],
      finalizer: [{ text: 'Chart B.' }],
    });
    await orchestrator.run(followUp, { history }).result;
    const [finalize] = models.finalizer.requests;
    expect(finalize!.messages.slice(0, 2)).toEqual(history);
    expect(finalize!.messages[2]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(
        /^Task: Which one grows faster\?\n\[image: image\/png, charts.png, 8 bytes\]/,
      ),
    });
  });

  it('lets the verifier judge with the conversation and the image in view', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 'a' }]) }],
      executor: [{ text: 'B grows faster' }],
      verifier: [{ text: 'PASS: answered' }],
      finalizer: [{ text: 'Chart B.' }],
    });
    await orchestrator.run(followUp, { history }).result;
    const [verify] = models.verifier.requests;
    expect(verify!.messages.slice(0, 2)).toEqual(history);
    expect(imagesOf(verify)).toEqual([chart]);
    expect(textOfAll(verify)).toContain('<user_query>');
    expect(textOfAll(verify)).toContain('Step results:');
  });

  it('continues the conversation in a simple run: history, then the request with its image', async () => {
    const { orchestrator, models } = setup(
      { executor: [{ text: 'Chart B.' }] },
      { planning: { classify: () => 'simple' } },
    );
    await orchestrator.run(followUp, { history }).result;
    expect(models.executor.requests[0]!.messages).toEqual([...history, { role: 'user', content: followUp }]);
  });

  it('takes messages as the input: the last user message is the request, the others its history', async () => {
    const { orchestrator, models } = setup({
      planner: [{ text: '{"needsPlan": false, "reasoning": "one question"}' }],
      executor: [{ text: 'B' }],
    });
    await orchestrator.run([...history, { role: 'user', content: followUp }]).result;
    const [decide] = models.planner.requests;
    expect(decide!.messages.slice(0, 2)).toEqual(history);
    expect(imagesOf(decide)).toEqual([chart]);
  });

  it('refuses input messages that do not end with the request', () => {
    const { orchestrator } = setup({});
    expect(() => orchestrator.run(history)).toThrow(ConfigError);
    expect(() => orchestrator.run(history)).toThrow(/must end with a user message/);
  });
});

describe('Orchestrator: classifier and router see the conversation', () => {
  it('gives a classifier function the request as given and the history', async () => {
    const seen: unknown[] = [];
    const { orchestrator } = setup(
      { executor: [{ text: 'B' }] },
      {
        planning: {
          classify: (task, context) => {
            seen.push(task, context.input, context.history);
            return 'simple';
          },
        },
      },
    );
    await orchestrator.run(followUp, { history }).result;
    expect(seen).toEqual([
      'Which one grows faster?\n[image: image/png, charts.png, 8 bytes]',
      followUp,
      history,
    ]);
  });

  it('classifies by heuristics from the words of content parts, not their images', async () => {
    const { orchestrator } = setup({ executor: [{ text: 'B' }] }, { planning: { classify: 'heuristic' } });
    const run = orchestrator.run(followUp, { history });
    const routing: TandemEvent[] = [];
    run.on('routing', (e) => routing.push(e));
    await run.result;
    // The user's four words, not the image's placeholder.
    expect(routing[0]).toMatchObject({
      complexity: 'simple',
      method: 'heuristic',
      reason: 'short query (4 words)',
    });
  });

  it('hands the router the request and the history', async () => {
    const calls: unknown[] = [];
    const { orchestrator } = setup(
      { planner: [{ text: '{"needsPlan": false, "reasoning": "one"}' }], executor: [{ text: 'B' }] },
      {
        handoffs: { has: () => false } as never,
        router: {
          defaultAgent: 'main',
          route: async (query, options) => {
            calls.push(query, options.history);
            return { agent: 'main', confidence: 1, reason: 'default', method: 'llm' };
          },
        },
      },
    );
    await orchestrator.run(followUp, { history }).result;
    expect(calls).toEqual([followUp, history]);
  });
});

describe('Orchestrator: agents of a mode see the history', () => {
  it('gives a named agent the history before the request', async () => {
    const coder = new ScriptedModel([{ text: 'B' }]);
    const agents = new AgentRegistry([
      { name: 'charts', description: 'reads charts', instructions: 'You read charts.', model: coder },
    ]);
    const runtime = testRuntime();
    const orchestrator = new Orchestrator({
      models: { planner: new ScriptedModel([]), executor: new ScriptedModel([]) },
      handoffs: new HandoffManager({ agents, runtime }),
      runtime,
    });
    await orchestrator.run('Which one grows faster?', { history, mode: 'charts' }).result;
    expect(coder.requests[0]!.messages.slice(0, 2)).toEqual(history);
    expect(coder.requests[0]!.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(coder.requests[0]!.messages.at(-1))).toContain('Which one grows faster?');
  });
});

describe('Orchestrator: the ids and the saved request', () => {
  it("uses the caller's runId on every event and saves the ids in the state", async () => {
    const { orchestrator } = setup({ executor: [{ text: 'B' }] }, { planning: { classify: () => 'simple' } });
    const run = orchestrator.run('Which one grows faster?', {
      runId: 'chat-42-turn-7',
      resourceId: 'user-9',
      threadId: 'thread-3',
    });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await run.result;
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set(['chat-42-turn-7']));
    expect(events[0]).toMatchObject({ type: 'run_started', resourceId: 'user-9', threadId: 'thread-3' });
    expect(run.state()).toMatchObject({
      runId: 'chat-42-turn-7',
      resourceId: 'user-9',
      threadId: 'thread-3',
    });
  });

  it('resumes a run that failed while planning with the saved history and image in view', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const runtime = testRuntime();
    const build = (planner: ScriptedModel) =>
      new Orchestrator({
        models: {
          planner,
          executor: new ScriptedModel([{ text: 'B grows faster' }]),
          verifier: false,
          finalizer: ({ steps }) => steps.map((s) => s.output).join(' | '),
        },
        planning: { classify: 'llm' },
        checkpoints: { store },
        runtime,
      });
    const broken = { error: new ModelError('bad_request', 'planner down') };
    const first = build(new ScriptedModel([decideComplex, broken]));
    const failed = await first.run(followUp, { history, runId: 'r1' }).result;
    expect(failed.status).toBe('failed');

    const saved = await store.load('r1');
    expect(saved).toMatchObject({ phase: 'planning', history, input: [followUp[0], { type: 'image' }] });

    const planner = new ScriptedModel([{ text: planJson([{ id: 'a' }]) }]);
    const resumed = await build(planner).resume(saved).result;
    expect(resumed.output).toBe('B grows faster');
    const [plan] = planner.requests;
    expect(plan!.messages.slice(0, 2)).toEqual(history);
    expect(imagesOf(plan)).toEqual([{ ...chart, data: toBase64(PNG) }]);
  });
});
