/**
 * How the Redis session and memory stores reach Redis: one client handle,
 * commands sent only while the connection is ready, failures typed as
 * `SessionError` kind `unavailable` naming the server.
 * @module
 */
import type { Redis } from 'ioredis';
import { type Clock, systemClock } from '../core/seams.js';
import { SessionError } from '../state/session.js';
import {
  assertCommandTimeout,
  type CommandDeadline,
  REDIS_COMMAND_TIMEOUT_MS,
  RedisClientHandle,
  type RedisConnectionOptions,
  redisCommand,
  whenReady,
} from './connection.js';

/** Options every Redis session or memory store takes. */
export interface RedisStoreOptions extends RedisConnectionOptions {
  /**
   * Longest Redis may take to answer one operation; past it the operation
   * fails with `SessionError` kind `unavailable`, so a run never hangs on
   * an append while Redis is down. Default 2 000 ms.
   */
  commandTimeoutMs?: number;
  /** Timers for the command deadline. Default: the system clock. */
  clock?: Clock;
}

/** The client of one store and the way it sends commands. */
export class RedisStoreIo {
  private readonly handle: RedisClientHandle;
  private readonly deadline: CommandDeadline;

  constructor(options: RedisStoreOptions, adapter: string) {
    const ms = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    assertCommandTimeout(ms, adapter);
    this.deadline = { clock: options.clock ?? systemClock, ms };
    // A write the store gave up on must not be resent when the connection comes back.
    this.handle = new RedisClientHandle(options, adapter, this.deadline, {
      autoResendUnfulfilledCommands: false,
    });
  }

  /**
   * Runs `operation` on the client once it is ready: a command is never
   * parked in ioredis' offline queue and sent after its caller was told it
   * failed. A key holding another type (`WRONGTYPE`: something else wrote
   * it) becomes `corrupt`; any other failure but a `TandemError`,
   * `unavailable`.
   * @param what What the operation does, for the error message.
   */
  async run<T>(what: string, operation: (client: Redis) => Promise<T>): Promise<T> {
    const client = await this.handle.get();
    return redisCommand(
      async (signal) => {
        await whenReady(client, signal);
        return operation(client);
      },
      this.deadline,
      (reason, cause) =>
        new SessionError(
          isWrongType(cause) ? 'corrupt' : 'unavailable',
          `Redis at ${endpointOf(client)} could not ${what}: ${reason}`,
          { cause },
        ),
    );
  }

  /** Closes the client if the store created it. */
  close(): Promise<void> {
    return this.handle.close();
  }
}

function isWrongType(error: unknown): boolean {
  return error instanceof Error && /\bWRONGTYPE\b/.test(error.message);
}

/** `host:port` (or the socket path) of a client, for error messages. */
function endpointOf(client: Redis): string {
  const { host, port, path } = client.options;
  return path ? path : `${host ?? 'localhost'}:${port ?? 6379}`;
}
