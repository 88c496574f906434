/**
 * Shared set-up of the executor tests: a scripted model, a fake-clock
 * runtime, an `add` tool, and a way to run and collect every event.
 */
import { z } from 'zod';
import {
  type ExecuteOptions,
  Executor,
  type ExecutorOptions,
  type ExecutorResult,
} from '../../src/agents/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';
import type { ModelRequest } from '../../src/model/types.js';
import {
  type FakeClock,
  type ScriptEntry,
  ScriptedModel,
  type ScriptStep,
  testRuntime,
} from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

export const SYSTEM = 'You are a careful calculator. Use the add tool.';

export const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
  parallelSafe: true,
});

/** An executor over a scripted model with the `add` tool and a fake clock. */
export function setup(
  script: ScriptEntry[],
  options: Partial<ExecutorOptions> = {},
): { model: ScriptedModel; executor: Executor; clock: FakeClock } {
  const runtime = testRuntime();
  const model = (options.model as ScriptedModel | undefined) ?? new ScriptedModel(script);
  const executor = new Executor({ model, tools: [add], instructions: SYSTEM, runtime, ...options });
  return { model, executor, clock: runtime.clock };
}

/** What {@link runCollect} returns. */
export interface Collected {
  events: TandemEvent[];
  result?: ExecutorResult;
  error?: any;
}

/**
 * Runs `input` to the end and collects every event, the result, and the
 * error: the result's when it is not a success, or what the run rejected
 * with (misuse only).
 */
export async function runCollect(
  executor: Executor,
  input: string | Message[],
  options?: Omit<ExecuteOptions, 'emit'>,
  during?: (run: ReturnType<Executor['run']>) => unknown,
): Promise<Collected> {
  const run = executor.run(input, options);
  const events: TandemEvent[] = [];
  run.on('*', (event) => events.push(event));
  await during?.(run);
  try {
    const result = await run.result;
    return result.status === 'success' ? { events, result } : { events, result, error: result.error };
  } catch (error) {
    return { events, error };
  }
}

/** Events of one type. */
export function ofType<T extends TandemEvent['type']>(events: TandemEvent[], type: T): TandemEvent<T>[] {
  return events.filter((e) => e.type === type) as unknown as TandemEvent<T>[];
}

/** Content of the last tool result in a request ('' when the request does not end with tool results). */
export function lastToolResult(request: ModelRequest): string {
  const last = request.messages[request.messages.length - 1];
  if (last?.role !== 'tool') return '';
  return last.content[last.content.length - 1]?.content ?? '';
}

/** Every text a message list carries (user text, assistant text, tool results), joined. */
export function allText(messages: readonly Message[]): string {
  return messages
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : m.content
            .map((p) =>
              'text' in p ? p.text : 'content' in p ? p.content : 'arguments' in p ? p.arguments : '',
            )
            .join('\n'),
    )
    .join('\n');
}

/** A promise with its resolve function exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A tool call step for `add`. */
export function callAdd(a: number, b: number): ScriptStep {
  return { toolCalls: [{ name: 'add', args: { a, b } }] };
}
