/**
 * The dispatching side of a run's event channel: routes each packet to the
 * dispatches of its job, which replay the worker's events on the run's
 * emitter (so `seq` and `at` are the run's), save its checkpoints in order,
 * and notice the `end` marker.
 * @module
 */
import type { StepJobContext } from '../agents/orchestrator/index.js';
import { errorMessage } from '../core/errors.js';
import { decodeMessage, decodePacket } from './channels.js';

/** What arrived for one job on its run's channel. */
export class RemoteStep {
  /** Resolves once the worker's `end` marker arrived. */
  readonly ended: Promise<void>;
  /** True once the `end` marker arrived: everything the worker published is here. */
  hasEnded = false;
  private markEnded!: () => void;
  private saves: Promise<void> = Promise.resolve();
  private saveError?: string;

  constructor(private readonly context: StepJobContext) {
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
  }

  /** Handles one message of a packet; malformed ones are ignored. */
  receive(value: unknown): void {
    const message = decodeMessage(value);
    if (!message) return;
    switch (message.kind) {
      case 'event':
        // A step never ends the run: a terminal event from a worker would cut the run's stream.
        if (message.type === 'complete' || message.type === 'error') return;
        (message.tags ? this.context.emit.scope(message.tags) : this.context.emit).emit(
          message.type,
          // The worker's payload went through JSON; its type and payload came from the same emit.
          message.payload as never,
        );
        return;
      case 'conversation': {
        const save = this.context.onConversation;
        if (!save) return;
        this.saves = this.saves.then(() =>
          save(message.conversation, message.messages).catch((error: unknown) => {
            this.saveError ??= errorMessage(error);
          }),
        );
        return;
      }
      case 'end':
        this.hasEnded = true;
        this.markEnded();
    }
  }

  /** Waits for the checkpoints received so far to be saved; the first save error, if any. */
  async settled(): Promise<string | undefined> {
    await this.saves;
    return this.saveError;
  }
}

/** The dispatches in flight by job id; a packet is decoded once, whoever waits for its job. */
export class RemoteSteps {
  private readonly steps = new Map<string, Set<RemoteStep>>();

  /** Routes the packets of job `jobId` to `step` until the returned function is called. */
  add(jobId: string, step: RemoteStep): () => void {
    let steps = this.steps.get(jobId);
    if (!steps) {
      steps = new Set();
      this.steps.set(jobId, steps);
    }
    const current = steps;
    current.add(step);
    return () => {
      current.delete(step);
      if (current.size === 0 && this.steps.get(jobId) === current) this.steps.delete(jobId);
    };
  }

  /** Handles one raw packet; malformed ones and packets of jobs nobody waits for are ignored. */
  deliver(text: string): void {
    const packet = decodePacket(text);
    const steps = packet && this.steps.get(packet.job);
    if (!steps) return;
    for (const message of packet.messages) for (const step of steps) step.receive(message);
  }
}
