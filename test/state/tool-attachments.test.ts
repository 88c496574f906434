/** The progress store shows what images and files a tool returned (sizes and media types). */
import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { initialProgress, reduceProgress } from '../../src/state/index.js';

const base = { runId: 'r', at: 1 };

describe('progress store: tool attachments', () => {
  it("keeps a result's attachment summaries on the tool's activity", () => {
    const attachments = [
      { type: 'image' as const, mediaType: 'image/png', bytes: 4033, filename: 'shot.png' },
    ];
    const events: TandemEvent[] = [
      { ...base, seq: 1, type: 'tool_call', id: 't1', name: 'screenshot', args: {} },
      {
        ...base,
        seq: 2,
        type: 'tool_result',
        id: 't1',
        name: 'screenshot',
        output: 'Captured.',
        isError: false,
        durationMs: 5,
        attachments,
      },
    ];
    const state = events.reduce((s, e) => reduceProgress(s, e), initialProgress());
    expect(state.tools[0]).toMatchObject({ status: 'succeeded', output: 'Captured.', attachments });
  });
});
