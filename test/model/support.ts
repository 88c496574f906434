/**
 * Test doubles for the resilience tests: the shipped fake clock, a chat model
 * whose scripted streams can pace, stall and break mid-way on that clock, and
 * an event recorder.
 */
import { setImmediate as tick } from 'node:timers/promises';
import { ModelError, type ModelErrorKind, type ModelErrorOptions } from '../../src/core/errors.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { EventType, TandemEvent } from '../../src/core/events.js';
import { type Clock, type Random, sleep } from '../../src/core/seams.js';
import { emptyUsage } from '../../src/core/usage.js';
import type {
  CallOptions,
  ChatModel,
  ModelInfo,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../src/model/types.js';

export { FakeClock, seededRandom } from '../../src/testing/fake-clock.js';

/** Lets pending promise chains run (a macrotask turn, not a sleep). */
export async function settle(): Promise<void> {
  await tick();
  await tick();
}

/** A random source returning `values` in turn, then repeating the last. */
export function sequenceRandom(...values: number[]): Random {
  let i = 0;
  return { next: () => values[Math.min(i++, values.length - 1)] ?? 0 };
}

/** A `ModelError` of `kind`. */
export function fail(kind: ModelErrorKind, options: ModelErrorOptions = {}): ModelError {
  return new ModelError(kind, `${kind} failure`, options);
}

/** One scripted call. */
export type Step =
  /** A reply; a string is a text reply. */
  | { reply: ModelResponse | string }
  /** Throws at once. */
  | { error: unknown }
  /** Streams `parts` (each after `waitMs` on the clock), then throws `error`, or stalls until aborted (`stall`), or ends. */
  | { parts: ModelStreamPart[]; error?: unknown; stall?: boolean; waitMs?: number };

/** A text reply. */
export function textReply(text: string): ModelResponse {
  return {
    message: { role: 'assistant', content: text ? [{ type: 'text', text }] : [] },
    finishReason: 'stop',
    usage: emptyUsage(),
  };
}

/** A recorded call of a {@link ScriptedModel}. */
export interface Call {
  method: 'generate' | 'stream';
  request: ModelRequest;
  at: number;
}

/**
 * A chat model playing `script`, one step per call (stream or generate);
 * records each call and the clock time it started. A stall waits for the
 * call's signal and throws a platform `AbortError`, as `fetch` does.
 */
export class ScriptedModel implements ChatModel {
  readonly calls: Call[] = [];
  readonly info?: ModelInfo;
  readonly stream?: (request: ModelRequest, options?: CallOptions) => AsyncIterable<ModelStreamPart>;
  /** Releases a stalled stream (it then ends normally). */
  release: () => void = () => {};

  constructor(
    readonly id: string,
    private readonly script: Step[],
    private readonly clock: Clock,
    options: { streams?: boolean; info?: ModelInfo } = {},
  ) {
    if (options.info) this.info = options.info;
    if (options.streams !== false)
      this.stream = (request, callOptions) => this.streamStep(request, callOptions);
  }

  count(method: Call['method']): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const step = this.next('generate', request);
    if ('error' in step && !('parts' in step)) throw step.error;
    if ('reply' in step) return typeof step.reply === 'string' ? textReply(step.reply) : step.reply;
    throw new Error('generate cannot play a parts step');
  }

  private async *streamStep(request: ModelRequest, options?: CallOptions): AsyncGenerator<ModelStreamPart> {
    const step = this.next('stream', request);
    if ('reply' in step) {
      const reply = typeof step.reply === 'string' ? textReply(step.reply) : step.reply;
      for (const part of reply.message.content) {
        if (part.type === 'text') yield { type: 'text-delta', delta: part.text };
        else if (part.type === 'reasoning') yield { type: 'reasoning-delta', delta: part.text };
        else yield { type: 'tool-call', id: part.id, name: part.name, arguments: part.arguments };
      }
      yield { type: 'finish', finishReason: reply.finishReason, usage: reply.usage };
      return;
    }
    if (!('parts' in step)) throw step.error;
    for (const part of step.parts) {
      if (step.waitMs) await sleep(this.clock, step.waitMs, options?.signal);
      if (options?.signal?.aborted) throw abortError();
      yield part;
    }
    if (step.stall) await this.stall(options?.signal);
    if (step.error) throw step.error;
    yield { type: 'finish', finishReason: 'stop', usage: emptyUsage() };
  }

  private stall(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const abort = () => reject(abortError());
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      this.release = resolve;
    });
  }

  private next(method: Call['method'], request: ModelRequest): Step {
    this.calls.push({ method, request, at: this.clock.now() });
    const step = this.script.shift();
    if (!step) throw new Error(`${this.id}: script exhausted (${method} call ${this.calls.length})`);
    return step;
  }
}

/** What `fetch` throws on abort. */
function abortError(): DOMException {
  return new DOMException('This operation was aborted', 'AbortError');
}

/** An event bus on `clock` recording every event. */
export function recordEvents(clock: Clock): {
  bus: EventBus;
  events: TandemEvent[];
  types: () => EventType[];
} {
  const bus = new EventBus({ runId: 'run_test', clock });
  const events: TandemEvent[] = [];
  bus.on('*', (event) => events.push(event));
  return { bus, events, types: () => events.map((event) => event.type) };
}

/** The events of `type`. */
export function eventsOf<T extends EventType>(events: TandemEvent[], type: T): Array<TandemEvent<T>> {
  return events.filter((event) => event.type === type) as unknown as Array<TandemEvent<T>>;
}
