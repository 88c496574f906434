/**
 * `QueueError`: what can go wrong dispatching steps through BullMQ.
 * @module
 */
import { TandemError } from '../core/errors.js';

/**
 * Why a queue operation failed:
 * - `config`: neither a connection nor a queue was given;
 * - `missing_dependency`: `bullmq` or `ioredis` is not installed;
 * - `enqueue`: the job could not be added (Redis unreachable, …);
 * - `job_failed`: the worker threw, crashed or the job was removed;
 * - `timeout`: the job did not finish within `jobTimeoutMs`;
 * - `invalid_job`: a worker received data that is not a step job.
 */
export type QueueErrorKind =
  | 'config'
  | 'missing_dependency'
  | 'enqueue'
  | 'job_failed'
  | 'timeout'
  | 'invalid_job';

/** An error of the `tandem-agents/queue` adapter. */
export class QueueError extends TandemError<QueueErrorKind> {
  static override readonly brand: string = 'QueueError';
}
