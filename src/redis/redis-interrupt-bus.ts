/**
 * `RedisInterruptBus`: interrupts across processes. A request is stored at
 * `hitl:interrupt:<runId>:<id>` (TTL = timeout + 30 s); an answer is stored
 * at `hitl:answer:<id>` with `SET NX` (first answer wins) and published on
 * `hitl:response:<id>`. The waiter subscribes first and then reads the answer
 * key, so an answer given before it subscribed is found, not lost (the
 * seed's bug B16). A waiter that stops waiting claims the answer key with a
 * `closed` marker, so an answer racing the timeout is either delivered or
 * refused — never accepted and dropped.
 *
 * Redis going down never holds a wait past its timeout or abort: the wait
 * settles on its own timer, and the cleanup after it (unsubscribe, key
 * deletes) runs in the background with its own deadline. Client failures
 * surface as `InterruptError` kind `bus`, never as raw ioredis errors.
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
import {
  assertCommandTimeout,
  type CommandDeadline,
  closeClient,
  escapeGlob,
  quietErrors,
  REDIS_COMMAND_TIMEOUT_MS,
  RedisClientHandle,
  type RedisConnectionOptions,
  redisCommand,
  scanKeys,
} from './connection.js';

/** Options of a {@link RedisInterruptBus}. */
export interface RedisInterruptBusOptions extends RedisConnectionOptions {
  /** Key and channel prefix. Default `hitl:`. */
  keyPrefix?: string;
  /** Timers for `waitFor` timeouts and command deadlines. Default: the system clock. */
  clock?: Clock;
  /**
   * Longest Redis may take to answer `publish`, `respond`, `pending`, the
   * claim that decides an answer racing a wait's timeout, and the cleanup
   * after a wait; past it they fail with `InterruptError` kind `bus`.
   * Default 2 000 ms.
   */
  commandTimeoutMs?: number;
}

type Stored = { answer: InterruptResponse } | { closed: true };

/** How a wait ended. */
type WaitEnd = { answer: InterruptResponse } | { timedOut: true } | { aborted: true } | { error: unknown };

/** An {@link InterruptBus} on Redis; waiters and responders may live in different processes. */
export class RedisInterruptBus implements InterruptBus {
  private readonly handle: RedisClientHandle;
  private readonly prefix: string;
  private readonly clock: Clock;
  private readonly deadline: CommandDeadline;
  private subscriber?: Promise<Redis>;
  private readonly handlers = new Map<string, (message: string) => void>();

  /** @throws ConfigError without a client or connection, or for a non-positive `commandTimeoutMs`. */
  constructor(options: RedisInterruptBusOptions) {
    this.prefix = options.keyPrefix ?? 'hitl:';
    this.clock = options.clock ?? systemClock;
    const ms = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    assertCommandTimeout(ms, 'RedisInterruptBus');
    this.deadline = { clock: this.clock, ms };
    this.handle = new RedisClientHandle(options, 'RedisInterruptBus', this.deadline);
  }

  /** Key of a stored request. */
  requestKey(runId: string, id: string): string {
    return `${this.prefix}interrupt:${runId}:${id}`;
  }

  /** @throws InterruptError (`bus`) when Redis fails or does not answer within `commandTimeoutMs`. */
  async publish(request: InterruptRequest): Promise<void> {
    const client = await this.handle.get();
    const ttl = Math.ceil(request.timeoutMs + INTERRUPT_GRACE_MS);
    await this.command('publish the request', () =>
      client
        .multi()
        .set(this.requestKey(request.runId, request.id), JSON.stringify(request), 'PX', ttl)
        .set(this.indexKey(request.id), request.runId, 'PX', ttl)
        .exec(),
    );
  }

  /** @throws InterruptError (`bus`) when Redis fails or does not answer within `commandTimeoutMs`. */
  async respond(id: string, response: InterruptResponse): Promise<boolean> {
    const client = await this.handle.get();
    return this.command('record the answer', async () => {
      const request = await this.findRequest(client, id);
      if (!request) return false;
      const answer = validateResponse(request, response);
      const pttl = await client.pttl(this.requestKey(request.runId, id));
      const ttl = pttl > 0 ? pttl : INTERRUPT_GRACE_MS;
      const stored = JSON.stringify({ answer } satisfies Stored);
      if ((await client.set(this.answerKey(id), stored, 'PX', ttl, 'NX')) !== 'OK') return false;
      await client.publish(this.channel(id), JSON.stringify(answer));
      return true;
    });
  }

  /**
   * Waits on the bus's clock, whatever Redis does: a Redis outage never
   * delays the timeout (→ `undefined`) or the abort. With Redis reachable, a
   * timed-out wait first claims the answer key (within `commandTimeoutMs`),
   * so an answer that won the race is returned instead.
   * @throws AbortError when `signal` aborts; InterruptError `invalid_request`
   *   for an unknown id, `bus` when Redis fails while the wait is set up.
   */
  async waitFor(id: string, options: WaitForOptions): Promise<InterruptResponse | undefined> {
    const { signal } = options;
    if (signal?.aborted) throw new AbortError(signal.reason);
    const client = await this.handle.get();
    const channel = this.channel(id);
    if (this.handlers.has(channel))
      throw new InterruptError('invalid_request', `Interrupt ${id} is already awaited`);

    const end = new Latch<WaitEnd>();
    this.handlers.set(channel, (message) => {
      const answer = parseAnswer(message);
      if (answer) end.settle({ answer });
    });
    const onAbort = () => end.settle({ aborted: true });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const cancelTimer = this.clock.setTimer(options.timeoutMs, () => end.settle({ timedOut: true }));
    const setup = this.listen(client, id, end);

    const result = await end.promise;
    cancelTimer();
    signal?.removeEventListener('abort', onAbort);
    this.handlers.delete(channel);
    // Claimed before the caller learns the wait ended, so an answer sent after that is refused.
    const claim = closes(result) ? this.claimClosed(client, id) : undefined;
    void setup.then((request) => this.cleanup(client, channel, request));
    if ('answer' in result) return result.answer;
    if ('aborted' in result) throw new AbortError(signal?.reason);
    if ('error' in result) throw result.error;
    // A client that is not connected would hold the claim until Redis is back: settle now.
    return client.status === 'ready' ? claim : undefined;
  }

  /** @throws InterruptError (`bus`) when Redis fails or does not answer within `commandTimeoutMs`. */
  async pending(runId: string): Promise<InterruptRequest[]> {
    const client = await this.handle.get();
    return this.command('list pending requests', async () => {
      const keys = await scanKeys(client, `${escapeGlob(this.requestKey(runId, ''))}*`);
      if (keys.length === 0) return [];
      const values = await client.mget(...keys);
      const requests = values.flatMap((v) => (v === null ? [] : [JSON.parse(v) as InterruptRequest]));
      const answers = requests.length ? await client.mget(...requests.map((r) => this.answerKey(r.id))) : [];
      return requests.filter((_, i) => answers[i] === null).sort((a, b) => a.createdAt - b.createdAt);
    });
  }

  /** Closes the subscriber connection, and the client if this bus created it. */
  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    const s = await subscriber?.catch(() => undefined);
    if (s) await closeClient(s, this.deadline);
    await this.handle.close();
  }

  /**
   * Finds the request, subscribes, then reads an answer given before the
   * subscription; ends the wait with what it finds or with the failure.
   * Bounded by the wait itself, not by `commandTimeoutMs`. Resolves the
   * request (for the cleanup), never rejects.
   */
  private async listen(
    client: Redis,
    id: string,
    end: Latch<WaitEnd>,
  ): Promise<InterruptRequest | undefined> {
    const channel = this.channel(id);
    let request: InterruptRequest | undefined;
    try {
      request = await this.command('read the request', () => this.findRequest(client, id), false);
      if (!request) {
        end.settle({ error: new InterruptError('invalid_request', `Unknown or expired interrupt ${id}`) });
        return undefined;
      }
      if (end.settled) return request;
      const subscriber = await this.subscriberClient();
      await this.command('subscribe', () => subscriber.subscribe(channel), false);
      // Subscribed: an answer from now on is published to us; one given before is in the key.
      const text = await this.command('read the answer', () => client.get(this.answerKey(id)), false);
      const stored = parseStored(text);
      if (stored) end.settle('answer' in stored ? { answer: stored.answer } : { timedOut: true });
    } catch (error) {
      end.settle({ error });
    }
    return request;
  }

  /**
   * Claims the answer key for a waiter that stops waiting; resolves an
   * answer that won the race, `undefined` otherwise or when Redis fails.
   * The command is sent before this returns, ahead of any sent later.
   */
  private claimClosed(client: Redis, id: string): Promise<InterruptResponse | undefined> {
    const key = this.answerKey(id);
    const closed = JSON.stringify({ closed: true } satisfies Stored);
    return this.command('close the interrupt', () =>
      client.multi().set(key, closed, 'PX', INTERRUPT_GRACE_MS, 'NX').get(key).exec(),
    ).then(
      (replies) => {
        const stored = parseStored((replies?.[1]?.[1] as string | null | undefined) ?? null);
        return stored && 'answer' in stored ? stored.answer : undefined;
      },
      () => undefined,
    );
  }

  /** Unsubscribes and deletes the request, in the background, each within `commandTimeoutMs`. */
  private cleanup(client: Redis, channel: string, request: InterruptRequest | undefined): void {
    const subscriber = this.subscriber;
    void this.command('unsubscribe', async () => (await subscriber)?.unsubscribe(channel)).catch(ignore);
    if (!request) return;
    const keys = [this.requestKey(request.runId, request.id), this.indexKey(request.id)];
    void this.command('delete the request', () => client.del(...keys)).catch(ignore);
  }

  private async findRequest(client: Redis, id: string): Promise<InterruptRequest | undefined> {
    const runId = await client.get(this.indexKey(id));
    if (runId === null) return undefined;
    const text = await client.get(this.requestKey(runId, id));
    return text === null ? undefined : (JSON.parse(text) as InterruptRequest);
  }

  private subscriberClient(): Promise<Redis> {
    this.subscriber ??= this.handle.get().then((client) => {
      const subscriber = quietErrors(client.duplicate());
      subscriber.on('message', (channel: string, message: string) => this.handlers.get(channel)?.(message));
      return subscriber;
    });
    return this.subscriber;
  }

  /** Redis commands with their failures as `InterruptError` kind `bus`; `bounded` by `commandTimeoutMs`. */
  private command<T>(what: string, operation: () => Promise<T>, bounded = true): Promise<T> {
    return redisCommand(
      operation,
      bounded ? this.deadline : undefined,
      (reason, cause) => new InterruptError('bus', `Interrupt bus could not ${what}: ${reason}`, { cause }),
    );
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

/** Whether a wait that ended so leaves the interrupt to be closed (an answer or an unknown id does not). */
function closes(end: WaitEnd): boolean {
  if ('error' in end) return end.error instanceof InterruptError && end.error.kind === 'bus';
  return !('answer' in end);
}

/** A promise settled by the first `settle` call; later ones are ignored. */
class Latch<T> {
  readonly promise: Promise<T>;
  settled = false;
  private resolve!: (value: T) => void;

  constructor() {
    this.promise = new Promise<T>((resolve) => {
      this.resolve = resolve;
    });
  }

  settle(value: T): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(value);
  }
}

function ignore(): void {}

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
