/**
 * `RedisCheckpointStore`: each run's checkpoint as a JSON string at
 * `tandem:checkpoint:<runId>`, with an optional TTL. Writes are sent only
 * while the connection is ready, so a save reported failed (Redis down) is
 * not written when Redis returns. A write already sent when the connection
 * drops is resent by ioredis on reconnect unless the client has
 * `autoResendUnfulfilledCommands: false`, which the store sets on the
 * connections it creates.
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
  whenReady,
} from './connection.js';

/**
 * `saveIf`: 1 when it saved, 0 when the stored revision is another, -1 for
 * a stored text that is not JSON. A state's revision is its `revision` field
 * (0 without one), as `checkpointRevision` reads it.
 */
const SAVE_IF = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, envelope = pcall(cjson.decode, current)
  if not ok or type(envelope) ~= 'table' then return -1 end
  local state = envelope.state
  local revision = type(state) == 'table' and state.revision or 0
  if type(revision) ~= 'number' then revision = 0 end
  if revision ~= tonumber(ARGV[2]) then return 0 end
end
if ARGV[3] == '' then
  redis.call('SET', KEYS[1], ARGV[1])
else
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
end
return 1
`;

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
    // A save the store gave up on must not be resent when the connection comes back.
    this.handle = new RedisClientHandle(options, 'RedisCheckpointStore', this.deadline, {
      autoResendUnfulfilledCommands: false,
    });
  }

  /** The key holding `runId`'s checkpoint. */
  keyOf(runId: string): string {
    assertRunId(runId);
    return this.prefix + runId;
  }

  /**
   * Sent only while the connection is ready: a save Redis did not take is
   * never parked in ioredis' offline queue and written after its failure
   * was reported (see the module docs for a save in flight when the
   * connection drops).
   */
  async save(runId: string, state: S): Promise<void> {
    const key = this.keyOf(runId);
    const text = encodeCheckpoint(runId, state);
    const client = await this.handle.get();
    await this.io(`save run ${runId}`, async (signal) => {
      await whenReady(client, signal);
      return this.ttlMs === undefined ? client.set(key, text) : client.set(key, text, 'PX', this.ttlMs);
    });
  }

  /** Compare-and-set in one Lua script, so no other command on the key runs between the check and the write. */
  async saveIf(runId: string, state: S, expected: number): Promise<boolean> {
    const key = this.keyOf(runId);
    const text = encodeCheckpoint(runId, state);
    const client = await this.handle.get();
    const ttl = this.ttlMs === undefined ? '' : String(this.ttlMs);
    const outcome = await this.io(`save run ${runId} at revision ${expected}`, async (signal) => {
      await whenReady(client, signal);
      return client.eval(SAVE_IF, 1, key, text, String(expected), ttl);
    });
    if (outcome === -1) {
      throw new CheckpointError('corrupt', `Checkpoint of run ${runId} in Redis is not valid JSON`);
    }
    return outcome === 1;
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
    const deleted = await this.io(`delete run ${runId}`, async (signal) => {
      await whenReady(client, signal);
      return client.del(key);
    });
    return deleted > 0;
  }

  /** Closes the client if this store created it. */
  close(): Promise<void> {
    return this.handle.close();
  }

  private io<T>(what: string, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return redisCommand(
      operation,
      this.deadline,
      (reason, cause) =>
        new CheckpointError('io', `Redis checkpoint store could not ${what}: ${reason}`, { cause }),
    );
  }
}
