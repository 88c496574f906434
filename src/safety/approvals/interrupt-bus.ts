/**
 * The `InterruptBus` carries questions from a run to a human and answers
 * back, and the in-process implementation. Answers are kept until the asker
 * collects them, so an answer that arrives before anyone waits is delivered,
 * not lost (the seed's pub/sub lost it).
 * @module
 */
import { AbortError } from '../../core/errors.js';
import { type CancelTimer, type Clock, systemClock } from '../../core/seams.js';
import {
  InterruptError,
  type InterruptRequest,
  type InterruptResponse,
  validateResponse,
} from './interrupts.js';

/** How long a published request is kept beyond its timeout when nobody waits on it: 30 s. */
export const INTERRUPT_GRACE_MS = 30_000;

/** Options of {@link InterruptBus.waitFor}. */
export interface WaitForOptions {
  timeoutMs: number;
  /** Aborting rejects with {@link AbortError} and closes the interrupt. */
  signal?: AbortSignal;
}

/**
 * Carries interrupts between a run and whoever answers them, in one process
 * ({@link MemoryInterruptBus}) or across processes (`RedisInterruptBus`).
 * The first valid answer wins; once the asker stops waiting (answer,
 * timeout or abort) the interrupt is closed and later answers are refused.
 */
export interface InterruptBus {
  /** Stores a request so it can be answered (and listed) until its timeout plus a grace period. */
  publish(request: InterruptRequest): Promise<void>;
  /**
   * Waits for the answer to `id` and closes the interrupt. Resolves
   * `undefined` on timeout — the caller applies the default. An answer given
   * before this call is returned at once. The timeout and the abort hold
   * whatever the transport does: an unreachable backend never delays them.
   * @throws AbortError when `signal` aborts; InterruptError `invalid_request`
   *   for an unknown id, `bus` when the transport fails.
   */
  waitFor(id: string, options: WaitForOptions): Promise<InterruptResponse | undefined>;
  /**
   * Answers `id`. Resolves false when the interrupt is unknown, already
   * answered or closed (timed out): tell the user it may have timed out.
   * @throws InterruptError (`invalid_response`) for an answer its kind does
   *   not accept, (`bus`) when the transport fails.
   */
  respond(id: string, response: InterruptResponse): Promise<boolean>;
  /** Unanswered requests of a run, oldest first (for a UI that reconnects). */
  pending(runId: string): Promise<InterruptRequest[]>;
}

interface Entry {
  request: InterruptRequest;
  answer?: InterruptResponse;
  waiter?: (answer: InterruptResponse) => void;
  cancelExpiry: CancelTimer;
}

/** An {@link InterruptBus} within one process. */
export class MemoryInterruptBus implements InterruptBus {
  private readonly clock: Clock;
  private readonly entries = new Map<string, Entry>();

  /** @param options.clock Timers for timeouts and expiry. Default: the system clock. */
  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async publish(request: InterruptRequest): Promise<void> {
    this.entries.get(request.id)?.cancelExpiry();
    const cancelExpiry = this.clock.setTimer(request.timeoutMs + INTERRUPT_GRACE_MS, () => {
      if (!this.entries.get(request.id)?.waiter) this.entries.delete(request.id);
    });
    this.entries.set(request.id, { request, cancelExpiry });
  }

  async respond(id: string, response: InterruptResponse): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry || entry.answer) return false;
    entry.answer = validateResponse(entry.request, response);
    entry.waiter?.(entry.answer);
    return true;
  }

  waitFor(id: string, options: WaitForOptions): Promise<InterruptResponse | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.reject(new InterruptError('invalid_request', `Unknown interrupt ${id}`));
    if (entry.waiter)
      return Promise.reject(new InterruptError('invalid_request', `Interrupt ${id} is already awaited`));
    const { signal } = options;
    if (entry.answer) {
      this.close(id, entry);
      return Promise.resolve(entry.answer);
    }
    if (signal?.aborted) {
      this.close(id, entry);
      return Promise.reject(new AbortError(signal.reason));
    }
    return new Promise((resolve, reject) => {
      const settle = () => {
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
        this.close(id, entry);
      };
      const onAbort = () => {
        settle();
        reject(new AbortError(signal?.reason));
      };
      const cancelTimer = this.clock.setTimer(options.timeoutMs, () => {
        settle();
        resolve(undefined);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.waiter = (answer) => {
        settle();
        resolve(answer);
      };
    });
  }

  async pending(runId: string): Promise<InterruptRequest[]> {
    const out: InterruptRequest[] = [];
    for (const { request, answer } of this.entries.values()) {
      if (request.runId === runId && !answer) out.push(request);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  private close(id: string, entry: Entry): void {
    entry.cancelExpiry();
    if (this.entries.get(id) === entry) this.entries.delete(id);
  }
}
