/** The progress store keeps a running tool call's latest `tool_progress` report. */
import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { initialProgress, reduceProgress } from '../../src/state/index.js';

const base = { runId: 'r', at: 1 };

describe('progress store: tool progress', () => {
  it("shows a call's latest report on its activity, and ignores reports of unknown calls", () => {
    const events: TandemEvent[] = [
      { ...base, seq: 1, type: 'tool_call', id: 't1', name: 'research', args: {} },
      { ...base, seq: 2, type: 'tool_progress', id: 't1', name: 'research', progress: 1, total: 4 },
      { ...base, seq: 3, type: 'tool_progress', id: 't1', name: 'research', progress: 2, message: 'reading' },
      { ...base, seq: 4, type: 'tool_progress', id: 'nope', name: 'x', progress: 9 },
    ];
    const state = events.reduce((s, e) => reduceProgress(s, e), initialProgress());
    expect(state.tools).toHaveLength(1);
    expect(state.tools[0]).toMatchObject({
      id: 't1',
      status: 'running',
      progress: { progress: 2, message: 'reading' },
    });
    expect(state.tools[0]!.progress).not.toHaveProperty('total');
  });
});
