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
import type {
  Emitter,
  EventPayloads,
  EventTags,
  EventType,
  EventListener as Listener,
  TandemEvent,
} from './events.js';
import { type HeldReasoning, type HeldRelease, HeldText } from './held-text.js';
import { IteratorQueue } from './iterator-queue.js';
import { costOf, type PriceLookup } from './pricing.js';
import type { Clock } from './seams.js';
import type { SpanRequest, TraceSpan } from './span.js';
import type { Tracing } from './tracing.js';
import { addUsage, emptyUsage, type Usage } from './usage.js';

/** Key of {@link QueuedEvents}' synchronous take. */
export const TAKE_QUEUED: unique symbol = Symbol('tandem.takeQueued');

/**
 * An iterator over a bus's events that also hands over, synchronously, the
 * next event already queued for it (`undefined` when none is): a consumer
 * that writes events in batches (SSE) takes a burst without a promise per event.
 */
export interface QueuedEvents extends AsyncIterator<TandemEvent> {
  [TAKE_QUEUED](): TandemEvent | undefined;
}

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
  // Made on first use (a listener, an iterator, a lagging consumer): a run nobody listens to pays for none.
  // eventemitter3 calls the listeners registered when an emit starts (one added meanwhile waits for
  // the next event) and removes a `once` listener before calling it: the semantics the bus documents.
  private emitter: EventEmitter | undefined;
  private queues: Set<IteratorQueue> | undefined;
  private readonly highWaterMark: number;
  private drainWaiters: Array<() => void> | undefined;
  private guarded: WeakMap<(event: any) => void, (event: any) => void> | undefined;
  private readonly onListenerError: (error: unknown, event: TandemEvent) => void;
  private readonly prices: PriceLookup | undefined;
  private readonly tracing: Tracing | undefined;
  private delivering = false;
  private held: HeldText | undefined;
  private deferred: Array<[EventType, EventPayloads[EventType], EventTags | undefined]> | undefined;

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
    this.onListenerError = options.onListenerError ?? reportListenerError;
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
    if (this.ended || this.held?.take(type, payload, tags)) return;
    if (this.delivering) {
      // Emitted by a listener: after the event being delivered reached everyone, so all see seq order.
      (this.deferred ??= []).push([type, payload, tags]);
      return;
    }
    this.delivering = true;
    try {
      this.deliver(type, payload, tags);
      const deferred = this.deferred;
      while (deferred && deferred.length > 0 && !this.ended) {
        const [t, p, g] = deferred.shift()!;
        this.deliver(t, p, g);
      }
    } finally {
      this.delivering = false;
      if (this.deferred) this.deferred.length = 0;
    }
  }

  private deliver(type: EventType, payload: EventPayloads[EventType], tags: EventTags | undefined): void {
    const emitter = this.emitter;
    const queues = this.queues;
    if (type === 'complete' || type === 'error') this.ended = true;
    if (!emitter && !queues) {
      // Nobody listens and no iterator reads: the event is not built, only its effects on the run kept
      // (its number, the usage total). A third of a zero-latency turn's event work (bench/).
      this.seq++;
      if (type === 'usage') this.priced(payload as EventPayloads['usage']);
      if (this.ended) this.finish();
      return;
    }
    // One literal, one copy of each source: the payload's fields win over the tags'.
    const event = (
      tags
        ? { type, runId: this.runId, seq: ++this.seq, at: this.clock.now(), ...tags, ...payload }
        : { type, runId: this.runId, seq: ++this.seq, at: this.clock.now(), ...payload }
    ) as TandemEvent;
    if (event.type === 'usage') {
      event.usage = this.priced(event);
      event.total = { ...this.usage };
    }
    if (queues) for (const queue of queues) queue.offer(event);
    if (emitter) {
      emitter.emit(type, event);
      emitter.emit('*', event);
    }
    if (this.ended) this.finish();
  }

  /** A call's usage with its cost, when the bus knows the model's price, added to the run's total. */
  private priced(call: EventPayloads['usage']): Usage {
    const price = call.usage.costUsd === undefined ? this.prices?.(call.model) : undefined;
    // A copy: the emitter's usage record may be its own running sum.
    const usage = price ? { ...call.usage, costUsd: costOf(call.usage, price) } : call.usage;
    addUsage(this.usage, usage);
    return usage;
  }

  scope(tags: EventTags): Emitter {
    return new ScopedEmitter(this, tags);
  }

  /**
   * Holds back, from now on, what streams of the answer: `token`,
   * `reasoning` and `partial_object` events are not delivered until
   * {@link EventBus.releaseTokens}. A run with output guardrails holds them,
   * so text the guardrails would redact or block never reaches a listener,
   * an event log or a page before they have checked it.
   */
  holdTokens(): void {
    this.held ??= new HeldText();
  }

  /** The reasoning held so far, joined per emitter, in order: for the guardrails to check before release. */
  heldReasoning(): readonly HeldReasoning[] {
    return this.held?.reasoning ?? [];
  }

  /**
   * Ends a {@link EventBus.holdTokens}: delivers the checked reasoning, then
   * the answer as the guardrails left it as one `token` event (and the
   * checked object as one `partial_object`), in place of the held deltas,
   * which are dropped. Does nothing when nothing is held.
   */
  releaseTokens(release: HeldRelease): void {
    if (!this.held) return;
    this.held = undefined;
    for (const { text, tags } of release.reasoning ?? [])
      if (text) this.dispatch('reasoning', { delta: text }, tags);
    if (release.object !== undefined)
      this.dispatch('partial_object', { object: release.object }, release.tags);
    if (release.text) this.dispatch('token', { delta: release.text }, release.tags);
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
    if (this.queues) for (const queue of this.queues) if (queue.size >= this.highWaterMark) lagging = true;
    if (!lagging) return undefined;
    return new Promise((resolve) => (this.drainWaiters ??= []).push(resolve));
  }

  /** Listens to one event type (or `'*'` for all). */
  on<T extends EventType>(type: T, listener: Listener<T>): this;
  on(type: '*', listener: (event: TandemEvent) => void): this;
  on(type: string, listener: (event: any) => void): this {
    (this.emitter ??= new EventEmitter()).on(type, this.guard(listener));
    return this;
  }

  /** Listens once. */
  once<T extends EventType>(type: T, listener: Listener<T>): this;
  once(type: '*', listener: (event: TandemEvent) => void): this;
  once(type: string, listener: (event: any) => void): this {
    (this.emitter ??= new EventEmitter()).once(type, this.guard(listener));
    return this;
  }

  /** Removes a listener. */
  off<T extends EventType>(type: T, listener: Listener<T>): this;
  off(type: '*', listener: (event: TandemEvent) => void): this;
  off(type: string, listener: (event: any) => void): this {
    const guarded = this.guarded?.get(listener);
    if (guarded) this.emitter?.off(type, guarded);
    return this;
  }

  /**
   * Wraps a listener so a throw is reported and the other listeners of the
   * same event still run. Wrapping at registration keeps `emit` free of
   * try/catch per call.
   */
  private guard(listener: (event: any) => void): (event: any) => void {
    this.guarded ??= new WeakMap();
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
  [Symbol.asyncIterator](): QueuedEvents {
    const queue = new IteratorQueue();
    if (this.ended) queue.done = true;
    else (this.queues ??= new Set()).add(queue);
    const release = () => {
      queue.done = true;
      queue.items = [];
      queue.head = 0;
      this.queues?.delete(queue);
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
      [TAKE_QUEUED]: () => {
        const item = queue.shift();
        if (item) this.checkDrain();
        return item;
      },
    };
  }

  private finish(): void {
    const queues = this.queues;
    if (queues) {
      for (const queue of queues) {
        queue.done = true;
        if (queue.waiting && queue.size === 0) {
          const resolve = queue.waiting;
          queue.waiting = undefined;
          queues.delete(queue);
          resolve({ value: undefined, done: true });
        }
      }
    }
    this.releaseDrainWaiters();
  }

  private checkDrain(): void {
    if (!this.drainWaiters?.length) return;
    const low = this.highWaterMark >> 1;
    if (this.queues) for (const queue of this.queues) if (queue.size > low) return;
    this.releaseDrainWaiters();
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = undefined;
    if (waiters) for (const resolve of waiters) resolve();
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
    // Object.assign, not `{ ...a, ...b }`: in V8 a spread followed by more keys takes a slow path.
    return new ScopedEmitter(this.bus, Object.assign({}, this.tags, tags));
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

function reportListenerError(error: unknown, event: TandemEvent): void {
  console.error(`tandem: listener for "${event.type}" threw`, error);
}
