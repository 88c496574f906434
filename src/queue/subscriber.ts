/**
 * One pub/sub connection shared by many jobs. `subscribe` resolves only once
 * Redis confirmed the subscription, so a caller that subscribes before
 * dispatching misses nothing; several callers may share a channel.
 * @module
 */
import type { Redis } from 'ioredis';

interface Channel {
  handlers: Set<(message: string) => void>;
  subscribed: Promise<unknown>;
}

/** Channel handlers over one subscriber connection. */
export class ChannelSubscriber {
  private readonly channels = new Map<string, Channel>();
  private readonly onMessage = (name: string, message: string) => {
    const channel = this.channels.get(name);
    if (channel) for (const handler of channel.handlers) handler(message);
  };

  constructor(private readonly client: Redis) {
    client.on('message', this.onMessage);
  }

  /** Calls `handler` with every message on `name` until the returned function is called. */
  async subscribe(name: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { handlers: new Set(), subscribed: this.client.subscribe(name) };
      this.channels.set(name, channel);
    }
    const current = channel;
    current.handlers.add(handler);
    try {
      await current.subscribed;
    } catch (error) {
      this.release(name, current, handler);
      throw error;
    }
    return () => this.release(name, current, handler);
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
  }

  private async release(name: string, channel: Channel, handler: (message: string) => void): Promise<void> {
    channel.handlers.delete(handler);
    if (channel.handlers.size > 0 || this.channels.get(name) !== channel) return;
    this.channels.delete(name);
    await this.client.unsubscribe(name).catch(() => undefined);
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
