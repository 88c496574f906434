import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LENGTH_ROLLBACK_NOTE } from '../../src/agents/index.js';
import { defineTool } from '../../src/index.js';
import { allText, ofType, runCollect, setup } from '../support/executor-fixtures.js';

function writer() {
  const written: string[] = [];
  const tool = defineTool({
    name: 'write_file',
    description: 'Writes a file',
    parameters: z.object({ path: z.string(), content: z.string() }),
    execute: ({ path }) => {
      written.push(path);
      return 'written';
    },
  });
  return { tool, written };
}

/** A reply cut by the output limit whose tool-call arguments still parse. */
const cutButParses = {
  text: 'Writing the report now.',
  toolCalls: [{ name: 'write_file', args: { path: 'report.md', content: '# Rep' } }],
  finishReason: 'length' as const,
};
/** A reply cut by the output limit in the middle of its arguments. */
const cutMidArguments = {
  toolCalls: [{ name: 'write_file', arguments: '{"path": "report.md", "content": "# Rep' }],
  finishReason: 'length' as const,
};

describe('a reply cut by the output length limit while calling tools', () => {
  it('never runs its tool calls, is not kept, and the next request asks for a shorter reply', async () => {
    const { tool, written } = writer();
    const { model, executor } = setup([cutButParses, { text: 'Here is a short report.' }], { tools: [tool] });
    const { result, events } = await runCollect(executor, 'Write a long report');
    expect(written).toEqual([]);
    expect(ofType(events, 'tool_call')).toEqual([]);
    expect(model.requests[1]!.messages).toEqual([
      { role: 'user', content: 'Write a long report' },
      { role: 'user', content: LENGTH_ROLLBACK_NOTE },
    ]);
    expect(ofType(events, 'retry')).toMatchObject([{ attempt: 1, error: { kind: 'length' } }]);
    expect(result).toMatchObject({ output: 'Here is a short report.', status: 'success', toolCalls: 0 });
    expect(allText(result!.messages)).not.toContain('Writing the report now.');
    expect(allText(result!.messages)).not.toContain(LENGTH_ROLLBACK_NOTE);
  });

  it('is rolled back, not silently re-asked as invalid JSON, when its arguments are cut', async () => {
    const { tool, written } = writer();
    const { model, executor } = setup(
      [
        cutMidArguments,
        { toolCalls: [{ name: 'write_file', args: { path: 'a.md', content: 'short' } }] },
        { text: 'done' },
      ],
      { tools: [tool] },
    );
    const { result } = await runCollect(executor, 'Write a long report');
    expect(allText(model.requests[1]!.messages)).toContain(LENGTH_ROLLBACK_NOTE);
    expect(written).toEqual(['a.md']);
    expect(result).toMatchObject({ output: 'done', status: 'success' });
  });

  it('ends partial with kind length after the continuation budget, having run nothing', async () => {
    const { tool, written } = writer();
    const { model, executor } = setup([cutButParses, cutMidArguments, cutButParses], { tools: [tool] });
    const { result, events } = await runCollect(executor, 'Write a long report');
    expect(written).toEqual([]);
    expect(model.calls).toBe(3);
    expect(result).toMatchObject({ status: 'partial', finishReason: 'length', toolCalls: 0 });
    expect(result!.error).toMatchObject({ kind: 'length' });
    expect(result!.error!.message).toContain('its tool calls were not run');
    expect(allText(model.requests[2]!.messages).split(LENGTH_ROLLBACK_NOTE)).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'partial' });
    model.assertConsumed();
  });

  it('honours maxLengthContinuations: 0', async () => {
    const { tool, written } = writer();
    const { model, executor } = setup([cutButParses], {
      tools: [tool],
      limits: { maxLengthContinuations: 0 },
    });
    const { result } = await runCollect(executor, 'q');
    expect(written).toEqual([]);
    expect(model.calls).toBe(1);
    expect(result).toMatchObject({ status: 'partial', error: { kind: 'length' } });
  });
});
