/**
 * Redis adapters (optional peer dependency `ioredis`): a checkpoint store, a
 * session store, a working-memory store (all three on one client with
 * `redisStores`) and an interrupt bus for human approvals across processes.
 * @packageDocumentation
 */
export * from './connection.js';
export * from './redis-checkpoint-store.js';
export * from './redis-interrupt-bus.js';
export * from './redis-session-store.js';
export type { RedisStoreOptions } from './redis-store-io.js';
export * from './redis-stores.js';
export * from './redis-working-memory-store.js';
