import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/tools/types.js';
import { simpleTool, toolCall } from './helpers.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number().default(0) }),
  execute: ({ a, b }) => a + b,
});
const registry = new ToolRegistry([
  add,
  simpleTool('read_file', () => ''),
  simpleTool('list_files', () => ''),
]);

describe('prepareToolCalls', () => {
  it('marks valid calls ready with zod-parsed arguments', async () => {
    const turn = await prepareToolCalls(registry, [toolCall('add', { a: 1 })]);
    expect(turn).toMatchObject({ unknownTool: false, invalidJson: false });
    expect(turn.calls[0]).toMatchObject({ status: 'ready', tool: add, args: { a: 1, b: 0 } });
    expect(turn.calls[0]).not.toHaveProperty('requestedName');
  });

  it('keeps the requested name of a repaired call', async () => {
    const turn = await prepareToolCalls(registry, [toolCall('readFile', { path: 'a' })]);
    expect(turn.calls[0]).toMatchObject({ status: 'ready', requestedName: 'readFile' });
  });

  it('answers an unknown name with the available tools and skips every sibling', async () => {
    const calls = [
      toolCall('add', { a: 1 }),
      toolCall('delete_everything', {}),
      toolCall('read_file', '{bad'),
    ];
    const turn = await prepareToolCalls(registry, calls);
    expect(turn.unknownTool).toBe(true);
    expect(turn.calls.map((c) => c.status)).toEqual(['skipped', 'unknown_tool', 'skipped']);
    expect(turn.calls[1]).toMatchObject({
      message: "Tool 'delete_everything' does not exist. Available tools: add, list_files, read_file",
    });
    for (const i of [0, 2]) {
      expect(turn.calls[i]).toMatchObject({
        message: 'Skipped: another tool call in this turn used an invalid name. Please retry this tool call.',
      });
    }
  });

  it('answers invalid JSON with an error and skips the valid siblings', async () => {
    const calls = [toolCall('add', '{"a": 1'), toolCall('add', { a: 2 })];
    const turn = await prepareToolCalls(registry, calls);
    expect(turn).toMatchObject({ unknownTool: false, invalidJson: true });
    const [bad, good] = turn.calls;
    expect(bad?.status).toBe('invalid_json');
    if (bad?.status !== 'ready') {
      expect(bad?.message).toMatch(
        /^Error: Invalid JSON arguments\. .+\. For tools with no required parameters/,
      );
      expect(bad?.message).toMatch(/Please retry with valid JSON\.$/);
      expect(bad?.message).not.toMatch(/\.\./);
    }
    expect(good).toMatchObject({
      status: 'skipped',
      message: 'Skipped: other tool call in this response had invalid JSON.',
    });
  });

  it('runs calls whose JSON was repaired', async () => {
    const turn = await prepareToolCalls(registry, [toolCall('add', "```json\n{'a': 4,}\n```")]);
    expect(turn.calls[0]).toMatchObject({ status: 'ready', args: { a: 4, b: 0 } });
  });

  it('returns zod errors to the model and still runs the other calls', async () => {
    const turn = await prepareToolCalls(registry, [toolCall('add', { a: 'one' }), toolCall('add', { a: 1 })]);
    expect(turn).toMatchObject({ unknownTool: false, invalidJson: false });
    const [invalid, valid] = turn.calls;
    expect(invalid?.status).toBe('invalid_args');
    if (invalid?.status !== 'ready') {
      expect(invalid?.message).toMatch(
        /^Invalid arguments for tool 'add': a: .*expected number, received string/i,
      );
    }
    expect(valid?.status).toBe('ready');
  });

  it('names every issue path in a zod error', async () => {
    const turn = await prepareToolCalls(registry, [toolCall('add', {})]);
    const [call] = turn.calls;
    expect(call?.status).toBe('invalid_args');
    if (call?.status !== 'ready') expect(call?.message).toContain('a: ');
  });

  it('skips a same-turn duplicate, naming the call it duplicated', async () => {
    const first = toolCall('read_file', { path: 'a.ts' }, 'call_a');
    const duplicate = toolCall('read_file', { path: 'a.ts' }, 'call_b');
    const other = toolCall('read_file', { path: 'b.ts' }, 'call_c');
    const turn = await prepareToolCalls(registry, [first, duplicate, other]);
    expect(turn.calls.map((c) => c.status)).toEqual(['ready', 'skipped', 'ready']);
    expect(turn.calls[1]).toMatchObject({ message: expect.stringContaining('call_a') });
    expect(turn.calls.map((c) => c.call.id)).toEqual(['call_a', 'call_b', 'call_c']);
  });
});
