import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  classifyToolError,
  defineTool,
  TOOL_RECOVERY_HINTS,
  type ToolErrorCategory,
} from '../../src/index.js';
import { add, allText, callAdd, lastToolResult, runCollect, setup } from '../support/executor-fixtures.js';

const flaky = defineTool({
  name: 'fetch_page',
  description: 'Fetches a page',
  parameters: z.object({ url: z.string() }),
  execute: () => {
    throw new Error('connect ETIMEDOUT 10.0.0.1:443');
  },
});
const fetchPage = (url: string) => ({ toolCalls: [{ name: 'fetch_page', args: { url } }] });
const deny = () => ({ allow: false as const, result: 'Permission denied: writes are disabled here.' });

describe('tool error categories', () => {
  it('classifies failing results as transient, input, permission, resource, fatal or unknown', () => {
    const cases: [string, ToolErrorCategory][] = [
      ["Tool 'fetch' timed out after 30000 ms", 'transient'],
      ['Error: 429 Too Many Requests', 'transient'],
      ['Error: read ECONNRESET', 'transient'],
      [
        "Invalid arguments for tool 'add': a: expected number. Please retry with corrected arguments.",
        'input',
      ],
      ["Tool 'mul' does not exist. Available tools: add", 'input'],
      ['Error: Invalid JSON arguments. Unexpected end of JSON input.', 'input'],
      ['User denied execution of refund. The tool was not executed.', 'permission'],
      ['Tool blocked: rm -rf / matches a dangerous command', 'permission'],
      ["Error: EACCES: permission denied, open '/etc/shadow'", 'permission'],
      ["Error: ENOENT: no such file or directory, open 'a.txt'", 'resource'],
      ['Error: quota exceeded for this project', 'resource'],
      ['Error: Segmentation fault (core dumped)', 'fatal'],
      ['Error: not implemented', 'fatal'],
      ['Error: disk on fire', 'unknown'],
    ];
    for (const [text, category] of cases) expect([text, classifyToolError(text)]).toEqual([text, category]);
  });

  it('sends the recovery hint of the failure category in the next request only, and none after a clean turn', async () => {
    const { model, executor } = setup([
      { toolCalls: [{ name: 'add', args: { a: 'one', b: 2 } }] },
      callAdd(1, 2),
      { text: 'done' },
    ]);
    const { result } = await runCollect(executor, 'q');
    const afterFailure = lastToolResult(model.requests[1]!);
    expect(afterFailure).toContain("Invalid arguments for tool 'add'");
    expect(afterFailure).toContain(`\n\n[Tool error: input] ${TOOL_RECOVERY_HINTS.input}`);
    expect(lastToolResult(model.requests[2]!)).toBe('3');
    expect(allText(result!.messages)).not.toContain('[Tool error');
  });

  it('gives each failing turn the hint of its own category', async () => {
    const { model, executor } = setup(
      [
        fetchPage('https://a.example'),
        { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
        { text: 'ok' },
      ],
      { tools: [add, flaky], safety: { gate: (call) => (call.tool.name === 'add' ? deny() : undefined) } },
    );
    await runCollect(executor, 'q');
    expect(lastToolResult(model.requests[1]!)).toContain(
      `[Tool error: transient] ${TOOL_RECOVERY_HINTS.transient}`,
    );
    expect(lastToolResult(model.requests[2]!)).toContain(
      `[Tool error: permission] ${TOOL_RECOVERY_HINTS.permission}`,
    );
  });

  it('names the category of the last failure in the critical note after three failing turns', async () => {
    const { model, executor } = setup(
      [callAdd(1, 1), callAdd(2, 2), callAdd(3, 3), { text: 'I may not write here.' }],
      { safety: { gate: deny } },
    );
    await runCollect(executor, 'q');
    expect(lastToolResult(model.requests[2]!)).not.toContain('CRITICAL');
    const critical = lastToolResult(model.requests[3]!);
    expect(critical).toContain(
      'CRITICAL: You have failed 3 consecutive tool calls (last error: permission).',
    );
    expect(critical).toContain(TOOL_RECOVERY_HINTS.permission);
    expect(critical).not.toContain('[Tool error:');
  });

  it('tells a call skipped for another call’s invalid JSON why it was not run, not that its arguments were rejected', async () => {
    const brokenFirst = {
      toolCalls: [
        { name: 'add', arguments: '{"a": 1, "b":', id: 'bad' },
        { name: 'add', args: { a: 2, b: 2 }, id: 'fine' },
      ],
    };
    const { model, executor } = setup([brokenFirst, brokenFirst, brokenFirst, { text: 'ok' }]);
    await runCollect(executor, 'q');
    const skipped = lastToolResult(model.requests[3]!);
    expect(skipped).toContain('Skipped: other tool call in this response had invalid JSON.');
    expect(skipped).toContain(
      '[Tool error: skipped] Not run because call bad (add) in the same turn had invalid JSON arguments;',
    );
    expect(skipped).not.toContain(TOOL_RECOVERY_HINTS.input);
    expect(classifyToolError('Skipped: other tool call in this response had invalid JSON.')).toBe('skipped');
  });

  it('gives the invalid call’s own hint when it ends the turn, even after a skipped call', async () => {
    const brokenLast = {
      toolCalls: [
        { name: 'add', args: { a: 2, b: 2 }, id: 'fine' },
        { name: 'add', arguments: '{"a": 1, "b":', id: 'bad' },
      ],
    };
    const { model, executor } = setup([brokenLast, brokenLast, brokenLast, { text: 'ok' }]);
    await runCollect(executor, 'q');
    expect(lastToolResult(model.requests[3]!)).toContain(`[Tool error: input] ${TOOL_RECOVERY_HINTS.input}`);
  });

  it('does not count a turn whose only failure is a skipped duplicate as a failing turn', async () => {
    const addOneTwo = { name: 'add', args: { a: 1, b: 2 } };
    const twice = { toolCalls: [addOneTwo, addOneTwo] };
    const { model, executor } = setup([twice, { text: 'ok' }]);
    await runCollect(executor, 'q');
    const last = lastToolResult(model.requests[1]!);
    expect(last).toContain('Skipped: duplicate of tool call');
    expect(last).not.toContain('[Tool error');
  });
});
