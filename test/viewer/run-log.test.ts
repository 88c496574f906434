/** The viewer's per-run replay buffer: order, bound, and readers that leave. */
import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { FakeClock, flush } from '../../src/testing/index.js';
import { eventsResponse } from '../../src/viewer/server/events-route.js';
import { RunLog } from '../../src/viewer/server/run-log.js';
import { eventsOf, readFrames } from './support.js';

function event(seq: number, type: 'token' | 'stage' | 'complete' = 'stage'): TandemEvent {
  const base = { runId: 'r', seq, at: seq };
  if (type === 'token') return { ...base, type, delta: 'x' };
  if (type === 'complete')
    return {
      ...base,
      type,
      output: '',
      status: 'success',
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    };
  return { ...base, type, name: `s${seq}`, status: 'running' };
}

async function take(iterator: AsyncIterator<TandemEvent>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await iterator.next()).value.seq);
  return out;
}

describe('RunLog', () => {
  it('ignores a repeated or older seq', () => {
    const log = new RunLog(10);
    for (const seq of [1, 2, 2, 1, 3]) log.push(event(seq));
    expect(log.all().map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('hands readers the events after their seq as they arrive, and ends them after the terminal event', async () => {
    const log = new RunLog(10);
    log.push(event(1));
    const reader = log.after(0);
    expect(await take(reader, 1)).toEqual([1]);
    const next = reader.next();
    expect(log.readers).toBe(1);
    log.push(event(2));
    expect((await next).value.seq).toBe(2);
    log.push(event(3, 'complete'));
    log.push(event(4));
    expect(await take(reader, 1)).toEqual([3]);
    expect(await reader.next()).toEqual({ value: undefined, done: true });
    expect(log.ended).toBe(true);
  });

  it('releases a waiting reader at once when it is returned (the client went away)', async () => {
    const log = new RunLog(10);
    const reader = log.after(0);
    const pending = reader.next();
    expect(log.readers).toBe(1);
    await reader.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(log.readers).toBe(0);
  });

  it('past its bound drops the older half’s token deltas first, keeping plan and tool events', () => {
    const log = new RunLog(8);
    for (let seq = 1; seq <= 9; seq++) log.push(event(seq, seq % 3 === 1 ? 'stage' : 'token'));
    expect(log.all().map((e) => e.seq)).toEqual([1, 4, 5, 6, 7, 8, 9]);
    expect(log.dropped).toBe(2);
  });

  it('drops the oldest events when too few deltas are there to free a quarter', () => {
    const log = new RunLog(8);
    for (let seq = 1; seq <= 9; seq++) log.push(event(seq));
    expect(log.all().map((e) => e.seq)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(log.dropped).toBe(3);
  });

  it('lets a reader behind a compaction continue with the events still held', async () => {
    const log = new RunLog(4);
    const reader = log.after(1);
    for (let seq = 1; seq <= 7; seq++) log.push(event(seq));
    expect(await take(reader, 3)).toEqual([5, 6, 7]);
  });

  it('ends a client’s SSE stream and frees its reader when the request is aborted', async () => {
    const log = new RunLog(10);
    log.push(event(1));
    const controller = new AbortController();
    const request = new Request('http://x/events', { signal: controller.signal });
    const response = eventsResponse(request, log, {
      clock: new FakeClock(),
      retryMs: 0,
      heartbeatMs: 0,
    });
    const reading = readFrames(response);
    await flush();
    expect(log.readers).toBe(1);
    controller.abort();
    expect(eventsOf(await reading).map((e) => e.seq)).toEqual([1]);
    expect(log.readers).toBe(0);
  });
});
