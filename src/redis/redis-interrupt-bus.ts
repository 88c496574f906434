/**
 * `RedisInterruptBus`: interrupts across processes. A request is stored at
 * `hitl:interrupt:<runId>:<id>` (TTL = timeout + 30 s); an answer is stored
 * at `hitl:answer:<id>` with `SET NX` (first answer wins) and published on
 * `hitl:response:<id>`. The waiter subscribes first and then reads the answer
 * key, so an answer given before it subscribed is found, not lost (the
 * seed's bug B16). A waiter that times out claims the answer key with a
 * `closed` marker, so an answer racing the timeout is either delivered or
 * refused — never accepted and dropped.
 * @module
 */
import type { Redis } from 'ioredis';
import { AbortError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';
import {
  INTERRUPT_GRACE_MS,
  type InterruptBus,
  type WaitForOptions,
} from '../safety/approvals/interrupt-bus.js';
import {
  InterruptError,
  type InterruptRequest,
  type InterruptResponse,
  validateResponse,
} from '../safety/approvals/interrupts.js';
import { escapeGlob, RedisClientHandle, type RedisConnectionOptions, scanKeys } from './connection.js';

/** Options of a {@link RedisInterruptBus}. */
export interface RedisInterruptBusOptions extends RedisConnectionOptions {
  /** Key and channel prefix. Default `hitl:`. */
  keyPrefix?: string;
  /** Timers for `waitFor` timeouts. Default: the system clock. */
  clock?: Clock;
}

type Stored = { answer: InterruptResponse } | { closed: true };

/** An {@link InterruptBus} on Redis; waiters and responders may live in different processes. */
export class RedisInterruptBus implements InterruptBus {
  private readonly handle: RedisClientHandle;
  private readonly prefix: string;
  private readonly clock: Clock;
  private subscriber?: Promise<Redis>;
  private readonly handlers = new Map<string, (message: string) => void>();

  /** @throws ConfigError without a client or connection. */
  constructor(options: RedisInterruptBusOptions) {
    this.handle = new RedisClientHandle(options, 'RedisInterruptBus');
    this.prefix = options.keyPrefix ?? 'hitl:';
    this.clock = options.clock ?? systemClock;
  }

  /** Key of a stored request. */
  requestKey(runId: string, id: string): string {
    return `${this.prefix}interrupt:${runId}:${id}`;
  }

  async publish(request: InterruptRequest): Promise<void> {
    const client = await this.handle.get();
    const ttl = Math.ceil(request.timeoutMs + INTERRUPT_GRACE_MS);
    await client
      .multi()
      .set(this.requestKey(request.runId, request.id), JSON.stringify(request), 'PX', ttl)
      .set(this.indexKey(request.id), request.runId, 'PX', ttl)
      .exec();
  }

  async respond(id: string, response: InterruptResponse): Promise<boolean> {
    const client = await this.handle.get();
    const request = await this.findRequest(client, id);
    if (!request) return false;
    const answer = validateResponse(request, response);
    const pttl = await client.pttl(this.requestKey(request.runId, id));
    const ttl = pttl > 0 ? pttl : INTERRUPT_GRACE_MS;
    const set = await client.set(
      this.answerKey(id),
      JSON.stringify({ answer } satisfies Stored),
      'PX',
      ttl,
      'NX',
    );
    if (set !== 'OK') return false;
    await client.publish(this.channel(id), JSON.stringify(answer));
    return true;
  }

  async waitFor(id: string, options: WaitForOptions): Promise<InterruptResponse | undefined> {
    const { signal } = options;
    if (signal?.aborted) throw new AbortError(signal.reason);
    const client = await this.handle.get();
    const request = await this.findRequest(client, id);
    if (!request) throw new InterruptError('invalid_request', `Unknown or expired interrupt ${id}`);
    const channel = this.channel(id);
    if (this.handlers.has(channel))
      throw new InterruptError('invalid_request', `Interrupt ${id} is already awaited`);

    let settle!: (result: { answer?: InterruptResponse; aborted?: boolean }) => void;
    const settled = new Promise<{ answer?: InterruptResponse; aborted?: boolean }>((resolve) => {
      let done = false;
      settle = (result) => {
        if (done) return;
        done = true;
        resolve(result);
      };
    });
    this.handlers.set(channel, (message) => {
      const answer = parseAnswer(message);
      if (answer) settle({ answer });
    });
    const onAbort = () => settle({ aborted: true });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const cancelTimer = this.clock.setTimer(options.timeoutMs, () => settle({}));
    try {
      const subscriber = await this.subscriberClient();
      await subscriber.subscribe(channel);
      // Subscribed: an answer from now on is published to us; one given before is in the key.
      const stored = parseStored(await client.get(this.answerKey(id)));
      if (stored && 'answer' in stored) settle({ answer: stored.answer });
      else if (stored) settle({});
      const result = await settled;
      if (result.answer) return result.answer;
      const late = await this.claimClosed(client, id);
      if (result.aborted) throw new AbortError(signal?.reason);
      return late;
    } finally {
      cancelTimer();
      signal?.removeEventListener('abort', onAbort);
      this.handlers.delete(channel);
      await this.unsubscribe(channel);
      await client.del(this.requestKey(request.runId, id), this.indexKey(id)).catch(() => 0);
    }
  }

  async pending(runId: string): Promise<InterruptRequest[]> {
    const client = await this.handle.get();
    const keys = await scanKeys(client, `${escapeGlob(this.requestKey(runId, ''))}*`);
    if (keys.length === 0) return [];
    const values = await client.mget(...keys);
    const requests = values.flatMap((v) => (v === null ? [] : [JSON.parse(v) as InterruptRequest]));
    const answers = requests.length ? await client.mget(...requests.map((r) => this.answerKey(r.id))) : [];
    return requests.filter((_, i) => answers[i] === null).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Closes the subscriber connection, and the client if this bus created it. */
  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    const s = await subscriber?.catch(() => undefined);
    await s?.quit().catch(() => s.disconnect());
    await this.handle.close();
  }

  /** Claims the answer key for a waiter that stops waiting; returns an answer that won the race. */
  private async claimClosed(client: Redis, id: string): Promise<InterruptResponse | undefined> {
    const key = this.answerKey(id);
    const claimed = await client.set(
      key,
      JSON.stringify({ closed: true } satisfies Stored),
      'PX',
      INTERRUPT_GRACE_MS,
      'NX',
    );
    if (claimed === 'OK') return undefined;
    const stored = parseStored(await client.get(key));
    return stored && 'answer' in stored ? stored.answer : undefined;
  }

  private async findRequest(client: Redis, id: string): Promise<InterruptRequest | undefined> {
    const runId = await client.get(this.indexKey(id));
    if (runId === null) return undefined;
    const text = await client.get(this.requestKey(runId, id));
    return text === null ? undefined : (JSON.parse(text) as InterruptRequest);
  }

  private subscriberClient(): Promise<Redis> {
    this.subscriber ??= this.handle.get().then((client) => {
      const subscriber = client.duplicate();
      subscriber.on('message', (channel: string, message: string) => this.handlers.get(channel)?.(message));
      return subscriber;
    });
    return this.subscriber;
  }

  private async unsubscribe(channel: string): Promise<void> {
    const subscriber = await this.subscriber?.catch(() => undefined);
    await subscriber?.unsubscribe(channel).catch(() => undefined);
  }

  private indexKey(id: string): string {
    return `${this.prefix}index:${id}`;
  }

  private answerKey(id: string): string {
    return `${this.prefix}answer:${id}`;
  }

  private channel(id: string): string {
    return `${this.prefix}response:${id}`;
  }
}

function parseStored(text: string | null): Stored | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Stored;
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseAnswer(message: string): InterruptResponse | undefined {
  try {
    const value = JSON.parse(message) as InterruptResponse;
    return value && typeof value.action === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
