/**
 * How the Redis adapters get a client: yours, or one they create from
 * connection options (loading the optional `ioredis` peer dependency only
 * then), and how they bound and type the commands they send.
 * @module
 */
import type { Redis, RedisOptions } from 'ioredis';
import { onAbort } from '../core/abort-listeners.js';
import { abortable } from '../core/abortable.js';
import { ConfigError, errorMessage, TandemError } from '../core/errors.js';
import type { Clock } from '../core/seams.js';

/** Default of the adapters' `commandTimeoutMs`: 2 s. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;

/** A client you own (you close it), or options / a URL for a client the adapter owns. */
export interface RedisConnectionOptions {
  /**
   * An ioredis client. The adapter never closes it and leaves its `error`
   * events to you: attach a listener, or ioredis logs every failed reconnect.
   */
  client?: Redis;
  /** Options or a `redis://` URL for a client the adapter creates and closes in `close()`. */
  connection?: RedisOptions | string;
}

/** A client, created on first use, and whether the adapter owns it. */
export class RedisClientHandle {
  private readonly options: RedisConnectionOptions;
  private created?: Promise<Redis>;
  private ownedClient?: Redis;

  /**
   * @param deadline How long `close()` waits for a graceful QUIT.
   * @param defaults Options of a client the adapter creates, under those of `connection`.
   * @throws ConfigError when neither `client` nor `connection` is given.
   */
  constructor(
    options: RedisConnectionOptions,
    adapter: string,
    private readonly deadline: CommandDeadline,
    private readonly defaults: RedisOptions = {},
  ) {
    if (!options.client && options.connection === undefined) {
      throw new ConfigError(
        `${adapter}: pass \`client\` (an ioredis instance) or \`connection\` (options or a URL)`,
      );
    }
    this.options = options;
  }

  /** The client. @throws ConfigError when `ioredis` is not installed. */
  get(): Promise<Redis> {
    if (this.options.client) return Promise.resolve(this.options.client);
    this.created ??= createClient(this.options.connection as RedisOptions | string, this.defaults).then(
      (client) => {
        this.ownedClient = client;
        return client;
      },
    );
    return this.created;
  }

  /** Closes the client if the adapter created it. */
  async close(): Promise<void> {
    const client = this.ownedClient;
    this.ownedClient = undefined;
    this.created = undefined;
    if (client) await closeClient(client, this.deadline);
  }
}

async function createClient(connection: RedisOptions | string, defaults: RedisOptions): Promise<Redis> {
  let mod: typeof import('ioredis');
  try {
    mod = await import('ioredis');
  } catch (error) {
    throw new ConfigError(
      `tandem-agents/redis needs the \`ioredis\` package: npm install ioredis (${String(error)})`,
    );
  }
  const RedisClass = mod.Redis ?? mod.default;
  return quietErrors(
    typeof connection === 'string'
      ? new RedisClass(connection, defaults)
      : new RedisClass({ ...defaults, ...connection }),
  );
}

/**
 * Gives a connection the adapter created an `error` listener. Without one,
 * ioredis logs "Unhandled error event" for every failed reconnect while
 * Redis is down; the failures that matter reach callers as typed errors of
 * the commands that hit them.
 */
export function quietErrors(client: Redis): Redis {
  client.on('error', ignore);
  return client;
}

/**
 * Closes a connection the adapter created: a graceful QUIT when it is
 * connected (within `deadline`), else it is dropped — closing never waits for
 * Redis to come back.
 */
export async function closeClient(client: Redis, deadline: CommandDeadline): Promise<void> {
  if (client.status === 'ready') {
    await redisCommand(
      () => client.quit(),
      deadline,
      (reason) => new Error(reason),
    ).catch(ignore);
  }
  client.disconnect();
}

/** How long a Redis operation may take, on which clock. */
export interface CommandDeadline {
  clock: Clock;
  ms: number;
}

/**
 * Runs `operation` (Redis commands) and types its failures: a TandemError it
 * throws (a validation error, say) passes through; any other failure, or no
 * answer within `deadline`, becomes `fail(reason, cause)`. Past the deadline
 * the caller stops waiting and the late outcome is swallowed — a client with
 * `maxRetriesPerRequest: null` would otherwise keep the caller waiting for as
 * long as Redis is down.
 */
export async function redisCommand<T>(
  operation: (signal: AbortSignal) => Promise<T>,
  deadline: CommandDeadline | undefined,
  fail: (reason: string, cause?: unknown) => Error,
): Promise<T> {
  const controller = new AbortController();
  const cancel = deadline?.clock.setTimer(deadline.ms, () =>
    controller.abort(fail(`Redis did not answer within ${deadline.ms} ms`)),
  );
  try {
    return await abortable(operation(controller.signal), controller.signal);
  } catch (error) {
    if (error instanceof TandemError) throw error;
    throw fail(`Redis failed: ${errorMessage(error)}`, error);
  } finally {
    cancel?.();
  }
}

/**
 * Resolves once `client` is connected and ready, so that a command sent right
 * after (in the same tick) is written to Redis and never parked in ioredis'
 * offline queue — from where it would be sent when Redis comes back, long
 * after its caller was told it failed. Rejects when `signal` aborts first or
 * the client was closed for good; a lazy client is connected.
 */
export async function whenReady(client: Redis, signal: AbortSignal): Promise<void> {
  while (client.status !== 'ready') {
    signal.throwIfAborted();
    if (client.status === 'end') throw new Error('the connection is closed');
    if (client.status === 'wait') client.connect().catch(ignore);
    await new Promise<void>((resolve, reject) => {
      const settle = () => {
        client.off('ready', settle);
        client.off('end', settle);
        stop();
        resolve();
      };
      const stop = onAbort(signal, () => {
        client.off('ready', settle);
        client.off('end', settle);
        reject(signal.reason);
      });
      client.on('ready', settle);
      client.on('end', settle);
    });
  }
  signal.throwIfAborted();
}

/**
 * @throws ConfigError unless `ms` is a positive number (the `commandTimeoutMs` of `adapter`).
 */
export function assertCommandTimeout(ms: number, adapter: string): void {
  if (!(ms > 0 && Number.isFinite(ms))) {
    throw new ConfigError(
      `${adapter}: commandTimeoutMs must be a positive number of milliseconds, got ${ms}`,
    );
  }
}

/** `text` with Redis glob characters escaped, for SCAN MATCH. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Every key matching `pattern`, by SCAN (never KEYS, which blocks the server). */
export async function scanKeys(client: Redis, pattern: string): Promise<string[]> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0');
  return [...keys];
}

function ignore(): void {}
