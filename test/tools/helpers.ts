import { z } from 'zod';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { ToolCallPart } from '../../src/core/messages.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { defineTool, type Tool, type ToolDefinition } from '../../src/tools/types.js';

/** An event bus on a fake clock that records every event. */
export function collectingBus(clock = new FakeClock()): {
  bus: EventBus;
  events: TandemEvent[];
  clock: FakeClock;
} {
  const bus = new EventBus({ runId: 'run_1', clock });
  const events: TandemEvent[] = [];
  bus.on('*', (event) => events.push(event));
  return { bus, events, clock };
}

/** A promise resolved or rejected by the test. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = unknown>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let nextId = 0;

/** A raw tool call as a model sends it. */
export function toolCall(
  name: string,
  args: string | Record<string, unknown> = {},
  id?: string,
): ToolCallPart {
  return {
    type: 'tool_call',
    id: id ?? `call_${++nextId}`,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
}

/** A tool with the given name and options, taking `{ path?: string, n?: number }`. */
export function simpleTool(
  name: string,
  execute: Tool['execute'],
  options: Partial<Omit<ToolDefinition<z.ZodType, unknown>, 'name' | 'execute'>> = {},
): Tool {
  return defineTool({
    name,
    description: `${name} tool`,
    parameters: z.object({ path: z.string().optional(), n: z.number().optional() }),
    execute,
    ...options,
  });
}
