/**
 * The dispatching side of a job's event channel: replays the worker's events
 * on the run's emitter (so `seq` and `at` are the run's), saves its
 * checkpoints in order, and notices the `end` marker.
 * @module
 */
import type { StepJobContext } from '../agents/orchestrator/index.js';
import { errorMessage } from '../core/errors.js';
import { decodeMessage } from './channels.js';

/** What arrived on one job's channel. */
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

  /** Handles one raw message; malformed ones are ignored. */
  receive(text: string): void {
    const message = decodeMessage(text);
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
