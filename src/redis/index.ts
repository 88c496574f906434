/**
 * Redis adapters (optional peer dependency `ioredis`): a checkpoint store and
 * an interrupt bus for human approvals across processes.
 * @packageDocumentation
 */
export * from './connection.js';
export * from './redis-checkpoint-store.js';
export * from './redis-interrupt-bus.js';
