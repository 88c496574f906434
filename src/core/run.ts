/**
 * `Run`: the handle of one running agent. It is consumed three ways — async
 * iteration, typed listeners, or the `result` promise — and ends with
 * exactly one `complete` or `error` event.
 * @module
 */
import { onAbort } from './abort-listeners.js';
import { AbortError, errorMessage, isAbortError, RunError, TandemError } from './errors.js';
import type { EventBus } from './event-bus.js';
import type { EventPayloads, EventType, EventListener as Listener, TandemEvent } from './events.js';
import type { Usage } from './usage.js';

/** What a {@link Run} executes and how its result becomes the `complete` event. */
export interface RunInit<T> {
  /** The run's bus; its `runId` is the run's id. */
  bus: EventBus;
  /** The caller's signal; aborting it aborts the run. */
  signal?: AbortSignal;
  /**
   * The work. It gets the run's signal (possibly aborted already), and
   * `abort` to abort it itself (so it needs no controller of its own); it
   * resolves with the result of every ending, failures included, and
   * rejects only for misuse. It must not emit `complete` or `error`.
   */
  body: (signal: AbortSignal, abort: (reason?: unknown) => void) => Promise<T>;
  /**
   * The payload of the `complete` event for a result. Called once, before the
   * event and before `result` resolves, so it may also finish the result.
   */
  complete: (result: T) => EventPayloads['complete'];
  /** Told when the body rejects (misuse), before the `error` event. */
  failed?: (error: unknown) => void;
  /** Told right after the run's signal aborted, however it was aborted (the body's, the caller's, `abort()`). */
  aborted?: () => void;
  /** Usage so far, reported in the `error` event. */
  usage?: () => Usage | undefined;
}

const noop = () => {};

/**
 * A running agent.
 *
 * The work starts in a microtask, so listeners attached and iterators
 * started synchronously after the call that created the run see every
 * event, `run_started` included:
 *
 * ```ts
 * const run = executor.run('What is 2 + 3?');
 * run.on('token', (e) => process.stdout.write(e.delta));
 * for await (const event of run) console.log(event.type); // all events, ends after complete/error
 * const result = await run.result;
 * ```
 *
 * An iterator started after the run ended yields nothing; `result` always
 * settles. It resolves with the result however the run ended — `success`,
 * `partial`, `interrupted` or `failed`, with a typed `error` when not
 * `success` (docs/results.md) — and the run ends with `complete`. It rejects
 * only for misuse or configuration (a `ConfigError`, found once the run
 * started), after an `error` event; leaving it unobserved is safe (no
 * unhandled rejection).
 */
export class Run<T> implements AsyncIterable<TandemEvent> {
  /** The run's id, stamped on every event. */
  readonly runId: string;
  /** The outcome: resolves after `complete`; rejects after `error` (misuse only). */
  readonly result: Promise<T>;
  private readonly bus: EventBus;
  private readonly controller = new AbortController();
  private readonly init: RunInit<T>;
  private readonly unlink: () => void;
  // Set by the executor of `result`, which runs at once.
  private resolve!: (result: T) => void;
  private reject!: (error: TandemError) => void;

  constructor(init: RunInit<T>) {
    this.bus = init.bus;
    this.runId = init.bus.runId;
    this.init = init;
    this.unlink = linkAbort(init.signal, this.abortWith);
    // Settled by the body's own handlers, not chained to the body's promise: a waiting run holds one layer
    // of promises for its handle instead of three (bench: memory per waiting run).
    this.result = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      // A promise job, not queueMicrotask: Node wraps each of those in an AsyncResource.
      Promise.resolve().then(() => this.execute(init));
    });
  }
  /** True once the run emitted `complete` or `error`. */
  get isEnded(): boolean {
    return this.bus.isEnded;
  }

  /** What the body aborts the run with (its own reason, or none). */
  private readonly abortWith = (reason?: unknown): void => {
    if (this.controller.signal.aborted) return;
    this.controller.abort(reason);
    this.init.aborted?.();
  };

  /** Aborts the run: the model call and every tool see the signal; the result is `failed` with an `AbortError`. */
  abort(reason?: unknown): void {
    this.abortWith(reason ?? new AbortError('run aborted by the caller'));
  }

  /** Listens to one event type (or `'*'` for all). Listeners run synchronously; one that throws does not stop the run. */
  on<K extends EventType>(type: K, listener: Listener<K>): this;
  on(type: '*', listener: (event: TandemEvent) => void): this;
  on(type: any, listener: any): this {
    this.bus.on(type, listener);
    return this;
  }

  /** Listens to the next event of one type (or `'*'`). */
  once<K extends EventType>(type: K, listener: Listener<K>): this;
  once(type: '*', listener: (event: TandemEvent) => void): this;
  once(type: any, listener: any): this {
    this.bus.once(type, listener);
    return this;
  }

  /** Removes a listener. */
  off<K extends EventType>(type: K, listener: Listener<K>): this;
  off(type: '*', listener: (event: TandemEvent) => void): this;
  off(type: any, listener: any): this {
    this.bus.off(type, listener);
    return this;
  }

  /** Every event from now until the terminal one (see the bus's backpressure policy). */
  [Symbol.asyncIterator](): AsyncIterator<TandemEvent> {
    return this.bus[Symbol.asyncIterator]();
  }

  // Promise handlers rather than an async function: a waiting run holds no suspended frame for it.
  private execute(init: RunInit<T>): void {
    const signal = this.controller.signal;
    let body: Promise<T>;
    try {
      body = init.body(signal, this.abortWith);
    } catch (error) {
      body = Promise.reject(error);
    }
    body.then(
      (result) => {
        try {
          const payload = init.complete(result);
          if (!this.bus.isEnded) this.bus.emit('complete', payload);
        } catch (error) {
          return this.fail(init, error, signal);
        }
        this.unlink();
        this.resolve(result);
      },
      (error: unknown) => this.fail(init, error, signal),
    );
  }

  /** Ends the run with the typed error of a failed body, announced by an `error` event. */
  private fail(init: RunInit<T>, error: unknown, signal: AbortSignal): void {
    init.failed?.(error);
    const typed = toTandemError(error, signal);
    if (!this.bus.isEnded) {
      const payload: EventPayloads['error'] = { error: { kind: typed.kind, message: typed.message } };
      const usage = init.usage?.();
      if (usage) payload.usage = { ...usage };
      this.bus.emit('error', payload);
    }
    this.unlink();
    // Handled here, so a caller who never looks at `result` gets no unhandled rejection.
    this.result.catch(noop);
    this.reject(typed);
  }
}

/** The `complete` event of a run's result: its output, status, usage and typed error. */
export function completePayload(
  result: Omit<EventPayloads['complete'], 'error'> & { error?: TandemError },
): EventPayloads['complete'] {
  const payload: EventPayloads['complete'] = {
    output: result.output,
    status: result.status,
    usage: result.usage,
  };
  if (result.error) payload.error = { kind: result.error.kind, message: result.error.message };
  return payload;
}

/** Any thrown value as a {@link TandemError}: aborts become {@link AbortError}, the rest `internal`. */
export function toTandemError(error: unknown, signal?: AbortSignal): TandemError {
  if (error instanceof TandemError) return error;
  if (signal?.aborted) return abortErrorOf(signal);
  if (isAbortError(error)) return new AbortError(error);
  return new RunError('internal', errorMessage(error), { cause: error });
}

/** The {@link AbortError} for an aborted signal: its reason when that already is one. */
export function abortErrorOf(signal: AbortSignal): AbortError {
  return signal.reason instanceof AbortError ? signal.reason : new AbortError(signal.reason);
}

/**
 * Calls `abort` with `parent`'s reason when `parent` aborts (at once if it
 * already has). Returns the function that removes the link.
 */
export function linkAbort(parent: AbortSignal | undefined, abort: (reason: unknown) => void): () => void {
  if (!parent) return noop;
  if (parent.aborted) {
    abort(parent.reason);
    return noop;
  }
  return onAbort(parent, () => abort(parent.reason));
}
