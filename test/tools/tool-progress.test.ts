/** A tool's progress reports through `ctx.progress`: `tool_progress` events, never after the result. */
import { describe, expect, it } from 'vitest';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ToolRunner } from '../../src/tools/runner.js';
import type { ToolContext } from '../../src/tools/types.js';
import { collectingBus, simpleTool, toolCall } from './helpers.js';

describe('tool progress', () => {
  it('emits ctx.progress as tool_progress events of the call, and drops reports after its result', async () => {
    let kept: ToolContext | undefined;
    const tool = simpleTool('work', (_args, ctx) => {
      kept = ctx;
      ctx.progress?.({ progress: 1, total: 2, message: 'half' });
      return 'done';
    });
    const { bus, events } = collectingBus();
    const turn = await prepareToolCalls(new ToolRegistry([tool]), [toolCall('work', {}, 'call_w')]);
    await new ToolRunner().run(turn.calls, {
      signal: new AbortController().signal,
      emit: bus,
      runId: 'run_1',
    });
    kept!.progress!({ progress: 2, total: 2 });
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_progress', 'tool_result']);
    expect(events[1]).toMatchObject({
      id: 'call_w',
      name: 'work',
      parentId: 'call_w',
      progress: 1,
      total: 2,
      message: 'half',
    });
  });
});
