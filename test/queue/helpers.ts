/** Shared set-up of the queue tests: a real redis-server, and runners / workers closed after each test. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { QueueStepRunnerOptions, StepWorkerOptions } from '../../src/queue/index.js';
import {
  type QueueStepRunner,
  queueStepRunner,
  type StepWorker,
  startStepWorker,
} from '../../src/queue/index.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

/** Starts one redis-server for the file and closes every runner and worker after each test. */
export function useQueueFixture() {
  let server: RedisServer;
  let counter = 0;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    url: () => server.url,
    /** A queue name of its own per test, so tests never share jobs. */
    queueName: () => `test-steps-${++counter}`,
    runner(
      options: Omit<QueueStepRunnerOptions, 'connection'> & Partial<QueueStepRunnerOptions>,
    ): QueueStepRunner {
      const runner = queueStepRunner({ connection: server.url, ...options });
      closers.push(() => runner.close());
      return runner;
    },
    async worker(options: Omit<StepWorkerOptions, 'connection'>): Promise<StepWorker> {
      const worker = await startStepWorker({ connection: server.url, ...options });
      closers.push(() => worker.close());
      return worker;
    },
    onClose(close: () => Promise<void>) {
      closers.push(close);
    },
  };
}
