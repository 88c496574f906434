/** Helpers of the viewer tests: an event bus to track, and an SSE reader. */
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { FakeClock } from '../../src/testing/index.js';

/** A run's event bus on a fake clock: what `viewer.track` follows. */
export function busOf(runId = 'run_1', clock = new FakeClock(1_000)): EventBus {
  return new EventBus({
    runId,
    clock,
    onListenerError: (error) => {
      throw error;
    },
  });
}

/** One parsed SSE frame. */
export interface Frame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

/** Reads SSE frames from `response` until `stop` says so or the stream ends; cancels the stream when stopping early. */
export async function readFrames(
  response: Response,
  stop: (frames: Frame[]) => boolean = () => false,
): Promise<Frame[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  for (;;) {
    if (stop(frames)) {
      await reader.cancel();
      return frames;
    }
    const { done, value } = await reader.read();
    if (done) return frames;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (block.startsWith(':')) continue;
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        const i = line.indexOf(': ');
        (frame as Record<string, string>)[line.slice(0, i)] = line.slice(i + 2);
      }
      frames.push(frame);
    }
  }
}

/** The events of the event frames. */
export function eventsOf(frames: Frame[]): TandemEvent[] {
  return frames.filter((f) => f.data !== undefined).map((f) => JSON.parse(f.data!) as TandemEvent);
}
