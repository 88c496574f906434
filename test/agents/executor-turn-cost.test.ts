/**
 * What a turn does not pay for: a second abort signal per run, a request
 * rebuilt every turn, promises around synchronous tools. Counted, not timed
 * (speed is measured with bench/).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { Executor } from '../../src/agents/index.js';
import type { AssistantMessage } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { ChatModel, ModelRequest } from '../../src/model/types.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { prepareTurn } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ToolRunner } from '../../src/tools/runner.js';
import { defineTool } from '../../src/tools/types.js';
import { collectingBus, toolCall } from '../tools/helpers.js';

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

afterEach(() => vi.restoreAllMocks());

describe('Executor turn costs', () => {
  it("makes one abort signal per run, the run's own, however many turns it takes", async () => {
    const executor = new Executor({ model: threeTurns(), tools: [add], runtime: testRuntime() });
    const made = await controllersMadeBy(() => executor.run('add twice').result);
    expect(made).toBe(1);
  });

  it('a run given a caller signal still makes only its own', async () => {
    const executor = new Executor({ model: threeTurns(), tools: [add], runtime: testRuntime() });
    const caller = new AbortController();
    const made = await controllersMadeBy(() => executor.run('add twice', { signal: caller.signal }).result);
    expect(made).toBe(1);
  });

  it('an execution given an abort for its signal works on that signal and makes none', async () => {
    const executor = new Executor({ model: threeTurns(), tools: [add], runtime: testRuntime() });
    const owner = new AbortController();
    const { bus } = collectingBus();
    const made = await controllersMadeBy(() =>
      executor.execute('add twice', {
        emit: bus,
        signal: owner.signal,
        abort: (reason) => owner.abort(reason),
      }),
    );
    expect(made).toBe(0);
  });

  it("an execution's time limit aborts the signal it was given to own", async () => {
    const runtime = testRuntime();
    const model = new ScriptedModel([() => ({ hang: true })]);
    const executor = new Executor({ model, tools: [add], runtime, timeoutMs: 1000 });
    const owner = new AbortController();
    const { bus } = collectingBus();
    const failed = executor
      .execute('hang', { emit: bus, signal: owner.signal, abort: (r) => owner.abort(r) })
      .catch((error: unknown) => error);
    await runtime.clock.advance(1000);
    expect(await failed).toMatchObject({ kind: 'timeout' });
    expect(owner.signal.aborted).toBe(true);
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
      prepareRequest: (request) => {
        given.push(request);
        expect(request.temperature).toBeUndefined();
        request.temperature = 0;
        return request;
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

describe('synchronous tool turns', () => {
  it('prepares calls of synchronous schemas without a promise', () => {
    const prepared = prepareTurn(new ToolRegistry([add]), [toolCall('add', { a: 1, b: 2 })]);
    expect(prepared).not.toBeInstanceOf(Promise);
  });

  it('runs synchronous tools to their outcomes without a promise', () => {
    const { bus } = collectingBus();
    const prepared = prepareTurn(new ToolRegistry([add]), [
      toolCall('add', { a: 1, b: 2 }, 'c1'),
      toolCall('add', { a: 3, b: 4 }, 'c2'),
    ]);
    if (prepared instanceof Promise) throw new Error('expected synchronous preparation');
    const ran = new ToolRunner().start(prepared.calls, {
      signal: new AbortController().signal,
      emit: bus,
      runId: bus.runId,
    });
    expect(Array.isArray(ran)).toBe(true);
    expect((ran as { content: string }[]).map((o) => o.content)).toEqual(['3', '7']);
  });
});
