/**
 * Distributed step dispatch on BullMQ (optional peer dependencies `bullmq`
 * and `ioredis`): `queueStepRunner` sends plan steps to a queue,
 * `startStepWorker` runs them elsewhere with another orchestrator.
 * @packageDocumentation
 */
export * from './channels.js';
export * from './connection.js';
export * from './errors.js';
export * from './queue-step-runner.js';
export * from './step-worker.js';
