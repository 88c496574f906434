/**
 * The per-run event bus: `seq` numbering, the run's usage total, typed
 * listeners on eventemitter3, and async-iterator consumption with backpressure.
 *
 * Slow consumers. Each async iterator has its own queue. Nothing is dropped:
 * when a queue holds `highWaterMark` events (default 1024), producers that
 * await {@link EventBus.backpressure} — the executor does at every model-stream
 * part, tool result and turn — pause until it drains to half. Memory is thus
 * bounded by the high-water mark plus what one step emits between two such
 * points. An iterator that is abandoned without `break`/`return()` keeps its
 * queue; it is released when the run ends. Listeners (`on`) are synchronous
 * and never slow the run beyond their own cost; a throwing listener is
 * reported to `onListenerError` and the run goes on.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import type { Emitter, EventPayloads, EventTags, EventType, TandemEvent } from './events.js';
import { costOf, type PriceLookup } from './pricing.js';
import type { Clock } from './seams.js';
import type { SpanRequest, TraceSpan } from './span.js';
import type { Tracing } from './tracing.js';
import { addUsage, emptyUsage, type Usage } from './usage.js';

/** Options of an {@link EventBus}. */
export interface EventBusOptions {
  runId: string;
  clock: Clock;
  /** Queue length per async iterator at which producers pause. Default 1024. */
  highWaterMark?: number;
  /** Called with errors thrown by listeners. Default: `console.error`. */
  onListenerError?: (error: unknown, event: TandemEvent) => void;
  /**
   * The run's usage so far (a resumed run's saved total). Every `usage` event
   * adds its `usage` into it in place. Default: zero.
   */
  usage?: Usage;
  /**
   * Prices of the run's models (see {@link priceLookup}). With them every
   * `usage` event whose model is priced carries `usage.costUsd`, and so do
   * its `total` and the run's {@link EventBus.usage}. Default: none — no cost.
   */
  prices?: PriceLookup;
  /** Spans around model calls and tool executions; also sees every event. Default: none. */
  tracing?: Tracing;
}

type Listener<T extends EventType> = (event: TandemEvent<T>) => void;

class IteratorQueue {
  items: TandemEvent[] = [];
  head = 0;
  waiting: ((r: IteratorResult<TandemEvent>) => void) | undefined;
  done = false;
  get size(): number {
    return this.items.length - this.head;
  }
  shift(): TandemEvent | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as never;
    if (this.head > 512 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Emits a run's events to listeners and async iterators. */
export class EventBus implements Emitter, AsyncIterable<TandemEvent> {
  readonly runId: string;
  /**
   * The run's running total: the sum of every `usage` event's `usage`. The
   * bus stamps it as each `usage` event's `total`, so the total is the whole
   * run's whichever component (executor, planner, verifier…) emitted the call.
   */
  readonly usage: Usage;
  private seq = 0;
  private ended = false;
  private readonly clock: Clock;
  private readonly emitter = new EventEmitter();
  private readonly queues = new Set<IteratorQueue>();
  private readonly highWaterMark: number;
  private drainWaiters: Array<() => void> = [];
  private readonly guarded = new WeakMap<(event: any) => void, (event: any) => void>();
  private readonly onListenerError: (error: unknown, event: TandemEvent) => void;
  private readonly prices: PriceLookup | undefined;
  private readonly tracing: Tracing | undefined;
  private delivering = false;
  private readonly deferred: Array<[EventType, EventPayloads[EventType], EventTags | undefined]> = [];

  constructor(options: EventBusOptions) {
    this.runId = options.runId;
    this.usage = options.usage ?? emptyUsage();
    this.clock = options.clock;
    this.prices = options.prices;
    this.tracing = options.tracing;
    // Before any user listener, so spans open before a listener reacts to the event.
    if (this.tracing?.onEvent) this.on('*', (event) => this.tracing!.onEvent!(event));
    if (this.tracing) this.span = (request, fn) => this.spanTagged(request, fn, {});
    this.highWaterMark = Math.max(2, options.highWaterMark ?? 1024);
    this.onListenerError =
      options.onListenerError ??
      ((error, event) => console.error(`tandem: listener for "${event.type}" threw`, error));
  }

  /** True once `complete` or `error` was emitted. */
  get isEnded(): boolean {
    return this.ended;
  }

  emit<T extends EventType>(type: T, payload: EventPayloads[T]): void {
    this.dispatch(type, payload, undefined);
  }

  /** Emits with tags; used by scoped emitters. */
  dispatch<T extends EventType>(type: T, payload: EventPayloads[T], tags: EventTags | undefined): void {
    if (this.ended) return;
    if (this.delivering) {
      // Emitted by a listener: after the event being delivered reached everyone, so all see seq order.
      this.deferred.push([type, payload, tags]);
      return;
    }
    this.delivering = true;
    try {
      this.deliver(type, payload, tags);
      while (this.deferred.length > 0 && !this.ended) {
        const [t, p, g] = this.deferred.shift()!;
        this.deliver(t, p, g);
      }
    } finally {
      this.delivering = false;
      this.deferred.length = 0;
    }
  }

  private deliver(type: EventType, payload: EventPayloads[EventType], tags: EventTags | undefined): void {
    const event = { type, runId: this.runId, seq: ++this.seq, at: this.clock.now() } as TandemEvent;
    if (tags) Object.assign(event, tags);
    Object.assign(event, payload);
    if (event.type === 'usage') {
      const price = event.usage.costUsd === undefined ? this.prices?.(event.model) : undefined;
      // A copy: the emitter's usage record may be its own running sum.
      if (price) event.usage = { ...event.usage, costUsd: costOf(event.usage, price) };
      event.total = { ...addUsage(this.usage, event.usage) };
    }
    if (type === 'complete' || type === 'error') this.ended = true;
    for (const queue of this.queues) {
      if (queue.waiting) {
        const resolve = queue.waiting;
        queue.waiting = undefined;
        resolve({ value: event, done: false });
      } else {
        queue.items.push(event);
      }
    }
    this.emitter.emit(type, event);
    this.emitter.emit('*', event);
    if (this.ended) this.finish();
  }

  scope(tags: EventTags): Emitter {
    return new ScopedEmitter(this, tags);
  }

  /**
   * Runs `fn` inside a span of the bus's tracing. Set only when the bus has
   * tracing, so callers skip building span requests when it has none.
   */
  readonly span?: <T>(request: SpanRequest, fn: (span: TraceSpan) => Promise<T>) => Promise<T>;

  /** {@link EventBus.span} with the tags of a scoped emitter. */
  spanTagged<T>(request: SpanRequest, fn: (span: TraceSpan) => Promise<T>, tags: EventTags): Promise<T> {
    if (!this.tracing) return fn(NO_SPAN);
    return this.tracing.inSpan({ runId: this.runId, tags }, request, fn);
  }

  backpressure(): Promise<void> | undefined {
    let lagging = false;
    for (const queue of this.queues) if (queue.size >= this.highWaterMark) lagging = true;
    if (!lagging) return undefined;
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Listens to one event type (or `'*'` for all). */
  on<T extends EventType>(type: T, listener: Listener<T>): this;
  on(type: '*', listener: (event: TandemEvent) => void): this;
  on(type: string, listener: (event: any) => void): this {
    this.emitter.on(type, this.guard(listener));
    return this;
  }

  /** Listens once. */
  once<T extends EventType>(type: T, listener: Listener<T>): this;
  once(type: '*', listener: (event: TandemEvent) => void): this;
  once(type: string, listener: (event: any) => void): this {
    this.emitter.once(type, this.guard(listener));
    return this;
  }

  /** Removes a listener. */
  off<T extends EventType>(type: T, listener: Listener<T>): this;
  off(type: '*', listener: (event: TandemEvent) => void): this;
  off(type: string, listener: (event: any) => void): this {
    const guarded = this.guarded.get(listener);
    if (guarded) this.emitter.off(type, guarded);
    return this;
  }

  /**
   * Wraps a listener so a throw is reported and the other listeners of the
   * same event still run. Wrapping at registration keeps `emit` free of
   * try/catch per call.
   */
  private guard(listener: (event: any) => void): (event: any) => void {
    let guarded = this.guarded.get(listener);
    if (!guarded) {
      guarded = (event: TandemEvent) => {
        try {
          listener(event);
        } catch (error) {
          this.onListenerError(error, event);
        }
      };
      this.guarded.set(listener, guarded);
    }
    return guarded;
  }

  /** Events from now until the run ends. */
  [Symbol.asyncIterator](): AsyncIterator<TandemEvent> {
    const queue = new IteratorQueue();
    if (this.ended) queue.done = true;
    else this.queues.add(queue);
    const release = () => {
      queue.done = true;
      queue.items = [];
      queue.head = 0;
      this.queues.delete(queue);
      this.checkDrain();
    };
    return {
      next: () => {
        const item = queue.shift();
        if (item) {
          this.checkDrain();
          return Promise.resolve({ value: item, done: false });
        }
        if (queue.done) {
          release();
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve) => {
          queue.waiting = resolve;
        });
      },
      return: () => {
        release();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private finish(): void {
    for (const queue of this.queues) {
      queue.done = true;
      if (queue.waiting && queue.size === 0) {
        const resolve = queue.waiting;
        queue.waiting = undefined;
        this.queues.delete(queue);
        resolve({ value: undefined, done: true });
      }
    }
    this.releaseDrainWaiters();
  }

  private checkDrain(): void {
    if (this.drainWaiters.length === 0) return;
    const low = this.highWaterMark >> 1;
    for (const queue of this.queues) if (queue.size > low) return;
    this.releaseDrainWaiters();
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

class ScopedEmitter implements Emitter {
  constructor(
    private readonly bus: EventBus,
    private readonly tags: EventTags,
  ) {}
  get runId(): string {
    return this.bus.runId;
  }
  emit<T extends EventType>(type: T, payload: EventPayloads[T]): void {
    this.bus.dispatch(type, payload, this.tags);
  }
  scope(tags: EventTags): Emitter {
    return new ScopedEmitter(this.bus, { ...this.tags, ...tags });
  }
  backpressure(): Promise<void> | undefined {
    return this.bus.backpressure();
  }
  get span(): Emitter['span'] {
    return this.bus.span && ((request, fn) => this.bus.spanTagged(request, fn, this.tags));
  }
}

const NO_SPAN: TraceSpan = {
  setAttributes() {},
  addEvent() {},
  output() {},
};
