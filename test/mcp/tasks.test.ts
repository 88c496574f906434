/**
 * Task-based MCP tools (`execution.taskSupport: 'required'`) against real
 * child-process servers over stdio: the fixture's `research` task and
 * `server-everything`'s `simulate-research-query`. Before, the SDK client
 * rejected every call with -32600.
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AbortError } from '../../src/core/errors.js';
import { type McpClient, type McpConnection, McpToolError, mcpTool } from '../../src/mcp/index.js';
import { FakeClock } from '../../src/testing/index.js';
import { directContext, serverStats, spawnEverything, spawnFixture } from './support.js';

let fixture: McpConnection;
let everything: McpConnection;

beforeAll(async () => {
  [fixture, everything] = await Promise.all([spawnFixture(), spawnEverything()]);
});

afterAll(async () => {
  await Promise.all([fixture?.close(), everything?.close()]);
});

const research = () => fixture.tools.find((t) => t.name === 'research')!;

describe('mcp task-based tools', () => {
  it('lists a task-required tool as task-based', () => {
    expect(research().taskBased).toBe(true);
    expect(fixture.tools.find((t) => t.name === 'add')!.taskBased).toBe(false);
    expect(everything.tools.find((t) => t.mcpName === 'simulate-research-query')!.taskBased).toBe(true);
  });

  it('creates the task, polls it and resolves with its result, reporting each status change', async () => {
    const { ctx, reports } = directContext();
    const output = await research().execute({ topic: 'tides', stages: 3, stageMs: 30 }, ctx);
    expect(output).toBe('report on tides');
    const messages = reports.map((r) => r.message);
    expect(messages[0]).toMatch(/^working/);
    expect(messages).toContain('working: stage 3 of 3');
    expect(messages).toEqual([...new Set(messages)]);
  });

  it('rejects with tool_error carrying the status message when the task fails', async () => {
    const error = await research()
      .execute({ topic: 'nothing', stages: 1, stageMs: 10, fail: true }, directContext().ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolError);
    expect(error).toMatchObject({ kind: 'tool_error', message: 'no sources on nothing' });
  });

  it('on abort, rejects with AbortError and cancels the task on the server', async () => {
    const before = await serverStats(fixture.client);
    const controller = new AbortController();
    const { ctx, reports } = directContext(controller.signal);
    const call = research().execute({ topic: 'slow', stages: 100, stageMs: 50 }, ctx);
    await vi.waitFor(() => expect(reports.length).toBeGreaterThan(0));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
    await vi.waitFor(async () => {
      expect((await serverStats(fixture.client)).tasksCancelled).toBe(before.tasksCancelled + 1);
    });
  });

  it('ends a task that runs past maxTotalTimeoutMs with a timeout, and cancels it on the server', async () => {
    const before = await serverStats(fixture.client);
    const { tools } = await fixture.client.listTools();
    const tool = mcpTool(fixture.client, tools.find((t) => t.name === 'research')!, {
      timeoutMs: 100,
      maxTotalTimeoutMs: 200,
    });
    const started = Date.now();
    const error = await tool
      .execute({ topic: 'endless', stages: 100, stageMs: 50 }, directContext().ctx)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'McpToolError', kind: 'timeout' });
    expect((error as Error).message).toContain('maxTotalTimeoutMs (200 ms)');
    expect(Date.now() - started).toBeLessThan(500);
    await vi.waitFor(async () => {
      expect((await serverStats(fixture.client)).tasksCancelled).toBe(before.tasksCancelled + 1);
    });
  });

  it('polls a task twenty times on one abort listener, without MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    // Sees what the SDK is given: the call's signal, and how many listeners it holds at each poll.
    let callSignal: AbortSignal | undefined;
    const listenersAtPoll: number[] = [];
    const client: McpClient = {
      listTools: (...args) => fixture.client.listTools(...args),
      callTool: (...args) => fixture.client.callTool(...args),
      request: ((request: { method: string }, schema: never, options?: { signal?: AbortSignal }) => {
        if (request.method === 'tools/call') callSignal = options?.signal;
        if (request.method === 'tasks/get')
          listenersAtPoll.push(getEventListeners(callSignal!, 'abort').length);
        return fixture.client.request(request as never, schema, options);
      }) as McpClient['request'],
    };
    try {
      const clock = new FakeClock();
      const { tools } = await fixture.client.listTools();
      const tool = mcpTool(client, tools.find((t) => t.name === 'research')!, { clock });
      const controller = new AbortController();
      const call = tool.execute(
        { topic: 'polls', stages: 1000, stageMs: 50 },
        directContext(controller.signal).ctx,
      );
      // Two timers while the task sleeps between polls: the total limit's and the poll's.
      for (let poll = 1; poll <= 20; poll++) {
        await vi.waitFor(() => expect(clock.pending).toBe(2));
        await clock.advance(clock.nextTimerIn()!);
        await vi.waitFor(() => expect(listenersAtPoll).toHaveLength(poll));
      }
      controller.abort();
      await expect(call).rejects.toBeInstanceOf(AbortError);
      await new Promise((resolve) => setImmediate(resolve));
      expect(Math.max(...listenersAtPoll)).toBeLessThanOrEqual(2);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("cancels server-everything's research task on abort, which the server then lists as cancelled", async () => {
    const tool = everything.tools.find((t) => t.mcpName === 'simulate-research-query')!;
    const controller = new AbortController();
    const { ctx, reports } = directContext(controller.signal);
    const call = tool.execute({ topic: 'tides' }, ctx);
    await vi.waitFor(() => expect(reports.length).toBeGreaterThan(0));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
    await vi.waitFor(async () => {
      const { tasks } = await everything.client.experimental.tasks.listTasks();
      expect(tasks.map((t) => t.status)).toEqual(['cancelled']);
    });
  });
});
