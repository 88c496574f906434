/**
 * The worker side of a job's event channel: publishes the step's events and
 * checkpoints in order on one connection, and an `end` marker after them.
 * @module
 */
import type { Redis } from 'ioredis';
import type { Emitter, EventPayloads, EventTags, EventType } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { ConversationState } from '../state/run-state.js';
import type { QueueMessage } from './channels.js';

/** Unacknowledged publishes at which `backpressure()` asks producers to wait. */
const HIGH_WATER_MARK = 256;

/** Publishes one job's messages, in order. */
export class JobPublisher {
  private pending = 0;
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: Redis,
    private readonly channel: string,
  ) {}

  /**
   * Publishes `message`. Commands on one connection reach Redis in order, so
   * subscribers see messages in publish order.
   */
  publish(message: QueueMessage): Promise<void> {
    this.pending++;
    const sent = this.client.publish(this.channel, JSON.stringify(message)).then(
      () => {
        this.pending--;
      },
      (error: unknown) => {
        this.pending--;
        throw error;
      },
    );
    this.last = sent.catch(() => undefined);
    return sent;
  }

  /** Publishes a checkpoint; resolves once Redis has it. */
  conversation(
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ): Promise<void> {
    return this.publish({ kind: 'conversation', conversation, messages: messages.slice() });
  }

  /** Resolves when publishes have caught up, or `undefined` when few are in flight. */
  backpressure(): Promise<void> | undefined {
    return this.pending >= HIGH_WATER_MARK ? this.last.then(() => undefined) : undefined;
  }

  /**
   * Publishes the `end` marker after everything else (commands on one
   * connection reach Redis in order) and resolves once Redis has them all.
   */
  async end(): Promise<void> {
    await Promise.all([this.last, this.publish({ kind: 'end' })]);
  }
}

/**
 * An {@link Emitter} whose every event (tokens included) goes to the job's
 * channel with its tags; the dispatching side re-emits it on the run, which
 * gives it the run's `seq` and `at`.
 */
export class PublishingEmitter implements Emitter {
  constructor(
    private readonly publisher: JobPublisher,
    readonly runId: string,
    private readonly tags: EventTags = {},
  ) {}

  emit<T extends EventType>(type: T, payload: EventPayloads[T]): void {
    const message: QueueMessage = { kind: 'event', type, payload };
    if (Object.keys(this.tags).length > 0) message.tags = this.tags;
    // A lost event must not fail the step; a broken connection fails the job at `end()`.
    this.publisher.publish(message).catch(() => undefined);
  }

  scope(tags: EventTags): Emitter {
    return new PublishingEmitter(this.publisher, this.runId, { ...this.tags, ...tags });
  }

  backpressure(): Promise<void> | undefined {
    return this.publisher.backpressure();
  }
}
