import { describe, expect, it, vi } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { FakeClock, flush } from '../../src/testing/fake-clock.js';
import { type PreparedCall, prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { type RunToolsContext, ToolRunner } from '../../src/tools/runner.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';
import { collectingBus, deferred, simpleTool, toolCall } from './helpers.js';

function setup(tools: Tool[], options: { concurrency?: number; maxOutputChars?: number } = {}) {
  const { bus, events, clock } = collectingBus();
  const registry = new ToolRegistry(tools);
  const runner = new ToolRunner({ clock, ...options });
  const controller = new AbortController();
  const ctx: RunToolsContext = { signal: controller.signal, emit: bus, runId: bus.runId };
  const prepare = async (...calls: Parameters<typeof toolCall>[]) =>
    (
      await prepareToolCalls(
        registry,
        calls.map((args) => toolCall(...args)),
      )
    ).calls;
  return { events, clock, runner, controller, ctx, prepare };
}

function types(events: TandemEvent[]): string[] {
  return events.map((e) =>
    e.type === 'tool_call' || e.type === 'tool_result' ? `${e.type}:${e.id}` : e.type,
  );
}

/** Every tool_call is followed by exactly one tool_result with its id, and every result has a call. */
function expectPaired(events: TandemEvent[]): void {
  const open = new Set<string>();
  const closed = new Set<string>();
  for (const event of events) {
    if (event.type === 'tool_call') {
      expect(open.has(event.id) || closed.has(event.id)).toBe(false);
      open.add(event.id);
    } else if (event.type === 'tool_result') {
      expect(open.delete(event.id)).toBe(true);
      closed.add(event.id);
    }
  }
  expect(open.size).toBe(0);
}

describe('ToolRunner', () => {
  it('runs parallel-safe calls concurrently', async () => {
    const gates = [deferred<string>(), deferred<string>()];
    const started: string[] = [];
    const tool = simpleTool(
      'read_file',
      ({ path }) => {
        started.push(path);
        return gates[started.length - 1]!.promise;
      },
      { parallelSafe: true },
    );
    const { runner, ctx, prepare, events } = setup([tool]);
    const done = runner.run(
      await prepare(['read_file', { path: 'a' }, 'a'], ['read_file', { path: 'b' }, 'b']),
      ctx,
    );
    await flush();
    expect(started).toEqual(['a', 'b']);
    gates[1]!.resolve('B');
    gates[0]!.resolve('A');
    const outcomes = await done;
    expect(outcomes.map((o) => o.content)).toEqual(['A', 'B']);
    expect(types(events)).toEqual([
      'tool_call:a',
      'tool_call:b',
      'parallel_start',
      'tool_result:b',
      'tool_result:a',
      'parallel_complete',
    ]);
    expect(events[2]).toMatchObject({ ids: ['a', 'b'] });
    expect(events[5]).toMatchObject({ ids: ['a', 'b'], durationMs: 0 });
  });

  it('runs calls in order when one tool is not parallel-safe', async () => {
    const gates = [deferred<string>(), deferred<string>()];
    const started: string[] = [];
    const safe = simpleTool(
      'read_file',
      () => {
        started.push('read');
        return gates[0]!.promise;
      },
      { parallelSafe: true },
    );
    const unsafe = simpleTool('write_file', () => {
      started.push('write');
      return gates[1]!.promise;
    });
    const { runner, ctx, prepare, events } = setup([safe, unsafe]);
    const done = runner.run(
      await prepare(['read_file', { path: 'a' }, 'r'], ['write_file', { path: 'b' }, 'w']),
      ctx,
    );
    await flush();
    expect(started).toEqual(['read']);
    gates[0]!.resolve('read done');
    await flush();
    expect(started).toEqual(['read', 'write']);
    gates[1]!.resolve('written');
    await done;
    expect(types(events)).toEqual(['tool_call:r', 'tool_result:r', 'tool_call:w', 'tool_result:w']);
  });

  it('runs parallel-safe calls on overlapping paths in order', async () => {
    const gates = [deferred<string>(), deferred<string>()];
    const started: string[] = [];
    const tool = simpleTool(
      'read_file',
      ({ path }) => {
        started.push(path);
        return gates[started.length - 1]!.promise;
      },
      { parallelSafe: true },
    );
    const { runner, ctx, prepare, events } = setup([tool]);
    const done = runner.run(
      await prepare(['read_file', { path: 'src' }], ['read_file', { path: './src/../src/a.ts' }]),
      ctx,
    );
    await flush();
    expect(started).toEqual(['src']);
    gates[0]!.resolve('1');
    await flush();
    expect(started).toHaveLength(2);
    gates[1]!.resolve('2');
    await done;
    expect(events.some((e) => e.type === 'parallel_start')).toBe(false);
  });

  it('reads paths from the keys a tool declares in pathArgs', async () => {
    const gates = [deferred<string>(), deferred<string>()];
    let started = 0;
    const tool = simpleTool('copy', () => gates[started++]!.promise, { parallelSafe: true, pathArgs: ['n'] });
    const { runner, ctx, prepare } = setup([tool]);
    const done = runner.run(await prepare(['copy', { path: 'a', n: 1 }], ['copy', { path: 'a', n: 2 }]), ctx);
    await flush();
    expect(started).toBe(2);
    gates[0]!.resolve('');
    gates[1]!.resolve('');
    await done;
  });

  it('caps concurrency at the configured limit', async () => {
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    let started = 0;
    const tool = simpleTool('fetch', () => gates[started++]!.promise, { parallelSafe: true });
    const { runner, ctx, prepare } = setup([tool], { concurrency: 2 });
    const done = runner.run(
      await prepare(['fetch', { n: 1 }], ['fetch', { n: 2 }], ['fetch', { n: 3 }]),
      ctx,
    );
    await flush();
    expect(started).toBe(2);
    gates[0]!.resolve('1');
    await flush();
    expect(started).toBe(3);
    gates[1]!.resolve('2');
    gates[2]!.resolve('3');
    expect((await done).map((o) => o.content)).toEqual(['1', '2', '3']);
  });

  it('returns outcomes in call order even when later calls finish first', async () => {
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    let started = 0;
    const tool = simpleTool('fetch', () => gates[started++]!.promise, { parallelSafe: true });
    const { runner, ctx, prepare } = setup([tool]);
    const done = runner.run(
      await prepare(['fetch', { n: 1 }, 'x'], ['fetch', { n: 2 }, 'y'], ['fetch', { n: 3 }, 'z']),
      ctx,
    );
    await flush();
    gates[2]!.resolve('third');
    await flush();
    gates[1]!.resolve('second');
    await flush();
    gates[0]!.resolve('first');
    const outcomes = await done;
    expect(outcomes.map((o) => [o.toolCallId, o.content])).toEqual([
      ['x', 'first'],
      ['y', 'second'],
      ['z', 'third'],
    ]);
  });

  it('answers calls that are not ready at once, with their message as an error', async () => {
    let executed = false;
    const tool = simpleTool('read_file', () => {
      executed = true;
    });
    const { runner, ctx, prepare, events } = setup([tool]);
    const prepared = await prepare(['read_file', { path: 'a' }, 'ok'], ['nope', {}, 'bad']);
    const outcomes = await runner.run(prepared, ctx);
    expect(executed).toBe(false);
    expect(outcomes.map((o) => o.isError)).toEqual([true, true]);
    expect(outcomes[1]).toMatchObject({
      toolName: 'nope',
      content: expect.stringContaining("Tool 'nope' does not exist"),
    });
    expect(events.find((e) => e.type === 'tool_call' && e.id === 'ok')).toMatchObject({
      args: { path: 'a' },
    });
    expectPaired(events);
  });

  it('shows the raw argument text in tool_call when it did not parse', async () => {
    const { runner, ctx, prepare, events } = setup([simpleTool('read_file', () => '')]);
    await runner.run(await prepare(['read_file', '{oops', 'j']), ctx);
    expect(events[0]).toMatchObject({ type: 'tool_call', id: 'j', args: '{oops' });
    expect(events[1]).toMatchObject({ type: 'tool_result', id: 'j', isError: true });
  });

  it('reports the repaired name in tool_call', async () => {
    const { runner, ctx, prepare, events } = setup([simpleTool('read_file', () => 'x')]);
    await runner.run(await prepare(['readFile', {}, 'c']), ctx);
    expect(events[0]).toMatchObject({ type: 'tool_call', name: 'read_file', requestedName: 'readFile' });
  });

  it('aborts the signal of a tool that times out and resolves without waiting for it', async () => {
    let seen: AbortSignal | undefined;
    const hang = simpleTool(
      'hang',
      (_args, ctx: ToolContext) => {
        seen = ctx.signal;
        return new Promise(() => {});
      },
      { timeoutMs: 5000 },
    );
    const { runner, ctx, prepare, events, clock } = setup([hang]);
    const done = runner.run(await prepare(['hang', {}, 'h']), ctx);
    await clock.advance(4999);
    expect(seen?.aborted).toBe(false);
    await clock.advance(1);
    const [outcome] = await done;
    expect(seen?.aborted).toBe(true);
    expect(outcome).toMatchObject({
      isError: true,
      content: "Tool 'hang' timed out after 5000 ms",
      durationMs: 5000,
    });
    expect(clock.pending).toBe(0);
    expectPaired(events);
  });

  it('cancels the timeout timer of a tool that finishes in time', async () => {
    const { runner, ctx, prepare, clock } = setup([
      simpleTool('quick', async () => 'done', { timeoutMs: 1000 }),
    ]);
    const [outcome] = await runner.run(await prepare(['quick', {}]), ctx);
    expect(outcome?.content).toBe('done');
    expect(clock.pending).toBe(0);
  });

  it('waits on the caller signal with one abort listener however many calls are pending', async () => {
    const tool = simpleTool('t', async ({ n }) => n, { parallelSafe: true, timeoutMs: 100 });
    const { runner, ctx, prepare, controller } = setup([tool]);
    const added = vi.spyOn(controller.signal, 'addEventListener');
    const calls = Array.from({ length: 12 }, (_, n): [string, { n: number }] => ['t', { n }]);
    await runner.run(await prepare(...calls), ctx);
    await runner.run(await prepare(...calls), ctx);
    expect(added).toHaveBeenCalledTimes(1);
  });

  it('leaves a finished call as it settled when the caller aborts later', async () => {
    const tool = simpleTool('t', async ({ n }) => n);
    const { runner, ctx, prepare, controller, events } = setup([tool]);
    const [outcome] = await runner.run(await prepare(['t', { n: 1 }]), ctx);
    controller.abort();
    await flush();
    expect(outcome).toMatchObject({ content: '1', isError: false });
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
  });

  it('settles a tool that returns synchronously without waiting on the caller signal', async () => {
    const tool = simpleTool('sync', ({ n }) => n * 2);
    const { runner, ctx, prepare, controller } = setup([tool]);
    const added = vi.spyOn(controller.signal, 'addEventListener');
    const [outcome] = await runner.run(await prepare(['sync', { n: 21 }]), ctx);
    expect(outcome).toMatchObject({ content: '42', isError: false });
    expect(added).not.toHaveBeenCalled();
  });

  it('ignores a timed-out tool that settles later', async () => {
    const late = deferred<string>();
    const tool = simpleTool('late', () => late.promise, { timeoutMs: 10 });
    const { runner, ctx, prepare, events, clock } = setup([tool]);
    const done = runner.run(await prepare(['late', {}, 'l']), ctx);
    await clock.advance(10);
    const [outcome] = await done;
    late.reject(new Error('too late'));
    await flush();
    expect(outcome?.content).toBe("Tool 'late' timed out after 10 ms");
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
  });

  it('resolves every unfinished call as aborted when the caller aborts mid-tool', async () => {
    let toolSignal: AbortSignal | undefined;
    let secondRan = false;
    const slow = simpleTool('slow', (_args, ctx: ToolContext) => {
      toolSignal = ctx.signal;
      return new Promise(() => {});
    });
    const next = simpleTool('next', () => {
      secondRan = true;
    });
    const { runner, ctx, prepare, events, controller } = setup([slow, next]);
    const done = runner.run(await prepare(['slow', {}, 's'], ['next', {}, 'n']), ctx);
    await flush();
    controller.abort();
    const outcomes = await done;
    expect(toolSignal?.aborted).toBe(true);
    expect(secondRan).toBe(false);
    expect(outcomes.map((o) => o.content)).toEqual(["Tool 'slow' was aborted", "Tool 'next' was aborted"]);
    expect(types(events)).toEqual(['tool_call:s', 'tool_result:s', 'tool_call:n', 'tool_result:n']);
  });

  it('aborts concurrent calls together', async () => {
    const tool = simpleTool('wait', () => new Promise(() => {}), { parallelSafe: true, timeoutMs: 60_000 });
    const { runner, ctx, prepare, events, controller, clock } = setup([tool]);
    const done = runner.run(await prepare(['wait', { n: 1 }], ['wait', { n: 2 }]), ctx);
    await flush();
    controller.abort();
    expect((await done).every((o) => o.content === "Tool 'wait' was aborted")).toBe(true);
    expect(clock.pending).toBe(0);
    expect(events.at(-1)?.type).toBe('parallel_complete');
    expectPaired(events);
  });

  it('turns a throwing tool into an error result', async () => {
    const syncThrow = simpleTool('sync_throw', () => {
      throw new Error('boom');
    });
    const asyncThrow = simpleTool('async_throw', async () => {
      throw new Error('later');
    });
    const { runner, ctx, prepare } = setup([syncThrow, asyncThrow]);
    const outcomes = await runner.run(await prepare(['sync_throw', {}], ['async_throw', {}]), ctx);
    expect(outcomes.map((o) => [o.isError, o.content])).toEqual([
      [true, 'Error: boom'],
      [true, 'Error: later'],
    ]);
  });

  it('stringifies results: strings as is, objects as JSON, nothing as empty', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const values: unknown[] = ['text', { a: 1 }, undefined, null, 42, circular];
    let i = 0;
    const tool = simpleTool('value', () => values[i++]);
    const { runner, ctx, prepare } = setup([tool]);
    const outcomes = await runner.run(
      await prepare(...values.map((_, n) => ['value', { n }] as Parameters<typeof toolCall>)),
      ctx,
    );
    expect(outcomes.map((o) => o.content)).toEqual(['text', '{"a":1}', '', '', '42', '[object Object]']);
    expect(outcomes.every((o) => !o.isError)).toBe(true);
  });

  it('truncates what the model sees; the event carries that and the full length, the outcome the full output', async () => {
    const big = `${'h'.repeat(600)}${'m'.repeat(300)}${'t'.repeat(100)}`;
    const { runner, ctx, prepare, events } = setup([simpleTool('big', () => big, { maxOutputChars: 100 })]);
    const [outcome] = await runner.run(await prepare(['big', {}, 'b']), ctx);
    expect(outcome?.truncated).toBe(true);
    expect(outcome?.output).toBe(big);
    expect(outcome?.content).toBe(
      `${'h'.repeat(70)}\n\n[... truncated 910 characters ...]\n\n${'t'.repeat(20)}`,
    );
    expect(events[1]).toMatchObject({
      type: 'tool_result',
      output: outcome?.content,
      truncated: true,
      outputChars: 1000,
    });
  });

  it('applies the runner default cap to tools without their own', async () => {
    const { runner, ctx, prepare } = setup([simpleTool('big', () => 'x'.repeat(500))], {
      maxOutputChars: 100,
    });
    const [outcome] = await runner.run(await prepare(['big', {}]), ctx);
    expect(outcome?.truncated).toBe(true);
    expect(outcome?.content).toContain('[... truncated 410 characters ...]');
  });

  it('answers a call the gate denies without running it', async () => {
    let ran = false;
    const tool = simpleTool('rm', () => {
      ran = true;
    });
    const { runner, ctx, prepare, events } = setup([tool]);
    const seen: string[] = [];
    ctx.gate = async (call) => {
      seen.push(call.tool.name);
      return { allow: false, result: 'Denied by policy' };
    };
    const [outcome] = await runner.run(await prepare(['rm', {}, 'g']), ctx);
    expect(ran).toBe(false);
    expect(seen).toEqual(['rm']);
    expect(outcome).toMatchObject({ content: 'Denied by policy', isError: true });
    expect(types(events)).toEqual(['tool_call:g', 'tool_result:g']);
  });

  it('runs a call the gate allows or does not decide, and reports a throwing gate as an error', async () => {
    const tool = simpleTool('echo', ({ n }) => String(n));
    const { runner, ctx, prepare } = setup([tool]);
    ctx.gate = (call) => {
      const n = (call.args as { n: number }).n;
      if (n === 1) return { allow: true };
      if (n === 2) return undefined;
      throw new Error('policy store down');
    };
    const outcomes = await runner.run(
      await prepare(['echo', { n: 1 }], ['echo', { n: 2 }], ['echo', { n: 3 }]),
      ctx,
    );
    expect(outcomes.map((o) => o.content)).toEqual(['1', '2', 'Error: policy store down']);
  });

  it('gives tools a context with the call id and an emitter tagged with it', async () => {
    let toolCtx: ToolContext | undefined;
    const tool = simpleTool('ctx', (_args, c: ToolContext) => {
      toolCtx = c;
      c.emit.emit('source', { title: 't', url: 'https://example.com' });
    });
    const { runner, ctx, prepare, events } = setup([tool]);
    ctx.stepId = 'step_1';
    ctx.agent = 'coder';
    await runner.run(await prepare(['ctx', {}, 'k']), ctx);
    expect(toolCtx).toMatchObject({ toolCallId: 'k', runId: 'run_1', stepId: 'step_1', agent: 'coder' });
    expect(events.find((e) => e.type === 'source')).toMatchObject({ parentId: 'k' });
  });

  it('pairs every tool_call with exactly one tool_result across a mixed turn', async () => {
    const tool = simpleTool(
      't',
      ({ n }) => {
        if (n === 2) throw new Error('x');
        return 'ok';
      },
      { parallelSafe: true },
    );
    const { runner, ctx, prepare, events } = setup([tool]);
    const prepared: PreparedCall[] = await prepare(
      ['t', { n: 1 }],
      ['t', { n: 2 }],
      ['t', { n: 'bad' }],
      ['t', { n: 1 }],
    );
    const outcomes = await runner.run(prepared, ctx);
    expect(outcomes.map((o) => o.toolCallId)).toEqual(prepared.map((p) => p.call.id));
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(4);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(4);
    expectPaired(events);
  });

  it('measures durations on the runner clock', async () => {
    const clock = new FakeClock();
    const gate = deferred<string>();
    const { ctx, prepare } = setup([simpleTool('slow', () => gate.promise)]);
    const runner = new ToolRunner({ clock });
    const done = runner.run(await prepare(['slow', {}]), ctx);
    await clock.advance(250);
    gate.resolve('ok');
    expect((await done)[0]?.durationMs).toBe(250);
  });
});
