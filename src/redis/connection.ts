/**
 * How the Redis adapters get a client: yours, or one they create from
 * connection options (loading the optional `ioredis` peer dependency only then).
 * @module
 */
import type { Redis, RedisOptions } from 'ioredis';
import { ConfigError } from '../core/errors.js';

/** A client you own (you close it), or options / a URL for a client the adapter owns. */
export interface RedisConnectionOptions {
  /** An ioredis client. The adapter never closes it. */
  client?: Redis;
  /** Options or a `redis://` URL for a client the adapter creates and closes in `close()`. */
  connection?: RedisOptions | string;
}

/** A client, created on first use, and whether the adapter owns it. */
export class RedisClientHandle {
  private readonly options: RedisConnectionOptions;
  private created?: Promise<Redis>;
  private ownedClient?: Redis;

  /** @throws ConfigError when neither `client` nor `connection` is given. */
  constructor(options: RedisConnectionOptions, adapter: string) {
    if (!options.client && options.connection === undefined) {
      throw new ConfigError(
        `${adapter}: pass \`client\` (an ioredis instance) or \`connection\` (options or a URL)`,
      );
    }
    this.options = options;
  }

  /** The client. @throws ConfigError when `ioredis` is not installed. */
  get(): Promise<Redis> {
    if (this.options.client) return Promise.resolve(this.options.client);
    this.created ??= createClient(this.options.connection as RedisOptions | string).then((client) => {
      this.ownedClient = client;
      return client;
    });
    return this.created;
  }

  /** Closes the client if the adapter created it. */
  async close(): Promise<void> {
    const client = this.ownedClient;
    this.ownedClient = undefined;
    this.created = undefined;
    if (client) await client.quit().catch(() => client.disconnect());
  }
}

async function createClient(connection: RedisOptions | string): Promise<Redis> {
  let mod: typeof import('ioredis');
  try {
    mod = await import('ioredis');
  } catch (error) {
    throw new ConfigError(
      `tandem-agents/redis needs the \`ioredis\` package: npm install ioredis (${String(error)})`,
    );
  }
  const RedisClass = mod.Redis ?? mod.default;
  return typeof connection === 'string' ? new RedisClass(connection) : new RedisClass(connection);
}

/** `text` with Redis glob characters escaped, for SCAN MATCH. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Every key matching `pattern`, by SCAN (never KEYS, which blocks the server). */
export async function scanKeys(client: Redis, pattern: string): Promise<string[]> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0');
  return [...keys];
}
