/**
 * The stale watch of a model attempt: silence past a timeout (longer for large
 * prompts, as the seed bumps it) aborts the attempt with a retryable
 * `timeout` {@link ModelError}, so a stalling provider reaches the next retry
 * or the next model in the chain.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { Clock } from '../../core/seams.js';
import type { ModelRequest } from '../types.js';

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

/**
 * Aborts an attempt, through its own controller linked to the caller's
 * signal, when no chunk arrived for the timeout (a whole `generate` call has
 * no chunks, so for it the timeout is a deadline). One timer per attempt,
 * re-armed only when it fires (chunks just stamp `last`), so the per-chunk
 * cost is one clock read. The large-prompt timeout is computed at the first
 * expiry only: most streams never get there.
 */
export class StaleWatch {
  private readonly controller = new AbortController();
  /** Time of the last chunk (or of the end of a backpressure pause). */
  last: number;
  /** Set when the watch aborted the attempt. */
  error: ModelError | undefined;
  private limit: number;
  private extended = false;
  private paused = false;
  private cancel: () => void;

  constructor(
    private readonly clock: Clock,
    timeoutMs: number,
    private readonly modelId: string,
    private readonly request: ModelRequest,
    private readonly largePromptTimeouts: readonly LargePromptTimeout[],
    private readonly outer: AbortSignal | undefined,
    private readonly what: 'stream' | 'call',
  ) {
    this.last = clock.now();
    this.limit = timeoutMs;
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.forwardAbort, { once: true });
    this.cancel = clock.setTimer(timeoutMs, this.check);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
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
    this.cancel();
    this.outer?.removeEventListener('abort', this.forwardAbort);
  }

  private readonly forwardAbort = (): void => {
    this.controller.abort(this.outer?.reason);
  };

  private readonly check = (): void => {
    const idle = this.clock.now() - this.last;
    if (this.paused || idle < this.limit) {
      this.cancel = this.clock.setTimer(this.paused ? this.limit : this.limit - idle, this.check);
      return;
    }
    if (!this.extended) {
      this.extended = true;
      const tokens = estimatePromptTokens(this.request);
      const bump = this.largePromptTimeouts.find((entry) => tokens > entry.minTokens);
      if (bump && bump.timeoutMs > this.limit) {
        this.limit = bump.timeoutMs;
        this.cancel = this.clock.setTimer(this.limit - idle, this.check);
        return;
      }
    }
    const seconds = Math.round(idle / 1000);
    const message =
      this.what === 'stream' ? `stream stalled (no chunk for ${seconds} s)` : `no reply within ${seconds} s`;
    this.error = new ModelError('timeout', `${this.modelId}: ${message}`, {
      model: this.modelId,
      retryable: true,
    });
    this.controller.abort(this.error);
  };
}
