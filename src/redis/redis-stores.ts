/**
 * `redisStores`: run checkpoints, sessions and working memory on one Redis
 * connection, so an app keeps all of its state in one database.
 * @module
 */
import { systemClock } from '../core/seams.js';
import { type DeleteResourceReport, deleteResource } from '../state/delete-resource.js';
import { assertCommandTimeout, REDIS_COMMAND_TIMEOUT_MS, RedisClientHandle } from './connection.js';
import { RedisCheckpointStore } from './redis-checkpoint-store.js';
import { RedisSessionStore } from './redis-session-store.js';
import type { RedisStoreOptions } from './redis-store-io.js';
import { RedisWorkingMemoryStore } from './redis-working-memory-store.js';

/** Options of {@link redisStores}. */
export interface RedisStoresOptions extends RedisStoreOptions {
  /**
   * Prefix of every key; the stores add `checkpoint:`, `session:` and
   * `memory:`. Default `tandem:` (the stores' own defaults).
   */
  keyPrefix?: string;
}

/** The stores {@link redisStores} makes, sharing one client. */
export interface RedisStores {
  checkpoints: RedisCheckpointStore;
  sessions: RedisSessionStore;
  workingMemory: RedisWorkingMemoryStore;
  /**
   * Removes the threads, the working memory and the checkpoints of the runs
   * of `resourceId`, store by store (not atomically), as `deleteResource()`
   * of `tandem-agents` does.
   */
  deleteResource(resourceId: string): Promise<DeleteResourceReport>;
  /** Closes the connection if `redisStores` created it (a `client` you pass is yours to close). */
  close(): Promise<void>;
}

/**
 * A checkpoint store, a session store and a working-memory store on one
 * Redis client: yours (`client`), or one made from `connection`, with
 * `autoResendUnfulfilledCommands: false` so a write reported failed is
 * never resent when Redis comes back.
 * @throws ConfigError without a client or connection, or when `ioredis` is not installed.
 */
export async function redisStores(options: RedisStoresOptions): Promise<RedisStores> {
  const { keyPrefix = 'tandem:', commandTimeoutMs, clock } = options;
  const deadline = { clock: clock ?? systemClock, ms: commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS };
  // Checked before a connection is made, so a bad option never leaves one open.
  assertCommandTimeout(deadline.ms, 'redisStores');
  const handle = new RedisClientHandle(options, 'redisStores', deadline, {
    autoResendUnfulfilledCommands: false,
  });
  const client = await handle.get();
  const shared = { client, commandTimeoutMs, clock };
  const sessions = new RedisSessionStore({ ...shared, keyPrefix: `${keyPrefix}session:` });
  const workingMemory = new RedisWorkingMemoryStore({ ...shared, keyPrefix: `${keyPrefix}memory:` });
  const checkpoints = new RedisCheckpointStore({ ...shared, keyPrefix: `${keyPrefix}checkpoint:` });
  return {
    checkpoints,
    sessions,
    workingMemory,
    deleteResource: (resourceId) => deleteResource(resourceId, [sessions, workingMemory, checkpoints]),
    close: () => handle.close(),
  };
}
