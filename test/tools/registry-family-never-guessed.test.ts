/**
 * A `ToolFamily` (tools whose name ends in the part that matters, such as a
 * handoff's target) is never fuzzy-matched: a misspelt member name goes to the
 * family's own `resolve`, never to another member spelt alike.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool, type ToolFamily, ToolRegistry } from '../../src/index.js';

const tool = (name: string): Tool =>
  defineTool({ name, description: name, parameters: z.object({}), execute: () => name });

function registry(resolve?: ToolFamily['resolve']): ToolRegistry {
  return new ToolRegistry([tool('read_file')]).registerFamily({
    prefix: 'handoff_to_',
    tools: [tool('handoff_to_data')],
    resolve,
  });
}

describe('ToolRegistry families', () => {
  it('offers the members and finds them by exact, case-insensitive and normalised name', () => {
    const tools = registry();
    expect(tools.names()).toEqual(['handoff_to_data', 'read_file']);
    expect(tools.resolve('handoff_to_data')).toEqual({
      tool: expect.objectContaining({ name: 'handoff_to_data' }),
    });
    expect(tools.resolve('Handoff-To-Data')).toMatchObject({
      tool: { name: 'handoff_to_data' },
      requestedName: 'Handoff-To-Data',
    });
  });

  it('hands a family name no member has to the family’s resolve, under the name it returns', () => {
    const asked: string[] = [];
    const tools = registry((normalized) => {
      asked.push(normalized);
      return tool(normalized);
    });
    expect(tools.resolve('handoff_to_dta')).toEqual({
      tool: expect.objectContaining({ name: 'handoff_to_dta' }),
    });
    expect(tools.resolve('Handoff_To_Writing')).toMatchObject({
      tool: { name: 'handoff_to_writing' },
      requestedName: 'Handoff_To_Writing',
    });
    expect(asked).toEqual(['handoff_to_dta', 'handoff_to_writing']);
  });

  it('leaves such a name unknown without a resolve, and never guesses a member for a name outside the prefix', () => {
    const tools = registry();
    expect(tools.resolve('handoff_to_dta')).toBeUndefined();
    expect(tools.resolve('handoff_data')).toBeUndefined();
  });

  it('still repairs misspelt names of tools outside every family', () => {
    expect(registry().resolve('read_fle')).toMatchObject({
      tool: { name: 'read_file' },
      requestedName: 'read_fle',
    });
  });
});
