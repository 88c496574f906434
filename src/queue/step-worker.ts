/**
 * `startStepWorker`: a BullMQ worker that runs step jobs with an
 * orchestrator's models and tools, publishing the step's events and
 * checkpoints to the dispatching run and stopping when it is cancelled.
 * @module
 */
import type { Job, Worker, WorkerOptions } from 'bullmq';
import type { Orchestrator, StepJob, StepJobResult } from '../agents/orchestrator/index.js';
import { cancelChannel, cancelKey, DEFAULT_QUEUE_NAME, eventsChannel, STEP_JOB_NAME } from './channels.js';
import { loadBullMQ, OwnedConnections, type QueueConnection } from './connection.js';
import { QueueError } from './errors.js';
import { JobPublisher, PublishingEmitter } from './job-publisher.js';
import { PrefixSubscriber } from './subscriber.js';

/** Options of {@link startStepWorker}. */
export interface StepWorkerOptions {
  /** Redis (the same server as the dispatching side's). */
  connection: QueueConnection;
  /** Queue name. Default `tandem-steps`. */
  queueName?: string;
  /** Runs the steps; its models and tools are the ones used. */
  orchestrator: Pick<Orchestrator, 'runStep'>;
  /** Steps run at once by this worker. Default 1. */
  concurrency?: number;
  /** Further BullMQ worker options (lock duration, stalled checks, …). */
  workerOptions?: Omit<WorkerOptions, 'connection' | 'concurrency' | 'autorun'>;
  /** Told about worker errors (lost connections, failed lock renewals). Default: `console.error`. */
  onError?: (error: Error) => void;
}

/** A running step worker. */
export interface StepWorker {
  /** The BullMQ worker. */
  worker: Worker<StepJob, StepJobResult>;
  /** Stops taking jobs, waits for running ones, and closes the connections it created. */
  close(): Promise<void>;
}

/**
 * Starts a worker for step jobs. Each job runs through
 * `orchestrator.runStep`; every event (tokens included) is published on the
 * job's channel, a cancel message aborts the step's signal, and the job's
 * return value is the step's {@link StepJobResult}. A job whose data is not a
 * step job fails with a {@link QueueError} `invalid_job`.
 * @throws QueueError `missing_dependency` when `bullmq` or `ioredis` is missing.
 */
export async function startStepWorker(options: StepWorkerOptions): Promise<StepWorker> {
  const bullmq = await loadBullMQ();
  const connections = new OwnedConnections(options.connection);
  const main = await connections.main();
  const cancels = await PrefixSubscriber.open(await connections.subscriber(), cancelChannel(''));

  const processJob = async (job: Job<StepJob, StepJobResult>): Promise<StepJobResult> => {
    if (job.name !== STEP_JOB_NAME || !isStepJob(job.data)) {
      throw new QueueError('invalid_job', `job ${job.id} (${job.name}) is not a tandem step job`);
    }
    const jobId = job.id!;
    const controller = new AbortController();
    const stop = () => controller.abort(new QueueError('job_failed', `step job ${jobId} was cancelled`));
    const unsubscribe = cancels.listen(cancelChannel(jobId), stop);
    const publisher = new JobPublisher(main, eventsChannel(job.data.runId), jobId);
    try {
      // Subscribed first, then the marker: a cancel sent before this worker listened is still seen.
      if ((await main.exists(cancelKey(jobId))) > 0) stop();
      return await options.orchestrator.runStep(job.data, {
        signal: controller.signal,
        emit: new PublishingEmitter(publisher, job.data.runId),
        onConversation: (conversation, messages) => publisher.conversation(conversation, messages),
      });
    } finally {
      unsubscribe();
      // Not awaited: sent on `main`, the connection BullMQ finishes the job on next,
      // so Redis takes every message before the job's end without a round trip here.
      publisher.end().catch(() => undefined);
    }
  };

  const worker = new bullmq.Worker<StepJob, StepJobResult>(
    options.queueName ?? DEFAULT_QUEUE_NAME,
    processJob,
    {
      ...options.workerOptions,
      connection: main,
      concurrency: options.concurrency ?? 1,
    },
  );
  // BullMQ re-emits connection errors here; without a listener Node would crash the process.
  worker.on('error', options.onError ?? ((error) => console.error('tandem queue worker:', error)));
  await worker.waitUntilReady();
  return {
    worker,
    async close() {
      await worker.close();
      cancels.detach();
      await connections.close();
    },
  };
}

function isStepJob(value: unknown): value is StepJob {
  if (typeof value !== 'object' || value === null) return false;
  const job = value as Partial<StepJob>;
  return (
    typeof job.runId === 'string' &&
    typeof job.plan === 'object' &&
    typeof job.step?.id === 'string' &&
    Array.isArray(job.findings) &&
    typeof job.attempts === 'number'
  );
}
