/**
 * The stale watch of a model attempt: silence past a timeout (longer for large
 * prompts, as the seed bumps it) aborts the attempt with a retryable
 * `timeout` {@link ModelError}, so a stalling provider reaches the next retry
 * or the next model in the chain.
 * @module
 */
import { abortReason } from '../../core/abort-reason.js';
import { ModelError } from '../../core/errors.js';
import type { Clock } from '../../core/seams.js';
import type { Watchdog, Watched } from '../../core/watchdog.js';
import type { CallOptions, ModelRequest } from '../types.js';

/** A longer stale timeout for prompts above `minTokens` estimated tokens. */
export interface LargePromptTimeout {
  minTokens: number;
  timeoutMs: number;
}

/** Rough prompt size (characters / 4), as the seed estimates it; only computed once a stream is already slow. */
export function estimatePromptTokens(request: ModelRequest): number {
  let chars = 0;
  const system = request.system;
  if (typeof system === 'string') chars += system.length;
  else if (system) for (const part of system) chars += part.text.length;
  for (const message of request.messages) {
    if (typeof message.content === 'string') {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'tool_call') chars += part.name.length + part.arguments.length;
      else if (part.type === 'tool_result') chars += part.content.length;
      // Images and files are not text: their size says little about how long a reply takes to start.
      else if (part.type === 'text' || part.type === 'reasoning') chars += part.text.length;
    }
  }
  return Math.ceil(chars / 4);
}

/** How a model attempt is watched. */
export interface AttemptWatch {
  clock: Clock;
  /** 0: no deadline (the call still settles on abort). */
  timeoutMs: number;
  modelId: string;
  largePromptTimeouts: readonly LargePromptTimeout[];
  /** The run's watchdog, on the caller's signal: its timer and abort listener serve every attempt. */
  watchdog: Watchdog;
}

/**
 * Fails an attempt when no chunk arrived for the timeout (a whole `generate`
 * call has no chunks, so for it the timeout is a deadline), and settles it
 * when the caller's signal aborts, whatever the adapter does. The run's
 * watchdog looks at it when the timeout may have passed (chunks just stamp
 * `last`), so the per-chunk cost is one clock read and the per-attempt cost
 * no timer of its own. The large-prompt timeout is computed at the first
 * expiry only: most streams never get there.
 */
export class StaleWatch implements Watched {
  /** Made on the adapter's first read of `callOptions.signal`, see there. */
  private controller: AbortController | undefined;
  /** Time of the last chunk (or of the end of a backpressure pause). */
  last: number;
  /** Set when the watch failed the attempt for silence. */
  error: ModelError | undefined;
  /**
   * The adapter's call options. Its signal, a controller of the attempt's own
   * linked to the caller's, is made when the adapter first reads it: a model
   * that never does (in-process models, test fakes) costs no controller, which
   * is most of what a turn with a zero-latency model spends on resilience.
   */
  readonly callOptions: CallOptions;
  private limit: number;
  private extended = false;
  private paused = false;
  /** The promise given to `settle`, and how to reject what `settle` returned: fields, not a closure per call. */
  private pending: Promise<unknown> | undefined;
  private reject: ((error: Error) => void) | undefined;
  // The attempt's fields, not the object: the caller's is gone once the call is under way (bench: memory per waiting run).
  private readonly clock: Clock;
  private readonly watchdog: Watchdog;
  private readonly modelId: string;
  private readonly largePromptTimeouts: readonly LargePromptTimeout[];

  constructor(
    attempt: AttemptWatch,
    private readonly request: ModelRequest,
    private readonly what: 'stream' | 'call',
  ) {
    this.clock = attempt.clock;
    this.watchdog = attempt.watchdog;
    this.modelId = attempt.modelId;
    this.largePromptTimeouts = attempt.largePromptTimeouts;
    this.last = attempt.clock.now();
    this.limit = attempt.timeoutMs;
    this.callOptions = new AttemptCallOptions(this);
    if (!this.outer?.aborted) attempt.watchdog.watch(this, this.last + this.limit);
  }

  /** The caller's signal (the watchdog's). */
  private get outer(): AbortSignal | undefined {
    return this.watchdog.signal;
  }

  /** Whether the attempt is over for the watch: it fired, or the caller aborted. */
  get done(): boolean {
    return this.error !== undefined || this.outer?.aborted === true;
  }

  /**
   * `promise`, or a rejection with the watch's timeout error, or with the
   * caller's abort reason, whichever comes first; the loser's late rejection
   * is swallowed. Stops the watch when it settles. Call once per watch.
   */
  settle<T>(promise: Promise<T>): Promise<T> {
    if (this.done) {
      this.stop();
      promise.catch(ignore);
      return Promise.reject(this.error ?? abortReason(this.outer as AbortSignal));
    }
    return new Promise<T>((resolve, reject) => {
      this.pending = promise;
      this.reject = reject;
      promise.then(
        (value) => {
          this.stop();
          resolve(value);
        },
        (error: unknown) => {
          this.stop();
          reject(this.error ?? error);
        },
      );
    });
  }

  /** Waits out a backpressure pause without counting it as silence. */
  async hold(pause: Promise<void>): Promise<void> {
    this.paused = true;
    try {
      await pause;
    } finally {
      this.paused = false;
      this.last = this.clock.now();
    }
  }

  stop(): void {
    this.watchdog.unwatch(this);
    this.reject = undefined;
    this.pending = undefined;
  }

  /** Rejects the promise given to `settle` with `error`, the promise itself left to the adapter. */
  private fail(error: Error): void {
    const { reject, pending } = this;
    if (!reject) return;
    this.stop();
    pending?.catch(ignore);
    reject(error);
  }

  /** The attempt's own signal, made on first read (see `callOptions`). */
  signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.error) this.controller.abort(this.error);
      else if (this.outer?.aborted) this.controller.abort(this.outer.reason);
    }
    return this.controller.signal;
  }

  /** The caller aborted: the attempt settles with its reason, whatever the adapter does. */
  abort(): void {
    const outer = this.outer as AbortSignal;
    this.controller?.abort(outer.reason);
    this.fail(abortReason(outer));
  }

  /** The watchdog's look: when to look again, or `undefined` once the attempt failed for silence. */
  check(now: number): number | undefined {
    const idle = now - this.last;
    if (this.paused) return now + this.limit;
    if (idle < this.limit) return this.last + this.limit;
    if (!this.extended) {
      this.extended = true;
      const tokens = estimatePromptTokens(this.request);
      const bump = this.largePromptTimeouts.find((entry) => tokens > entry.minTokens);
      if (bump && bump.timeoutMs > this.limit) {
        this.limit = bump.timeoutMs;
        return this.last + this.limit;
      }
    }
    const seconds = Math.round(idle / 1000);
    const message =
      this.what === 'stream' ? `stream stalled (no chunk for ${seconds} s)` : `no reply within ${seconds} s`;
    const model = this.modelId;
    this.error = new ModelError('timeout', `${model}: ${message}`, {
      model,
      retryable: true,
    });
    this.controller?.abort(this.error);
    this.fail(this.error);
    return undefined;
  }
}

/**
 * The call options an adapter gets: `signal` is read through to the watch.
 * A class rather than an object literal with a getter, which V8 makes in
 * dictionary mode: about 300 bytes per call in flight (bench: memory per
 * waiting run). Adapters read `options.signal`; one that copies the options
 * with a spread gets no signal, and the attempt still settles on abort.
 */
class AttemptCallOptions implements CallOptions {
  readonly #watch: StaleWatch;

  constructor(watch: StaleWatch) {
    this.#watch = watch;
  }

  get signal(): AbortSignal {
    return this.#watch.signal();
  }
}

function ignore(): void {}
