/**
 * The events queued for one async iterator of an {@link EventBus}: handed to
 * the consumer waiting for the next one, or queued until it asks.
 * @module
 */
import type { TandemEvent } from './events.js';

/** One iterator's queue: an array read from a moving head, compacted once half of it is read. */
export class IteratorQueue {
  items: TandemEvent[] = [];
  head = 0;
  waiting: ((r: IteratorResult<TandemEvent>) => void) | undefined;
  done = false;
  get size(): number {
    return this.items.length - this.head;
  }
  /** Hands `event` to the waiting consumer, or queues it. */
  offer(event: TandemEvent): void {
    const resolve = this.waiting;
    if (resolve) {
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else {
      this.items.push(event);
    }
  }
  shift(): TandemEvent | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as never;
    if (this.head > 512 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
