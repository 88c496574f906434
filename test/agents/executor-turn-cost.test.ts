/**
 * What a turn does not pay for: a second abort signal per run, a request
 * rebuilt every turn, a long conversation copied per settled call. Counted, not timed
 * (speed is measured with bench/).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { Executor, executeOn } from '../../src/agents/executor/index.js';
import type { AssistantMessage } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { ChatModel, ModelRequest } from '../../src/model/types.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { collectingBus } from '../tools/helpers.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const threeTurns = () =>
  new ScriptedModel([
    { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
    { toolCalls: [{ name: 'add', args: { a: 3, b: 4 } }] },
    { text: 'done' },
  ]);

/** Counts `AbortController`s made while `fn` runs. */
async function controllersMadeBy(fn: () => Promise<unknown>): Promise<number> {
  const Original = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      made++;
    }
  };
  try {
    await fn();
  } finally {
    globalThis.AbortController = Original;
  }
  return made;
}

// Stale-stream detection, on by default, aborts a silent stream through a controller of its own, made when the
// model reads its call signal: ScriptedModel's stream checks it between parts, so one per model call here.
const STALE_WATCHES = 3;

afterEach(() => vi.restoreAllMocks());

describe('Executor turn costs', () => {
  it("makes one abort signal per run, the run's own, however many turns it takes", async () => {
    const executor = new Executor({ model: threeTurns(), tools: [add], runtime: testRuntime() });
    const made = await controllersMadeBy(() => executor.run('add twice').result);
    expect(made).toBe(1 + STALE_WATCHES);
  });

  it('makes no signal per model call for a model that never reads its call signal', async () => {
    // ScriptedModel's generate reads its signal only to hang: these three calls never do.
    const executor = new Executor({
      model: threeTurns(),
      tools: [add],
      runtime: testRuntime(),
      stream: false,
    });
    const made = await controllersMadeBy(() => executor.run('add twice').result);
    expect(made).toBe(1);
  });

  it('a run given a caller signal still makes only its own', async () => {
    const executor = new Executor({ model: threeTurns(), tools: [add], runtime: testRuntime() });
    const caller = new AbortController();
    const made = await controllersMadeBy(() => executor.run('add twice', { signal: caller.signal }).result);
    expect(made).toBe(1 + STALE_WATCHES);
  });

  it("an execution under a caller's signal makes one signal of its own, linked to it", async () => {
    const executor = new Executor({ model: threeTurns(), tools: [add], runtime: testRuntime() });
    const owner = new AbortController();
    const { bus } = collectingBus();
    const made = await controllersMadeBy(() =>
      executeOn(executor, 'add twice', { emit: bus, signal: owner.signal }),
    );
    expect(made).toBe(1 + STALE_WATCHES);
  });

  it("an execution's time limit aborts its own signal, never the caller's", async () => {
    const runtime = testRuntime();
    const model = new ScriptedModel([() => ({ hang: true })]);
    const executor = new Executor({ model, tools: [add], runtime, limits: { timeoutMs: 1000 } });
    const owner = new AbortController();
    const { bus } = collectingBus();
    const done = executeOn(executor, 'hang', { emit: bus, signal: owner.signal });
    await runtime.clock.advance(1000);
    expect(await done).toMatchObject({ status: 'partial', error: { kind: 'timeout' } });
    expect(owner.signal.aborted).toBe(false);
  });

  it('sends the same request object every turn while the tools stay the same', async () => {
    const seen: ModelRequest[] = [];
    const model = threeTurns();
    const generate = model.generate.bind(model);
    model.generate = (request, options) => {
      seen.push(request);
      return generate(request, options);
    };
    const executor = new Executor({ model, tools: [add], runtime: testRuntime(), stream: false });
    await executor.run('add twice').result;
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    // The run's own conversation, appended to in place: by now it holds the answer too.
    expect(seen[0]!.messages).toHaveLength(6);
  });

  it('gives a prepareRequest hook a fresh request each turn, so its changes never carry over', async () => {
    const given: ModelRequest[] = [];
    const executor = new Executor({
      model: threeTurns(),
      tools: [add],
      runtime: testRuntime(),
      context: {
        prepareRequest: (request) => {
          given.push(request);
          expect(request.temperature).toBeUndefined();
          request.temperature = 0;
          return request;
        },
      },
    });
    await executor.run('add twice').result;
    expect(given).toHaveLength(3);
    expect(new Set(given).size).toBe(3);
  });

  it('copies a long conversation once per run, not once per settled call, without a checkpoint hook', async () => {
    // A plain model: the scripted one keeps its own copy of every request.
    let turn = 0;
    const model: ChatModel = {
      id: 'test:plain',
      generate: async () => {
        const content: AssistantMessage['content'] =
          turn++ === 0
            ? [1, 2, 3, 4].map((a) => ({
                type: 'tool_call',
                id: `c${a}`,
                name: 'add',
                arguments: `{"a":${a},"b":1}`,
              }))
            : [{ type: 'text', text: 'done' }];
        return { message: { role: 'assistant', content }, finishReason: 'stop', usage: emptyUsage() };
      },
    };
    const parallelAdd = defineTool({ ...add, parallelSafe: true });
    const executor = new Executor({ model, tools: [parallelAdd], runtime: testRuntime() });
    const history = Array.from({ length: 1000 }, (_, i) => ({ role: 'user' as const, content: `q${i}` }));
    const slice = vi.spyOn(Array.prototype, 'slice');
    await executor.run('add four', { history }).result;
    const longCopies = slice.mock.results.filter((r) => (r.value as unknown[]).length >= 1000);
    expect(longCopies).toHaveLength(1);
  });
});
