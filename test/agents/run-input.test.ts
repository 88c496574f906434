import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  Executor,
  imagePart,
  type Message,
  Planner,
  Router,
  type TandemEvent,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

const chart = imagePart(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png');
const history: Message[] = [
  { role: 'user', content: "We're comparing two charts" },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'They want a comparison.' },
      { type: 'text', text: 'Send them over.' },
      { type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' },
    ],
  },
  { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'lookup', content: 'x' }] },
];
/** What a planning or routing model reads of `history`: user and assistant text, no tool traffic. */
const historyView: Message[] = [
  history[0]!,
  { role: 'assistant', content: [{ type: 'text', text: 'Send them over.' }] },
];
const followUp = [{ type: 'text' as const, text: 'Which one grows faster?' }, chart];

describe('Executor.run input', () => {
  it('takes content parts: the request carries the text and the image after the history', async () => {
    const model = new ScriptedModel([{ text: 'B' }]);
    const executor = new Executor({ model, runtime: testRuntime() });
    await executor.run(followUp, { history }).result;
    expect(model.requests[0]!.messages).toEqual([...history, { role: 'user', content: followUp }]);
  });

  it("uses the caller's runId on every event and reports the conversation ids on run_started", async () => {
    const executor = new Executor({ model: new ScriptedModel([{ text: 'B' }]), runtime: testRuntime() });
    const run = executor.run(followUp, { runId: 'turn-7', resourceId: 'user-9', threadId: 'thread-3' });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await run.result;
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set(['turn-7']));
    expect(events[0]).toMatchObject({
      type: 'run_started',
      input: 'Which one grows faster?\n[image: image/png, 4 bytes]',
      resourceId: 'user-9',
      threadId: 'thread-3',
    });
  });

  it('refuses an input mixing parts and messages, and an invalid image, before the run starts', () => {
    const model = new ScriptedModel([]);
    const executor = new Executor({ model, runtime: testRuntime() });
    const mixed = [followUp[0], { role: 'user', content: 'hi' }] as never;
    expect(() => executor.run(mixed)).toThrow(ConfigError);
    const bad = [{ type: 'image', mediaType: 'image/png' }] as never;
    expect(() => executor.run(bad)).toThrow(/invalid input part: needs exactly one of data and url/);
    expect(model.calls).toBe(0);
  });
});

describe('Planner and Router read the conversation', () => {
  it('Planner.decide and createPlan send the history (text only) and the task with its image', async () => {
    const plan = JSON.stringify({
      title: 'Compare',
      summary: 'Compare the charts',
      steps: [{ id: 'a', description: 'Read both charts', dependsOn: [] }],
    });
    const model = new ScriptedModel([
      { text: '{"needsPlan": true, "reasoning": "two charts"}' },
      { text: plan },
    ]);
    const planner = new Planner({ model, runtime: testRuntime() });
    await planner.decide(followUp, { history });
    await planner.createPlan(followUp, undefined, { history });
    for (const request of model.requests) {
      expect(request.messages).toEqual([
        ...historyView,
        { role: 'user', content: [{ type: 'text', text: 'Task: ' }, ...followUp] },
      ]);
    }
  });

  it('Router.route sends the history and the query with its image', async () => {
    const model = new ScriptedModel([
      { text: '{"agent": "charts", "confidence": 0.9, "reason": "a chart"}' },
    ]);
    const router = new Router({
      model,
      agents: [
        { name: 'chat', description: 'Chat' },
        { name: 'charts', description: 'Reads charts' },
      ],
      defaultAgent: 'chat',
      runtime: testRuntime(),
    });
    const routing = await router.route(followUp, { history });
    expect(routing.agent).toBe('charts');
    expect(model.requests[0]!.messages).toEqual([
      ...historyView,
      { role: 'user', content: [{ type: 'text', text: 'Query: ' }, ...followUp] },
    ]);
  });
});
