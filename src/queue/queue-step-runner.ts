/**
 * `queueStepRunner`: a {@link StepRunner} that sends each plan step as a
 * BullMQ job to workers (`startStepWorker`) and replays their events on the
 * run as they happen.
 * @module
 */
import type { Job, JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { StepJob, StepJobContext, StepJobResult, StepRunner } from '../agents/orchestrator/index.js';
import { onAbort } from '../core/abort-listeners.js';
import { AbortError, errorMessage, isAbortError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';
import {
  CANCEL_TTL_MS,
  cancelChannel,
  cancelKey,
  DEFAULT_QUEUE_NAME,
  eventsChannel,
  STEP_JOB_NAME,
  stepJobId,
} from './channels.js';
import { loadBullMQ, OwnedConnections, type QueueConnection } from './connection.js';
import { QueueError } from './errors.js';
import { eventsFromNow, finishedBefore, type JobOutcome, JobWatch } from './job-watch.js';
import { RemoteStep, RemoteSteps } from './remote-step.js';
import { ChannelSubscriber } from './subscriber.js';

/** How long a cancelled job's worker may take to publish its last events. */
const END_GRACE_MS = 2_000;

/** Options of {@link queueStepRunner}. Give `connection`, `queue`, or both. */
export interface QueueStepRunnerOptions {
  /** Redis for the queue, its events and pub/sub. Default: the connection of `queue`. */
  connection?: QueueConnection;
  /** A BullMQ queue you own (never closed by the runner). Default: one the runner creates. */
  queue?: Queue;
  /** Queue name when the runner creates the queue. Default `tandem-steps`. */
  queueName?: string;
  /** A job not finished this long after dispatch is cancelled and the step fails (`timeout`). Default: no limit. */
  jobTimeoutMs?: number;
  /** BullMQ `QueueEvents` of the queue, yours (never closed). Default: one the runner creates. */
  events?: QueueEvents;
  /** Options of every added job (`jobId` is always the step's). Default: completed jobs kept 1 h, failed 24 h. */
  jobOptions?: Omit<JobsOptions, 'jobId'>;
  /** Timers for `jobTimeoutMs`. Default: the system clock. */
  clock?: Clock;
}

/** A step runner with the connections, queue and subscribers it created; `close()` releases them. */
export type QueueStepRunner = StepRunner & { close(): Promise<void> };

interface Parts {
  queue: Queue;
  main: Redis;
  subscriber: ChannelSubscriber;
  remotes: RemoteSteps;
  watch: JobWatch;
  /**
   * A `QueueEvents` passed in may have started reading after a job ended
   * (BullMQ's starts at the stream's end once connected), so with one every
   * added job's state is checked; the runner's own reads from its set-up on.
   */
  checkEveryAdd: boolean;
}

/**
 * A {@link StepRunner} dispatching steps through BullMQ. Job ids are
 * deterministic (run, step, attempts), so dispatching the same step again
 * waits for the existing job instead of enqueuing a second one. A job that
 * fails (the worker threw or died) resolves as a failed step; only an abort
 * rejects. Pass it as the Orchestrator's `stepRunner`.
 * @throws QueueError `config` without `connection` or `queue`.
 */
export function queueStepRunner(options: QueueStepRunnerOptions): QueueStepRunner {
  const source = options.connection ?? (options.queue?.opts.connection as QueueConnection | undefined);
  if (!source) {
    throw new QueueError(
      'config',
      'queueStepRunner: pass `connection` (a client, options or a URL) or `queue`',
    );
  }
  const clock = options.clock ?? systemClock;
  const connections = new OwnedConnections(source, clock);
  const queueName = options.queue?.name ?? options.queueName ?? DEFAULT_QUEUE_NAME;
  const jobOptions: JobsOptions = {
    removeOnComplete: { age: 3_600 },
    removeOnFail: { age: 86_400 },
    ...options.jobOptions,
  };
  let parts: Promise<Parts> | undefined;
  const created: { queue?: Queue; events?: QueueEvents; subscriber?: ChannelSubscriber; watch?: JobWatch } =
    {};

  const setUp = async (): Promise<Parts> => {
    const bullmq = await loadBullMQ();
    const main = await connections.main();
    if (!options.queue) created.queue = new bullmq.Queue(queueName, { connection: main });
    const queue = options.queue ?? created.queue!;
    if (!options.events) created.events = await eventsFromNow(bullmq.QueueEvents, queue, main);
    const events = options.events ?? created.events!;
    const remotes = new RemoteSteps();
    created.subscriber = new ChannelSubscriber(await connections.subscriber(), (_channel, text) =>
      remotes.deliver(text),
    );
    await events.waitUntilReady();
    created.watch = new JobWatch(events, (jobId) => finishedBefore(queue, jobId));
    return {
      queue,
      main,
      subscriber: created.subscriber,
      remotes,
      watch: created.watch,
      checkEveryAdd: options.events !== undefined,
    };
  };

  const runner = async (job: StepJob, context: StepJobContext): Promise<StepJobResult> => {
    if (context.signal.aborted) throw abortError(context.signal.reason);
    const failed = (error: string): StepJobResult => ({
      status: 'failed',
      error,
      output: '',
      attempts: job.attempts,
    });
    let ready: Parts;
    try {
      parts ??= setUp();
      ready = await parts;
    } catch (error) {
      parts = undefined;
      return failed(errorMessage(error));
    }
    return dispatch(ready, { job, context, clock, jobOptions, jobTimeoutMs: options.jobTimeoutMs, failed });
  };

  return Object.assign(runner, {
    async close(): Promise<void> {
      parts = undefined;
      created.watch?.detach();
      created.subscriber?.detach();
      await created.events?.close();
      await created.queue?.close();
      await connections.close();
    },
  });
}

/** One step's dispatch: its job, the run's context for it, and the runner's settings. */
interface DispatchOptions {
  job: StepJob;
  context: StepJobContext;
  clock: Clock;
  jobOptions: JobsOptions;
  jobTimeoutMs?: number;
  failed: (error: string) => StepJobResult;
}

async function dispatch(parts: Parts, options: DispatchOptions): Promise<StepJobResult> {
  const { job, context } = options;
  const jobId = stepJobId(job);
  const remote = new RemoteStep(context);
  let held: Promise<() => void> | undefined;
  let added: Job | undefined;
  const cleanups: Array<() => void> = [parts.remotes.add(jobId, remote)];
  const wait = (promise: Promise<unknown>, ms: number) =>
    new Promise<void>((resolve) => {
      cleanups.push(options.clock.setTimer(ms, resolve));
      promise.then(() => resolve());
    });
  // Registered before the job exists, so its end cannot be missed.
  const finished = parts.watch.wait(jobId);
  cleanups.push(finished.cancel);
  try {
    const outcome = await new Promise<JobOutcome>((resolve, reject) => {
      // One listener on the run's signal however many steps are in flight.
      if (context.signal.aborted) return reject(abortError(context.signal.reason));
      cleanups.push(onAbort(context.signal, () => reject(abortError(context.signal.reason))));
      if (options.jobTimeoutMs !== undefined) {
        cleanups.push(options.clock.setTimer(options.jobTimeoutMs, () => resolve({ kind: 'timeout' })));
      }
      finished.outcome.then(resolve);
      (async () => {
        // Held before the job exists, so not even its first event can be missed.
        held = parts.subscriber.hold(eventsChannel(job.runId));
        await held;
        if (context.signal.aborted) return;
        added = await enqueue(parts.queue, job, options.jobOptions);
        if (parts.checkEveryAdd) parts.watch.check(jobId);
      })().catch((error: unknown) => resolve({ kind: 'failed', error }));
    }).catch(async (error: unknown) => {
      await cancel(parts, { jobId, added, remote }, (ended) => wait(ended, END_GRACE_MS));
      throw error;
    });
    if (outcome.kind === 'timeout') {
      await cancel(parts, { jobId, added, remote }, (ended) => wait(ended, END_GRACE_MS));
      return options.failed(
        new QueueError('timeout', `step job ${jobId} did not finish within ${options.jobTimeoutMs} ms`)
          .message,
      );
    }
    // The worker published everything before its job finished: its end marker, or a ping behind it, proves
    // it arrived. The marker usually comes in the same turn of the event loop as the job's end.
    if (!remote.hasEnded) await pendingIo();
    if (!remote.hasEnded) await parts.subscriber.sync().catch(() => undefined);
    const saveError = await remote.settled();
    if (outcome.kind === 'failed') {
      const error = outcome.error instanceof QueueError ? outcome.error : jobFailed(jobId, outcome.error);
      return options.failed(error.message);
    }
    if (saveError !== undefined)
      return options.failed(`checkpoint of step job ${jobId} not saved: ${saveError}`);
    return isStepJobResult(outcome.value)
      ? outcome.value
      : options.failed(jobFailed(jobId, 'the worker returned no step result').message);
  } finally {
    for (const cleanup of cleanups) cleanup();
    held?.then(
      (release) => release(),
      () => undefined,
    );
  }
}

/**
 * Adds the step's job, after clearing the cancel marker a cancelled dispatch
 * of the same job may have left. Both go on the queue's connection, back to
 * back: Redis runs them in order, so the marker is gone before the job exists.
 * @throws QueueError `enqueue`.
 */
async function enqueue(queue: Queue, job: StepJob, options: JobsOptions): Promise<Job> {
  const jobId = stepJobId(job);
  try {
    const client = await queue.client;
    const [, added] = await Promise.all([
      client.del(cancelKey(jobId)),
      queue.add(STEP_JOB_NAME, job, { ...options, jobId }),
    ]);
    return added;
  } catch (error) {
    throw new QueueError('enqueue', `could not enqueue step job ${jobId}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

/** A dispatched step: its job id, its job once added, and where its worker's events arrive. */
interface SentStep {
  jobId: string;
  added: Job | undefined;
  remote: RemoteStep;
}

/**
 * Tells the worker to stop (a marker key for a worker that has not
 * subscribed yet, and a message for one that has), drops the job if no
 * worker took it, and otherwise gives the worker's last events a moment.
 */
async function cancel(
  parts: Parts,
  sent: SentStep,
  waitForEnd: (ended: Promise<void>) => Promise<void>,
): Promise<void> {
  const { jobId, added, remote } = sent;
  try {
    await parts.main
      .multi()
      .set(cancelKey(jobId), '1', 'PX', CANCEL_TTL_MS)
      .publish(cancelChannel(jobId), 'cancel')
      .exec();
    if (!added) return;
    const state = await added.getState();
    if (state !== 'active') {
      await added.remove();
      return;
    }
    await waitForEnd(remote.ended);
    // Finished jobs are removed so that dispatching the step again runs it anew.
    await added.remove().catch(() => undefined);
  } catch {
    // Best effort: the run is being cancelled anyway.
  }
}

/** Resolves once the I/O that was ready with the current callback has been handled. */
function pendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function jobFailed(jobId: string, error: unknown): QueueError {
  return new QueueError('job_failed', `step job ${jobId} failed: ${errorMessage(error)}`, { cause: error });
}

function abortError(reason: unknown): Error {
  return isAbortError(reason) ? (reason as Error) : new AbortError(reason);
}

function isStepJobResult(value: unknown): value is StepJobResult {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as Partial<StepJobResult>;
  return (
    (result.status === 'completed' || result.status === 'failed' || result.status === 'interrupted') &&
    typeof result.output === 'string' &&
    typeof result.attempts === 'number'
  );
}
