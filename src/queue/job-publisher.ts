/**
 * The worker side of a run's event channel: publishes a step job's events
 * and checkpoints in order on one connection, and an `end` marker after them.
 * @module
 */
import type { Redis } from 'ioredis';
import type { Emitter, EventPayloads, EventTags, EventType } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { ConversationState } from '../state/run-state.js';
import type { QueueMessage, QueuePacket } from './channels.js';

/** Unacknowledged messages at which `backpressure()` asks producers to wait. */
const HIGH_WATER_MARK = 256;

/** Messages waiting for the next packet, and that packet's acknowledgement. */
interface Batch {
  messages: QueueMessage[];
  sent: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Publishes one job's messages, in order, batched into packets: the messages
 * produced in one turn of the event loop go together once that turn is over
 * (a step's events come in bursts: a model reply's, a tool result's, the
 * last usage and the end), and while a packet is in flight the next ones wait
 * for it, so a fast producer (tokens) costs one PUBLISH per round trip
 * instead of one per message.
 */
export class JobPublisher {
  private batch?: Batch;
  private scheduled = false;
  private inFlight = 0;
  private unacknowledged = 0;
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: Redis,
    private readonly channel: string,
    private readonly job: string,
  ) {}

  /** Publishes `message`; resolves once Redis has the packet that carried it. */
  publish(message: QueueMessage): Promise<void> {
    this.batch ??= newBatch();
    this.batch.messages.push(message);
    this.unacknowledged++;
    if (this.inFlight === 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushScheduled);
    }
    return this.batch.sent;
  }

  /** Publishes a checkpoint; resolves once Redis has it. */
  conversation(
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ): Promise<void> {
    return this.publish({ kind: 'conversation', conversation, messages: messages.slice() });
  }

  /** Resolves when the packet in flight is acknowledged, or `undefined` when few messages wait. */
  backpressure(): Promise<void> | undefined {
    return this.unacknowledged >= HIGH_WATER_MARK ? this.last.then(() => undefined) : undefined;
  }

  /**
   * Publishes the `end` marker at once, after everything else (commands on
   * one connection reach Redis in order), and resolves once Redis has them all.
   */
  async end(): Promise<void> {
    const ended = this.publish({ kind: 'end' });
    this.flush();
    await Promise.all([this.last, ended]);
  }

  private readonly flushScheduled = (): void => {
    this.scheduled = false;
    if (this.inFlight === 0) this.flush();
  };

  private flush(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    this.inFlight++;
    const packet: QueuePacket = { job: this.job, messages: batch.messages };
    const sent = this.client.publish(this.channel, JSON.stringify(packet));
    this.last = sent.then(
      () => {
        this.acknowledged(batch);
        batch.resolve();
      },
      (error: unknown) => {
        this.acknowledged(batch);
        batch.reject(error);
      },
    );
  }

  private acknowledged(batch: Batch): void {
    this.inFlight--;
    this.unacknowledged -= batch.messages.length;
    if (this.inFlight === 0) this.flush();
  }
}

function newBatch(): Batch {
  const batch = { messages: [] } as unknown as Batch;
  batch.sent = new Promise<void>((resolve, reject) => {
    batch.resolve = resolve;
    batch.reject = reject;
  });
  return batch;
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
