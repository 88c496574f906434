/**
 * The MCP adapter against a real MCP server process (fixtures/server.ts,
 * built with the SDK's McpServer) spawned over stdio by `connectMcp`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AbortError } from '../../src/core/errors.js';
import type { TandemEvent } from '../../src/core/events.js';
import { Executor } from '../../src/index.js';
import type { McpConnection, McpTool } from '../../src/mcp/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { PIXEL_PNG } from './fixtures/tools.js';
import { serverLogged, serverStats, spawnFixture } from './support.js';

let connection: McpConnection;

beforeAll(async () => {
  connection = await spawnFixture();
});

afterAll(async () => {
  await connection?.close();
});

function tool(name: string): McpTool {
  const found = connection.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

function ofType<T extends TandemEvent['type']>(events: TandemEvent[], type: T) {
  return events.filter((e): e is Extract<TandemEvent, { type: T }> => e.type === type);
}

async function runAgent(
  script: ConstructorParameters<typeof ScriptedModel>[0],
  onEvent?: (e: TandemEvent, abort: () => void) => void,
) {
  const model = new ScriptedModel(script);
  const executor = new Executor({ model, tools: connection.tools, limits: { maxIterations: 5 } });
  const run = executor.run('go');
  const events: TandemEvent[] = [];
  run.on('*', (event) => {
    events.push(event);
    onEvent?.(event, () => run.abort());
  });
  // A run that did not succeed resolves with its typed error (docs/results.md).
  const outcome = await run.result.then(
    (result) => ({ result, error: result.status === 'success' ? undefined : result.error }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { model, events, ...outcome };
}

describe('mcp over stdio', () => {
  it('lists the server tools with their schemas, descriptions and risk from annotations', () => {
    const names = connection.tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'add',
      'ask',
      'fail',
      'research',
      'shout',
      'slow',
      'snapshot',
      'stats',
      'steps',
      'wipe',
    ]);
    const add = tool('add');
    expect(add.description).toBe('Add two numbers');
    expect(add.jsonSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(add.risk).toBe('safe');
    expect(add.parallelSafe).toBe(true);
    expect(tool('wipe').risk).toBe('risky');
    expect(tool('wipe').parallelSafe).toBe(false);
    expect(tool('fail').risk).toBe('moderate');
  });

  it('passes the server inputSchema through to providers unchanged', async () => {
    const listed = await connection.client.listTools();
    const served = listed.tools.find((t) => t.name === 'add')!.inputSchema;
    expect(tool('add').jsonSchema).toEqual(served);
  });

  it('rejects invalid arguments before anything is sent to the server', async () => {
    const spy = vi.spyOn(connection.client, 'callTool');
    const turn = await prepareToolCalls(new ToolRegistry(connection.tools), [
      { type: 'tool_call', id: 'c1', name: 'add', arguments: '{"a":"two","b":3}' },
      { type: 'tool_call', id: 'c2', name: 'add', arguments: '{"a":2}' },
    ]);
    expect(turn.calls.map((c) => c.status)).toEqual(['invalid_args', 'invalid_args']);
    expect(turn.calls[0]).toMatchObject({
      message: expect.stringContaining("Invalid arguments for tool 'add': a:"),
    });
    expect(turn.calls[1]).toMatchObject({ message: expect.stringContaining('b:') });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('runs an Executor whose model calls `add` through MCP and answers with the result', async () => {
    const { model, result, events } = await runAgent([
      { toolCalls: [{ name: 'add', id: 'call_1', args: { a: 2, b: 3 } }] },
      { text: 'The sum is 5.' },
    ]);
    expect(result?.output).toBe('The sum is 5.');
    expect(ofType(events, 'tool_result')[0]).toMatchObject({
      id: 'call_1',
      name: 'add',
      output: '5',
      isError: false,
    });
    const spec = model.requests[0]!.tools!.find((t) => t.name === 'add')!;
    expect(spec.parameters).toBe(tool('add').jsonSchema);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'call_1', content: '5' }],
    });
  });

  it('turns an isError result into an error result the model sees', async () => {
    const { model, events } = await runAgent([
      { toolCalls: [{ name: 'fail', id: 'call_f', args: {} }] },
      { text: 'It failed.' },
    ]);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true, output: 'Error: disk on fire' });
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      content: [
        { type: 'tool_result', isError: true, content: expect.stringMatching(/^Error: disk on fire\n\n/) },
      ],
    });
  });

  it('returns the text the server sent, keeps structuredContent as the object, and attaches images', async () => {
    const ctx = { signal: new AbortController().signal } as Parameters<McpTool['execute']>[1];
    expect(JSON.parse((await tool('shout').execute({ text: 'hi' }, ctx)) as string)).toEqual({
      upper: 'HI',
      length: 2,
    });
    expect((await tool('shout').call({ text: 'hi' }, ctx)).object).toEqual({ upper: 'HI', length: 2 });
    expect(await tool('snapshot').execute({}, ctx)).toEqual({
      content: 'Here is the screen:\n[resource: file:///notes.txt]\nremember',
      attachments: [{ type: 'image', mediaType: 'image/png', data: PIXEL_PNG }],
    });
  });

  it('aborting the run mid-call cancels the call on the server', async () => {
    const before = await serverStats(connection.client);
    const started = serverLogged(connection.client, 'slow started');
    const { error, events } = await runAgent(
      [{ toolCalls: [{ name: 'slow', id: 'call_s', args: {} }] }],
      (event, abort) => {
        if (event.type === 'tool_call') void started.then(abort);
      },
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ id: 'call_s', isError: true });
    // The cancellation went out before this request on the same pipe, so the server has seen it.
    expect((await serverStats(connection.client)).cancelled).toBe(before.cancelled + 1);
  });

  it('rejects a direct call with AbortError when its signal aborts', async () => {
    const before = await serverStats(connection.client);
    const started = serverLogged(connection.client, 'slow started');
    const controller = new AbortController();
    const call = tool('slow').execute({}, { signal: controller.signal } as Parameters<McpTool['execute']>[1]);
    await started;
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect((await serverStats(connection.client)).cancelled).toBe(before.cancelled + 1);
  });

  it('applies the prefix and filters when connecting', async () => {
    const other = await spawnFixture({
      prefix: 'calc_',
      include: ['add', 'wipe'],
      exclude: (name) => name === 'wipe',
    });
    try {
      expect(other.tools.map((t) => [t.name, t.mcpName])).toEqual([['calc_add', 'add']]);
      const ctx = { signal: new AbortController().signal } as Parameters<McpTool['execute']>[1];
      expect(await other.tools[0]!.execute({ a: 1, b: 1 }, ctx)).toBe('2');
    } finally {
      await other.close();
    }
  });

  it('close() ends the server process', async () => {
    const other = await spawnFixture();
    const pid = other.pid!;
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await other.close();
    await other.close();
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
