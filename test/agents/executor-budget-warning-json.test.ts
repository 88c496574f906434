import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';
import { lastToolResult, runCollect, setup } from '../support/executor-fixtures.js';

/** A tool returning `output(n)` for its argument `n`. */
function tool(output: (n: number) => unknown) {
  return defineTool({
    name: 'lookup',
    description: 'Looks something up',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => output(n),
  });
}
const lookup = (n: number) => ({ toolCalls: [{ name: 'lookup', args: { n } }] });
const BUDGET_AT_3_OF_4 =
  '[BUDGET: 1 iterations left. Prioritize remaining work and avoid unnecessary tool calls.]';

/** Runs three lookups on a budget of four iterations; returns what the fourth request's last tool result read. */
async function fourthResult(output: (n: number) => unknown, args = [1, 2, 3]): Promise<string> {
  const { model, executor } = setup([...args.map(lookup), { text: 'done' }], {
    tools: [tool(output)],
    limits: { maxIterations: 4 },
  });
  await runCollect(executor, 'q');
  return lastToolResult(model.requests[3]!);
}

describe('budget warnings on JSON results', () => {
  it('add a _budget_warning field to a tool result that is a JSON object, which stays JSON', async () => {
    const seen = await fourthResult((n) => ({ id: n, name: 'x' }));
    expect(JSON.parse(seen)).toEqual({
      id: 3,
      name: 'x',
      _budget_warning: BUDGET_AT_3_OF_4,
    });
  });

  it("keep the tool's own text: formatting and numbers JSON.parse would round are untouched", async () => {
    const seen = await fourthResult((n) => `{\n  "id": ${n},\n  "amount": 12345678901234567890\n}`);
    expect(seen).toBe(
      `{\n  "id": 3,\n  "amount": 12345678901234567890\n,"_budget_warning":${JSON.stringify(BUDGET_AT_3_OF_4)}}`,
    );
  });

  it('add the field to an empty object without a stray comma', async () => {
    const seen = await fourthResult(() => ({}));
    expect(seen).toBe(`{"_budget_warning":${JSON.stringify(BUDGET_AT_3_OF_4)}}`);
  });

  it('go after a blank line in any other result: text, arrays, scalars, broken JSON', async () => {
    const cases: [unknown, string][] = [
      ['plain text', 'plain text'],
      [[1, 2], '[1,2]'],
      [42, '42'],
      ['{"cut": ', '{"cut": '],
    ];
    for (const [value, text] of cases) {
      expect(await fourthResult(() => value)).toBe(`${text}\n\n${BUDGET_AT_3_OF_4}`);
    }
  });

  it('put the other notes of the turn into a _note field of a JSON object result', async () => {
    const seen = await fourthResult((n) => ({ id: n }), [7, 7, 7]);
    const parsed = JSON.parse(seen);
    expect(parsed.id).toBe(7);
    expect(parsed._note).toContain('[Repetition detected]');
    expect(parsed._budget_warning).toBe(BUDGET_AT_3_OF_4);
  });
});
