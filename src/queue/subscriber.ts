/**
 * Pub/sub connections: the dispatching side's run channels, held while steps
 * are in flight and kept a little after, and the worker's one pattern
 * subscription for cancels.
 * @module
 */
import type { Redis } from 'ioredis';

/** Channels nobody holds that stay subscribed, for the next step of their run. */
const IDLE_CHANNELS = 64;

interface Channel {
  holders: number;
  subscribed: Promise<unknown>;
}

/**
 * Channels over one subscriber connection, every message to one handler.
 * `hold` resolves only once Redis confirmed the subscription, so a caller
 * that holds before dispatching misses nothing. A channel nobody holds any
 * more stays subscribed (up to {@link IDLE_CHANNELS}, the oldest dropped
 * first): the steps of a run follow one another, and the next one then costs
 * no SUBSCRIBE round trip.
 */
export class ChannelSubscriber {
  private readonly channels = new Map<string, Channel>();
  private readonly idle = new Set<string>();
  private readonly onMessage: (channel: string, message: string) => void;

  constructor(
    private readonly client: Redis,
    handler: (channel: string, message: string) => void,
  ) {
    this.onMessage = (channel, message) => {
      if (this.channels.has(channel)) handler(channel, message);
    };
    client.on('message', this.onMessage);
  }

  /** Keeps `name` subscribed until the returned function is called; resolves once Redis confirmed it. */
  async hold(name: string): Promise<() => void> {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { holders: 0, subscribed: this.client.subscribe(name) };
      this.channels.set(name, channel);
    }
    const current = channel;
    current.holders++;
    this.idle.delete(name);
    try {
      await current.subscribed;
    } catch (error) {
      // A failed SUBSCRIBE is not kept: the next hold tries again.
      current.holders--;
      if (this.channels.get(name) === current) this.forget(name);
      throw error;
    }
    return () => this.release(name, current);
  }

  /**
   * Resolves once every message Redis sent this connection before now was
   * dispatched: Redis answers the PING after them, on the same connection.
   */
  async sync(): Promise<void> {
    await this.client.ping();
  }

  /** Stops dispatching messages (the connection is closed by its owner). */
  detach(): void {
    this.client.off('message', this.onMessage);
    this.channels.clear();
    this.idle.clear();
  }

  private release(name: string, channel: Channel): void {
    channel.holders--;
    if (channel.holders > 0 || this.channels.get(name) !== channel) return;
    this.idle.add(name);
    if (this.idle.size <= IDLE_CHANNELS) return;
    const oldest = this.idle.values().next().value as string;
    this.forget(oldest);
    this.client.unsubscribe(oldest).catch(() => undefined);
  }

  private forget(name: string): void {
    this.channels.delete(name);
    this.idle.delete(name);
  }
}

/**
 * Every channel that starts with `prefix`, on one pattern subscription made
 * once: a worker listens for the cancel of each job it takes without a
 * SUBSCRIBE and an UNSUBSCRIBE round trip per job.
 */
export class PrefixSubscriber {
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private readonly onMessage = (_pattern: string, channel: string, message: string) => {
    const handlers = this.handlers.get(channel);
    if (handlers) for (const handler of handlers) handler(message);
  };

  private constructor(private readonly client: Redis) {
    client.on('pmessage', this.onMessage);
  }

  /** Subscribes `client` to every channel starting with `prefix`; resolves once Redis confirmed it. */
  static async open(client: Redis, prefix: string): Promise<PrefixSubscriber> {
    const subscriber = new PrefixSubscriber(client);
    await client.psubscribe(`${prefix}*`);
    return subscriber;
  }

  /** Calls `handler` with every message on `channel` until the returned function is called. */
  listen(channel: string, handler: (message: string) => void): () => void {
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
    }
    handlers.add(handler);
    const current = handlers;
    return () => {
      current.delete(handler);
      if (current.size === 0 && this.handlers.get(channel) === current) this.handlers.delete(channel);
    };
  }

  /** Stops dispatching messages (the connection is closed by its owner). */
  detach(): void {
    this.client.off('pmessage', this.onMessage);
    this.handlers.clear();
  }
}
