/**
 * `RedisSessionStore`: each thread's items as a Redis list at
 * `tandem:session:items:<threadId>`, where an item's seq is its position, so
 * seqs have no gaps by construction and the last N load with one `LRANGE`
 * from the tail whatever the thread's length. The newest summary is a hash at
 * `…summary:<threadId>`, the thread's resource a hash at `…meta:<threadId>`,
 * and each resource's threads a sorted set by last append at
 * `…threads:<resourceId>` (scored by the counter at `…activity`). Every
 * operation is one Lua script, so it runs whole or not at all and never
 * interleaves with another. Scripts build the
 * keys of a resource's threads from the prefix, which Redis Cluster does not
 * allow: use one Redis server.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import {
  checkSessionId,
  type Session,
  type SessionAppendOptions,
  SessionError,
  type SessionItem,
  type SessionSnapshot,
  type SessionStore,
  type SessionSummary,
} from '../state/session.js';
import { RedisStoreIo, type RedisStoreOptions } from './redis-store-io.js';
import { decodeSessionItem, encodeSessionItem } from './session-item.js';

/** Lua `unpack` takes a few thousand values at most: push long batches in slices. */
const PUSH_SLICE = 1_000;

/**
 * KEYS: items, meta, activity counter. ARGV: threads-key prefix, thread id,
 * resource id or '', item texts… The thread keeps the resource it was first
 * appended under, so it sits in one resource's index only, scored by a
 * counter (not a client's clock, which may differ between machines).
 * Returns the new length.
 */
const APPEND = `
local length = 0
for i = 4, #ARGV, ${PUSH_SLICE} do
  length = redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + ${PUSH_SLICE - 1}, #ARGV)))
end
if ARGV[3] ~= '' then redis.call('HSETNX', KEYS[2], 'resource', ARGV[3]) end
local resource = redis.call('HGET', KEYS[2], 'resource')
if resource then redis.call('ZADD', ARGV[1] .. resource, redis.call('INCR', KEYS[3]), ARGV[2]) end
return length
`;

/**
 * KEYS: items, summary. ARGV: limit or ''. Returns the last seq, the seq of
 * the first item returned, the summary's fields and the items after it.
 */
const LOAD = `
local last = redis.call('LLEN', KEYS[1])
local summary = redis.call('HMGET', KEYS[2], 'text', 'throughSeq', 'createdAt')
local first = math.floor(tonumber(summary[2]) or 0) + 1
if ARGV[1] ~= '' then first = math.max(first, last - tonumber(ARGV[1]) + 1) end
local items = {}
if first <= last then items = redis.call('LRANGE', KEYS[1], first - 1 - last, -1) end
return {last, first, summary, items}
`;

/** KEYS: items, summary. Pops the last item, with the summary when it covered it. */
const POP = `
local last = redis.call('LLEN', KEYS[1])
if last == 0 then return false end
local item = redis.call('RPOP', KEYS[1])
local through = tonumber(redis.call('HGET', KEYS[2], 'throughSeq'))
if through and through >= last then redis.call('DEL', KEYS[2]) end
return {last, item}
`;

/**
 * KEYS: summary, items. ARGV: text, throughSeq, createdAt. Refuses a summary
 * of items the thread does not have (-1, with the last seq); keeps a stored
 * summary that covers more.
 */
const SAVE_SUMMARY = `
local last = redis.call('LLEN', KEYS[2])
local wanted = tonumber(ARGV[2])
if wanted < 1 or wanted > last then return {-1, last} end
local through = tonumber(redis.call('HGET', KEYS[1], 'throughSeq'))
if through and wanted < through then return {0, last} end
redis.call('HSET', KEYS[1], 'text', ARGV[1], 'throughSeq', ARGV[2], 'createdAt', ARGV[3])
return {1, last}
`;

/** KEYS: items, summary, meta. ARGV: threads-key prefix, thread id. The thread leaves its resource's index too. */
const CLEAR = `
local resource = redis.call('HGET', KEYS[3], 'resource')
if resource then redis.call('ZREM', ARGV[1] .. resource, ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
`;

/** KEYS: the resource's threads. ARGV: key prefix. Deletes every key of every thread, then the index. */
const DELETE_RESOURCE = `
for _, thread in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  redis.call('DEL', ARGV[1] .. 'items:' .. thread, ARGV[1] .. 'summary:' .. thread, ARGV[1] .. 'meta:' .. thread)
end
redis.call('DEL', KEYS[1])
return 1
`;

/** Options of a {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `tandem:session:`. */
  keyPrefix?: string;
}

/**
 * A {@link SessionStore} on Redis (optional peer `ioredis`). A failed
 * operation rejects with `SessionError`: `unavailable` when Redis did not
 * answer (naming `host:port`; an append then wrote nothing), `corrupt` for
 * an item that does not decode (naming the thread and seq),
 * `unsupported_version` for an item of a newer format, `invalid_id`, and
 * `conflict` for a summary through an item the thread does not have.
 *
 * Commands are sent only while the connection is ready, so an append
 * reported failed is never queued and written later. An append already sent
 * when the connection drops is resent by ioredis on reconnect unless the
 * client has `autoResendUnfulfilledCommands: false` — set on the connections
 * the store creates; set it on a client you pass.
 */
export class RedisSessionStore implements SessionStore {
  private readonly io: RedisStoreIo;
  private readonly prefix: string;

  /** @throws ConfigError without a client or connection, or for a non-positive command timeout. */
  constructor(options: RedisSessionStoreOptions) {
    this.io = new RedisStoreIo(options, 'RedisSessionStore');
    this.prefix = options.keyPrefix ?? 'tandem:session:';
  }

  /** @throws SessionError (`invalid_id`) for a bad thread or resource id. */
  session(threadId: string, options: { resourceId?: string } = {}): Session {
    checkSessionId(threadId, 'thread');
    if (options.resourceId !== undefined) checkSessionId(options.resourceId, 'resource');
    return new RedisSession({ io: this.io, prefix: this.prefix }, threadId, options.resourceId);
  }

  async threads(resourceId: string): Promise<string[]> {
    checkSessionId(resourceId, 'resource');
    return this.io.run(`list the threads of resource ${resourceId}`, (client) =>
      client.zrevrange(`${this.prefix}threads:${resourceId}`, 0, -1),
    );
  }

  async deleteResource(resourceId: string): Promise<void> {
    checkSessionId(resourceId, 'resource');
    await this.io.run(`delete resource ${resourceId}`, (client) =>
      client.eval(DELETE_RESOURCE, 1, `${this.prefix}threads:${resourceId}`, this.prefix),
    );
  }

  /** Closes the client if this store created it. */
  close(): Promise<void> {
    return this.io.close();
  }
}

type LoadReply = [number, number, (string | null)[], string[]];

/** What a session shares with its store. */
interface StoreAccess {
  io: RedisStoreIo;
  prefix: string;
}

class RedisSession implements Session {
  private readonly io: RedisStoreIo;
  private readonly prefix: string;
  private readonly items: string;
  private readonly summary: string;
  private readonly meta: string;

  constructor(
    { io, prefix }: StoreAccess,
    readonly id: string,
    readonly resourceId?: string,
  ) {
    this.io = io;
    this.prefix = prefix;
    this.items = `${prefix}items:${id}`;
    this.summary = `${prefix}summary:${id}`;
    this.meta = `${prefix}meta:${id}`;
  }

  async load(options: { limit?: number } = {}): Promise<SessionSnapshot> {
    const { limit } = options;
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
      throw new ConfigError(`Session ${this.id}: load's limit must be an integer ≥ 0, got ${limit}`);
    }
    const [lastSeq, first, fields, texts] = (await this.io.run(`load thread ${this.id}`, (client) =>
      client.eval(LOAD, 2, this.items, this.summary, limit === undefined ? '' : String(limit)),
    )) as LoadReply;
    const items = texts.map((text, i) => decodeSessionItem(text, { threadId: this.id, seq: first + i }));
    const summary = this.decodeSummary(fields);
    return summary ? { items, summary, lastSeq } : { items, lastSeq };
  }

  async append(messages: readonly Message[], options: SessionAppendOptions = {}): Promise<SessionItem[]> {
    if (messages.length === 0) return [];
    const createdAt = options.now ?? Date.now();
    const texts = messages.map((message) => encodeSessionItem({ message, runId: options.runId, createdAt }));
    const length = (await this.io.run(`append to thread ${this.id}`, (client) =>
      client.eval(
        APPEND,
        3,
        this.items,
        this.meta,
        `${this.prefix}activity`,
        `${this.prefix}threads:`,
        this.id,
        this.resourceId ?? '',
        ...texts,
      ),
    )) as number;
    const firstSeq = length - texts.length + 1;
    return texts.map((text, i) => decodeSessionItem(text, { threadId: this.id, seq: firstSeq + i }));
  }

  async pop(): Promise<SessionItem | undefined> {
    const popped = (await this.io.run(`pop from thread ${this.id}`, (client) =>
      client.eval(POP, 2, this.items, this.summary),
    )) as [number, string] | null;
    return popped ? decodeSessionItem(popped[1], { threadId: this.id, seq: popped[0] }) : undefined;
  }

  async clear(): Promise<void> {
    await this.io.run(`clear thread ${this.id}`, (client) =>
      client.eval(CLEAR, 3, this.items, this.summary, this.meta, `${this.prefix}threads:`, this.id),
    );
  }

  /** @throws SessionError (`conflict`) for a summary through an item the thread does not have. */
  async saveSummary(summary: SessionSummary): Promise<void> {
    const through = Number.isInteger(summary.throughSeq) ? summary.throughSeq : 0;
    const [outcome, lastSeq] = (await this.io.run(`save the summary of thread ${this.id}`, (client) =>
      client.eval(
        SAVE_SUMMARY,
        2,
        this.summary,
        this.items,
        summary.text,
        String(through),
        String(summary.createdAt),
      ),
    )) as [number, number];
    if (outcome === -1) {
      throw new SessionError(
        'conflict',
        `Session ${this.id}: a summary through item ${summary.throughSeq} does not fit a thread of ${lastSeq} items`,
      );
    }
  }

  private decodeSummary([text, throughSeq, createdAt]: (string | null)[]): SessionSummary | undefined {
    if (text === null && throughSeq === null) return undefined;
    const summary = { text: text ?? '', throughSeq: Number(throughSeq), createdAt: Number(createdAt) };
    if (text === null || !Number.isInteger(summary.throughSeq) || !Number.isFinite(summary.createdAt)) {
      throw new SessionError(
        'corrupt',
        `The summary of thread ${JSON.stringify(this.id)} is not a stored summary`,
      );
    }
    return summary;
  }
}
