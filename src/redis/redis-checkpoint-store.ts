/**
 * `RedisCheckpointStore`: each run's checkpoint as a JSON string at
 * `tandem:checkpoint:<runId>`, with an optional TTL.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';
import {
  assertRunId,
  CheckpointError,
  type CheckpointStore,
  decodeCheckpoint,
  encodeCheckpoint,
} from '../state/checkpoint-store.js';
import {
  assertCommandTimeout,
  type CommandDeadline,
  escapeGlob,
  REDIS_COMMAND_TIMEOUT_MS,
  RedisClientHandle,
  type RedisConnectionOptions,
  redisCommand,
  scanKeys,
} from './connection.js';

/** Options of a {@link RedisCheckpointStore}. */
export interface RedisCheckpointStoreOptions extends RedisConnectionOptions {
  /** Key prefix. Default `tandem:checkpoint:`. */
  keyPrefix?: string;
  /** Checkpoints expire this long after their last save. Default: never. */
  ttlMs?: number;
  /**
   * Longest Redis may take to answer one operation; past it the operation
   * fails with `CheckpointError` kind `io`, so a run never hangs on a save
   * while Redis is down. Default 2 000 ms.
   */
  commandTimeoutMs?: number;
  /** Timers for the command deadline. Default: the system clock. */
  clock?: Clock;
}

/** A {@link CheckpointStore} on Redis. */
export class RedisCheckpointStore<S = unknown> implements CheckpointStore<S> {
  private readonly handle: RedisClientHandle;
  private readonly prefix: string;
  private readonly ttlMs?: number;
  private readonly deadline: CommandDeadline;

  /** @throws ConfigError without a client or connection, or for a non-positive TTL or command timeout. */
  constructor(options: RedisCheckpointStoreOptions) {
    this.prefix = options.keyPrefix ?? 'tandem:checkpoint:';
    if (options.ttlMs !== undefined && !(Number.isInteger(options.ttlMs) && options.ttlMs > 0)) {
      throw new ConfigError(`RedisCheckpointStore: ttlMs must be a positive integer, got ${options.ttlMs}`);
    }
    this.ttlMs = options.ttlMs;
    const ms = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    assertCommandTimeout(ms, 'RedisCheckpointStore');
    this.deadline = { clock: options.clock ?? systemClock, ms };
    this.handle = new RedisClientHandle(options, 'RedisCheckpointStore', this.deadline);
  }

  /** The key holding `runId`'s checkpoint. */
  keyOf(runId: string): string {
    assertRunId(runId);
    return this.prefix + runId;
  }

  async save(runId: string, state: S): Promise<void> {
    const key = this.keyOf(runId);
    const text = encodeCheckpoint(runId, state);
    const client = await this.handle.get();
    await this.io(`save run ${runId}`, () =>
      this.ttlMs === undefined ? client.set(key, text) : client.set(key, text, 'PX', this.ttlMs),
    );
  }

  async load(runId: string): Promise<S | undefined> {
    const key = this.keyOf(runId);
    const client = await this.handle.get();
    const text = await this.io(`load run ${runId}`, () => client.get(key));
    return text === null ? undefined : decodeCheckpoint<S>(runId, text);
  }

  async list(): Promise<string[]> {
    const client = await this.handle.get();
    const keys = await this.io('list checkpoints', () => scanKeys(client, `${escapeGlob(this.prefix)}*`));
    return keys.map((key) => key.slice(this.prefix.length));
  }

  async delete(runId: string): Promise<boolean> {
    const key = this.keyOf(runId);
    const client = await this.handle.get();
    return (await this.io(`delete run ${runId}`, () => client.del(key))) > 0;
  }

  /** Closes the client if this store created it. */
  close(): Promise<void> {
    return this.handle.close();
  }

  private io<T>(what: string, operation: () => Promise<T>): Promise<T> {
    return redisCommand(
      operation,
      this.deadline,
      (reason, cause) =>
        new CheckpointError('io', `Redis checkpoint store could not ${what}: ${reason}`, { cause }),
    );
  }
}
