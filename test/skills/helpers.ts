/** Shared set-up of the skill tests: an event bus on a fake clock that records every event. */

import { EventBus } from '../../src/core/event-bus.js';
import type { EventType, TandemEvent } from '../../src/core/events.js';
import { testRuntime } from '../../src/testing/index.js';

export function recorder() {
  const runtime = testRuntime();
  const bus = new EventBus({ runId: 'run_1', clock: runtime.clock });
  const events: TandemEvent[] = [];
  bus.on('*', (e) => events.push(e));
  const ofType = <T extends EventType>(type: T) =>
    events.filter((e) => e.type === type) as unknown as TandemEvent<T>[];
  return { runtime, bus, events, ofType };
}
