/**
 * Waits for the runner's jobs to finish. BullMQ's `job.waitUntilFinished`
 * adds a `closing` listener on the queue per waiting job (past ten, Node
 * prints `MaxListenersExceededWarning`) and a Redis round trip per call; here
 * one `completed` and one `failed` listener on the runner's `QueueEvents`
 * serve every job in flight.
 * @module
 */
import type { QueueEvents } from 'bullmq';

/** How a job ended, or that the runner stopped waiting for it. */
export type JobOutcome =
  | { kind: 'done'; value: unknown }
  | { kind: 'failed'; error: unknown }
  | { kind: 'timeout' };

/** One wait for one job. */
export interface JobWait {
  /** Resolves with the job's outcome; never rejects. */
  outcome: Promise<JobOutcome>;
  /** Settles the wait from elsewhere (the job was found finished); `undefined` is ignored. */
  settle(outcome: JobOutcome | undefined): void;
  /** Stops waiting (the dispatch ended another way). */
  cancel(): void;
}

/** The job ends a runner's `QueueEvents` reports, routed to the dispatches waiting for them. */
export class JobWatch {
  private readonly waiting = new Map<string, Set<(outcome: JobOutcome) => void>>();
  private readonly onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
    this.end(jobId, { kind: 'done', value: returnvalue });
  private readonly onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
    this.end(jobId, { kind: 'failed', error: new Error(failedReason) });

  constructor(private readonly events: QueueEvents) {
    events.on('completed', this.onCompleted);
    events.on('failed', this.onFailed);
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
    return {
      outcome,
      settle: (ended) => {
        if (!ended) return;
        cancel();
        resolve(ended);
      },
      cancel,
    };
  }

  /** Stops listening (the runner is closing). */
  detach(): void {
    this.events.off('completed', this.onCompleted);
    this.events.off('failed', this.onFailed);
  }

  private end(jobId: string, outcome: JobOutcome): void {
    const waiters = this.waiting.get(jobId);
    if (!waiters) return;
    this.waiting.delete(jobId);
    for (const resolve of waiters) resolve(outcome);
  }
}
