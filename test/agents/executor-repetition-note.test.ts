import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey } from '../../src/agents/index.js';
import { defineTool } from '../../src/index.js';
import { lastToolResult, runCollect, setup } from '../support/executor-fixtures.js';

/** A queue: each `pop` returns the next item, so identical calls get different results. */
function queue() {
  let next = 0;
  return defineTool({
    name: 'pop',
    description: 'Takes the next item of a queue',
    parameters: z.object({ queue: z.string() }),
    execute: () => `item ${++next}`,
  });
}
const constant = defineTool({
  name: 'pop',
  description: 'Always the same',
  parameters: z.object({ queue: z.string() }),
  execute: () => 'empty',
});
const pop = { toolCalls: [{ name: 'pop', args: { queue: 'jobs' } }] };

async function notes(tool: typeof constant, calls: number): Promise<string[]> {
  const { model, executor } = setup([...Array.from({ length: calls }, () => pop), { text: 'done' }], {
    tools: [tool],
  });
  await runCollect(executor, 'q');
  return model.requests.slice(1).map((r) => lastToolResult(r));
}

describe('the repetition note', () => {
  it('does not claim the same result when the repeated calls got different results, and says what was repeated', async () => {
    const [, second] = await notes(queue(), 2);
    expect(second).toContain('[Repetition detected]');
    expect(second).toContain('You called pop with the same arguments ({"queue":"jobs"}) twice in a row.');
    expect(second).not.toContain('same result');
  });

  it('says the result was the same when it was', async () => {
    const [, second, third] = await notes(constant, 3);
    expect(second).toContain('twice in a row and got the same result.');
    expect(third).toContain('3 times in a row, getting the same result each time.');
  });

  it('names the call in the strong note without claiming equal results that differed', async () => {
    const [, , third] = await notes(queue(), 3);
    expect(third).toContain('You called pop with the same arguments ({"queue":"jobs"}) 3 times in a row.');
    expect(third).toContain('MUST change strategy');
    expect(third).not.toContain('same result');
  });

  it('leaves lists untouched: a path list written differently is not a repetition', async () => {
    const read = defineTool({
      name: 'read',
      description: 'Reads files',
      parameters: z.object({ paths: z.array(z.string()) }),
      execute: ({ paths }) => `read ${paths.length}`,
    });
    const readPaths = (paths: string[]) => ({ toolCalls: [{ name: 'read', args: { paths } }] });
    const { model, executor } = setup([readPaths(['/a//b']), readPaths(['/a/b']), { text: 'done' }], {
      tools: [read],
    });
    await runCollect(executor, 'q');
    expect(lastToolResult(model.requests[2]!)).not.toContain('[Repetition detected]');
    expect(callKey('read', { paths: [' /a//b/ '], opts: [{ b: 1, a: 2 }] })).toBe(
      callKey('read', { opts: [{ a: 2, b: 1 }], paths: [' /a//b/ '] }),
    );
    expect(callKey('read', { paths: [' x '] })).not.toBe(callKey('read', { paths: ['x'] }));
  });
});
