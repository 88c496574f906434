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
