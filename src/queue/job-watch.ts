/**
 * Waits for the runner's jobs to finish. BullMQ's `job.waitUntilFinished`
 * adds a `closing` listener on the queue per waiting job (past ten, Node
 * prints `MaxListenersExceededWarning`) and a Redis round trip per call; here
 * one `completed`, one `failed` and one `duplicated` listener on the runner's
 * `QueueEvents` serve every job in flight.
 * @module
 */
import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';

/** How a job ended, or that the runner stopped waiting for it. */
export type JobOutcome =
  | { kind: 'done'; value: unknown }
  | { kind: 'failed'; error: unknown }
  | { kind: 'timeout' };

/** One wait for one job. */
export interface JobWait {
  /** Resolves with the job's outcome; never rejects. */
  outcome: Promise<JobOutcome>;
  /** Stops waiting (the dispatch ended another way). */
  cancel(): void;
}

/** The outcome of job `jobId` if it has already finished, looked up in the queue. */
export type FinishedJob = (jobId: string) => Promise<JobOutcome | undefined>;

/**
 * The job ends a runner's `QueueEvents` reports, routed to the dispatches
 * waiting for them. Adding a job whose id exists already (a step dispatched
 * again) reports `duplicated`: only then is the queue asked whether that job
 * has already finished, since its end was reported before anyone waited.
 */
export class JobWatch {
  private readonly waiting = new Map<string, Set<(outcome: JobOutcome) => void>>();
  private readonly onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
    this.end(jobId, { kind: 'done', value: returnvalue });
  private readonly onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
    this.end(jobId, { kind: 'failed', error: new Error(failedReason) });
  private readonly onDuplicated = ({ jobId }: { jobId: string }) => this.check(jobId);

  constructor(
    private readonly events: QueueEvents,
    private readonly finished: FinishedJob,
  ) {
    events.on('completed', this.onCompleted);
    events.on('failed', this.onFailed);
    events.on('duplicated', this.onDuplicated);
  }

  /** Waits for job `jobId`; call before the job is added, so its end cannot be missed. */
  wait(jobId: string): JobWait {
    let resolve!: (outcome: JobOutcome) => void;
    const outcome = new Promise<JobOutcome>((r) => {
      resolve = r;
    });
    let waiters = this.waiting.get(jobId);
    if (!waiters) {
      waiters = new Set();
      this.waiting.set(jobId, waiters);
    }
    waiters.add(resolve);
    const cancel = () => {
      const current = this.waiting.get(jobId);
      if (!current?.delete(resolve) || current.size > 0) return;
      this.waiting.delete(jobId);
    };
    return { outcome, cancel };
  }

  /** Ends the waits for job `jobId` if the queue says it has finished already. */
  check(jobId: string): void {
    if (!this.waiting.has(jobId)) return;
    this.finished(jobId).then(
      (outcome) => outcome && this.end(jobId, outcome),
      (error: unknown) => this.end(jobId, { kind: 'failed', error }),
    );
  }

  /** Stops listening (the runner is closing). */
  detach(): void {
    this.events.off('completed', this.onCompleted);
    this.events.off('failed', this.onFailed);
    this.events.off('duplicated', this.onDuplicated);
  }

  private end(jobId: string, outcome: JobOutcome): void {
    const waiters = this.waiting.get(jobId);
    if (!waiters) return;
    this.waiting.delete(jobId);
    for (const resolve of waiters) resolve(outcome);
  }
}

/**
 * A `QueueEvents` (class `Events`) of `queue` reporting every event from the
 * stream's current last entry on. BullMQ's starts reading at the stream's end
 * only once its connection is up, so the end of a job added meanwhile would be
 * lost.
 */
export async function eventsFromNow(
  Events: typeof QueueEvents,
  queue: Queue,
  main: Redis,
): Promise<QueueEvents> {
  const [last] = await main.xrevrange(queue.toKey('events'), '+', '-', 'COUNT', 1);
  return new Events(queue.name, {
    connection: main,
    prefix: queue.opts.prefix,
    lastEventId: last?.[0] ?? '0-0',
  });
}

/** The outcome of job `jobId` if it has already finished, from the queue itself. */
export async function finishedBefore(queue: Queue, jobId: string): Promise<JobOutcome | undefined> {
  const state = await queue.getJobState(jobId);
  if (state !== 'completed' && state !== 'failed') return undefined;
  const job = await queue.getJob(jobId);
  if (!job) return undefined;
  return state === 'completed'
    ? { kind: 'done', value: job.returnvalue }
    : { kind: 'failed', error: new Error(job.failedReason) };
}
