/**
 * Progress of MCP tool calls against real child-process servers (the fixture
 * and `server-everything` over stdio): reports reach the tool context and the
 * event stream, and keep a call alive past its idle timeout up to a total limit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventBus, type TandemEvent } from '../../src/core/index.js';
import { type McpConnection, type McpTool, type McpToolsOptions, mcpTool } from '../../src/mcp/index.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ToolRunner } from '../../src/tools/runner.js';
import { directContext, serverStats, spawnEverything, spawnFixture } from './support.js';

let fixture: McpConnection;
let everything: McpConnection;

beforeAll(async () => {
  [fixture, everything] = await Promise.all([spawnFixture(), spawnEverything()]);
});

afterAll(async () => {
  await Promise.all([fixture?.close(), everything?.close()]);
});

/** A server tool wrapped anew with these options. */
async function rewrap(connection: McpConnection, name: string, options: McpToolsOptions): Promise<McpTool> {
  const { tools } = await connection.client.listTools();
  return mcpTool(connection.client, tools.find((t) => t.name === name)!, options);
}

describe('mcp progress', () => {
  it('sends a progressToken and gives every notifications/progress to the tool context, in order', async () => {
    const { ctx, reports } = directContext();
    const tool = fixture.tools.find((t) => t.name === 'steps')!;
    expect(await tool.execute({ steps: 3, stepMs: 20 }, ctx)).toBe('done in 3 steps');
    const all = [1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` }));
    // The SDK drops a report that arrives in the same read as the result: the last one may be missing.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports).toEqual(all.slice(0, reports.length));
  });

  it('emits tool_progress events between the call and its result, tagged with the call', async () => {
    const bus = new EventBus({ runId: 'run_p', clock: new FakeClock() });
    const events: TandemEvent[] = [];
    bus.on('*', (event) => events.push(event));
    const turn = await prepareToolCalls(new ToolRegistry(fixture.tools), [
      { type: 'tool_call', id: 'call_p', name: 'steps', arguments: '{"steps":3,"stepMs":20}' },
    ]);
    const [outcome] = await new ToolRunner().run(turn.calls, {
      signal: new AbortController().signal,
      emit: bus,
      runId: 'run_p',
    });
    expect(outcome).toMatchObject({ isError: false, output: 'done in 3 steps' });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('tool_call');
    expect(types.at(-1)).toBe('tool_result');
    expect(types.slice(1, -1).every((type) => type === 'tool_progress')).toBe(true);
    expect(types.length).toBeGreaterThanOrEqual(4);
    expect(events[1]).toMatchObject({
      id: 'call_p',
      name: 'steps',
      parentId: 'call_p',
      progress: 1,
      total: 3,
    });
    expect(events[2]).toMatchObject({ progress: 2, message: 'step 2' });
  });

  it('keeps a call that reports progress alive past timeoutMs (server-everything, 600 ms at timeoutMs 300)', async () => {
    const tool = await rewrap(everything, 'trigger-long-running-operation', { timeoutMs: 300 });
    const { ctx, reports } = directContext();
    expect(await tool.execute({ duration: 0.6, steps: 6 }, ctx)).toContain(
      'Long running operation completed',
    );
    expect(reports.length).toBeGreaterThanOrEqual(5);
    expect(reports.map((r) => r.progress)).toEqual([1, 2, 3, 4, 5, 6].slice(0, reports.length));
    expect(reports[0]).toMatchObject({ total: 6 });
  });

  it('with resetTimeoutOnProgress: false, times the call out at timeoutMs despite progress', async () => {
    const tool = await rewrap(fixture, 'steps', { timeoutMs: 300, resetTimeoutOnProgress: false });
    const started = Date.now();
    const error = await tool.execute({ steps: 6, stepMs: 100 }, directContext().ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'McpToolError', kind: 'timeout', tool: 'steps' });
    expect(Date.now() - started).toBeLessThan(550);
  });

  it('ends a call that keeps reporting past maxTotalTimeoutMs, and cancels it on the server', async () => {
    const before = await serverStats(fixture.client);
    const tool = await rewrap(fixture, 'steps', { timeoutMs: 200, maxTotalTimeoutMs: 400 });
    const started = Date.now();
    const error = await tool.execute({ steps: 40, stepMs: 50 }, directContext().ctx).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ name: 'McpToolError', kind: 'timeout' });
    expect((error as Error).message).toContain('maxTotalTimeoutMs (400 ms)');
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(700);
    await vi.waitFor(async () => {
      expect((await serverStats(fixture.client)).cancelled).toBe(before.cancelled + 1);
    });
  });
});
