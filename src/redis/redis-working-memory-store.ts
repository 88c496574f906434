/**
 * `RedisWorkingMemoryStore`: each resource's working memory as a hash
 * (`value` as JSON, `version`, `updatedAt`) at `tandem:memory:<resourceId>`.
 * A conditional write compares and writes in one Lua script, so of two
 * writers expecting the same version exactly one wins.
 * @module
 */
import { base64Replacer } from '../core/media.js';
import type { WorkingMemoryRecord, WorkingMemoryStore } from '../state/memory-store.js';
import { checkSessionId, SessionError } from '../state/session.js';
import { RedisStoreIo, type RedisStoreOptions } from './redis-store-io.js';

/** KEYS: the record. ARGV: value, expected version or '', now. 1 when it wrote. */
const SET = `
local version = tonumber(redis.call('HGET', KEYS[1], 'version')) or 0
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= version then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', version + 1, 'updatedAt', ARGV[3])
return 1
`;

/** Options of a {@link RedisWorkingMemoryStore}. */
export interface RedisWorkingMemoryStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `tandem:memory:`. */
  keyPrefix?: string;
}

/**
 * A {@link WorkingMemoryStore} on Redis (optional peer `ioredis`). Failures
 * reject with `SessionError`: `unavailable` (naming `host:port`; nothing was
 * written), `corrupt` for a stored record that does not decode, `invalid_id`.
 */
export class RedisWorkingMemoryStore implements WorkingMemoryStore {
  private readonly io: RedisStoreIo;
  private readonly prefix: string;

  /** @throws ConfigError without a client or connection, or for a non-positive command timeout. */
  constructor(options: RedisWorkingMemoryStoreOptions) {
    this.io = new RedisStoreIo(options, 'RedisWorkingMemoryStore');
    this.prefix = options.keyPrefix ?? 'tandem:memory:';
  }

  async get(resourceId: string): Promise<WorkingMemoryRecord | undefined> {
    const key = this.keyOf(resourceId);
    const [value, version, updatedAt] = await this.io.run(
      `read the working memory of ${resourceId}`,
      (client) => client.hmget(key, 'value', 'version', 'updatedAt'),
    );
    if (value === null && version === null) return undefined;
    const record = { value: undefined as unknown, version: Number(version), updatedAt: Number(updatedAt) };
    try {
      record.value = JSON.parse(value ?? '');
    } catch (error) {
      throw corrupt(resourceId, error);
    }
    if (!Number.isInteger(record.version) || !Number.isFinite(record.updatedAt)) throw corrupt(resourceId);
    return record;
  }

  /** @throws TypeError when `value` is not JSON-serialisable. */
  async set(
    resourceId: string,
    value: unknown,
    options: { expectedVersion?: number; now?: number } = {},
  ): Promise<boolean> {
    const key = this.keyOf(resourceId);
    const text = JSON.stringify(value, base64Replacer) as string | undefined;
    if (text === undefined) throw new TypeError(`Working memory of ${resourceId} must be a JSON value`);
    const expected = options.expectedVersion === undefined ? '' : String(options.expectedVersion);
    const now = String(options.now ?? Date.now());
    const wrote = await this.io.run(`write the working memory of ${resourceId}`, (client) =>
      client.eval(SET, 1, key, text, expected, now),
    );
    return wrote === 1;
  }

  async delete(resourceId: string): Promise<void> {
    const key = this.keyOf(resourceId);
    await this.io.run(`delete the working memory of ${resourceId}`, (client) => client.del(key));
  }

  /** Closes the client if this store created it. */
  close(): Promise<void> {
    return this.io.close();
  }

  private keyOf(resourceId: string): string {
    checkSessionId(resourceId, 'resource');
    return this.prefix + resourceId;
  }
}

function corrupt(resourceId: string, cause?: unknown): SessionError {
  return new SessionError(
    'corrupt',
    `The working memory of resource ${JSON.stringify(resourceId)} in Redis is not a stored record`,
    { cause },
  );
}
