/**
 * Redis connections of the queue adapter. BullMQ's blocking connections need
 * `maxRetriesPerRequest: null` and pub/sub needs a connection of its own, so
 * the adapter always works on connections it creates (duplicating a client
 * you pass, which it never closes) and closes exactly those.
 * @module
 */
import type { Redis, RedisOptions } from 'ioredis';
import { type Clock, systemClock } from '../core/seams.js';
import { QueueError } from './errors.js';

/** An ioredis client (duplicated, never closed by the adapter), ioredis options, or a `redis://` URL. */
export type QueueConnection = Redis | RedisOptions | string;

type BullMQ = typeof import('bullmq');

/** Loads the optional `bullmq` peer dependency. @throws QueueError `missing_dependency`. */
export async function loadBullMQ(): Promise<BullMQ> {
  try {
    return await import('bullmq');
  } catch (error) {
    throw new QueueError('missing_dependency', `tandem-agents/queue needs \`bullmq\`: npm install bullmq`, {
      cause: error,
    });
  }
}

/** How long a QUIT may wait on a connection that is up but whose server has stopped answering. */
const QUIT_DEADLINE_MS = 2_000;

async function closeOwned(client: Redis, clock: Clock): Promise<void> {
  if (client.status === 'ready') {
    let cancel: (() => void) | undefined;
    const deadline = new Promise<void>((resolve) => {
      cancel = clock.setTimer(QUIT_DEADLINE_MS, resolve);
    });
    await Promise.race([client.quit().catch(ignoreConnectionError), deadline]);
    cancel?.();
  }
  client.disconnect();
}

function isClient(connection: QueueConnection): connection is Redis {
  return typeof connection === 'object' && typeof (connection as Redis).duplicate === 'function';
}

/** The connections one runner or worker created; `close()` quits them all. */
export class OwnedConnections {
  private readonly owned: Redis[] = [];
  private base?: Promise<Redis>;

  constructor(
    private readonly connection: QueueConnection,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A command connection usable by BullMQ (shared by its queues) and for PUBLISH / SET. */
  main(): Promise<Redis> {
    this.base ??= this.create();
    return this.base;
  }

  /** A fresh connection for SUBSCRIBE. */
  async subscriber(): Promise<Redis> {
    const client = (await this.main()).duplicate();
    client.on('error', ignoreConnectionError);
    this.owned.push(client);
    return client;
  }

  /**
   * Closes every connection this object created: QUIT on a ready connection,
   * else a plain disconnect, since these connections queue commands while
   * Redis is down and a QUIT would wait for a reconnect that may never come.
   */
  async close(): Promise<void> {
    const clients = this.owned.splice(0);
    this.base = undefined;
    await Promise.all(clients.map((client) => closeOwned(client, this.clock)));
  }

  private async create(): Promise<Redis> {
    const connection = this.connection;
    let client: Redis;
    if (isClient(connection)) {
      client = connection.duplicate({ maxRetriesPerRequest: null });
    } else {
      let mod: typeof import('ioredis');
      try {
        mod = await import('ioredis');
      } catch (error) {
        throw new QueueError(
          'missing_dependency',
          'tandem-agents/queue needs `ioredis`: npm install ioredis',
          {
            cause: error,
          },
        );
      }
      const RedisClass = mod.Redis ?? mod.default;
      client =
        typeof connection === 'string'
          ? new RedisClass(connection, { maxRetriesPerRequest: null })
          : new RedisClass({ ...connection, maxRetriesPerRequest: null });
    }
    client.on('error', ignoreConnectionError);
    this.owned.push(client);
    return client;
  }
}

/**
 * The `error` listener of every connection the adapter creates. Without one,
 * ioredis logs "Unhandled error event" for each failed reconnect while Redis
 * is down; the failures that matter reach callers through their commands.
 */
function ignoreConnectionError(): void {}
