/** Behaviour of `SqlStore` on a real engine (PGlite or a Postgres server), as a reusable suite. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { SessionError } from '../../src/index.js';
import { openSqlStore, type SqlClient, type SqlQueryable, type SqlStore } from '../../src/postgres/index.js';

const user = (content: string): Message => ({ role: 'user', content });
const contents = (items: { message: Message }[]) =>
  items.map((i) => (i.message as { content: string }).content);

/** `make` opens a store on a database no other case uses. */
export function sqlStoreContract(name: string, make: () => Promise<SqlStore>): void {
  describe(`${name} sessions`, () => {
    it('appends batches with gap-free seqs, loads the last N oldest first, pops and clears', async () => {
      const store = await make();
      const s = store.session('t1', { resourceId: 'u1' });
      expect(await s.load()).toEqual({ items: [], lastSeq: 0 });
      const first = await s.append([user('a'), user('b')], { runId: 'r1', now: 10 });
      expect(first).toEqual([
        { seq: 1, message: user('a'), runId: 'r1', createdAt: 10 },
        { seq: 2, message: user('b'), runId: 'r1', createdAt: 10 },
      ]);
      await s.append([user('c')], { now: 11 });
      const last2 = await s.load({ limit: 2 });
      expect(last2.lastSeq).toBe(3);
      expect(last2.items.map((i) => i.seq)).toEqual([2, 3]);
      expect(last2.items[1]).toEqual({ seq: 3, message: user('c'), createdAt: 11 });
      expect((await s.pop())?.seq).toBe(3);
      expect((await s.append([user('d')]))[0]?.seq).toBe(3);
      await s.clear();
      expect(await s.load()).toEqual({ items: [], lastSeq: 0 });
      expect(await s.pop()).toBeUndefined();
    });

    it('keeps the newest summary and loads only the items after it; a pop under it drops it', async () => {
      const store = await make();
      const s = store.session('t_sum');
      await s.append(['1', '2', '3', '4'].map(user));
      await s.saveSummary({ text: 'first two', throughSeq: 2, createdAt: 5 });
      await s.saveSummary({ text: 'older', throughSeq: 1, createdAt: 6 });
      const loaded = await s.load();
      expect(loaded.summary).toEqual({ text: 'first two', throughSeq: 2, createdAt: 5 });
      expect(contents(loaded.items)).toEqual(['3', '4']);
      await expect(s.saveSummary({ text: 'ahead', throughSeq: 5, createdAt: 7 })).rejects.toMatchObject({
        kind: 'conflict',
      });
      await s.saveSummary({ text: 'all four', throughSeq: 4, createdAt: 7 });
      await s.pop();
      expect((await s.load()).summary).toBeUndefined();
    });

    it('serialises concurrent appenders on one thread: every batch contiguous, no seq lost or repeated', async () => {
      const store = await make();
      const s = store.session('t_race');
      await Promise.all(
        Array.from({ length: 8 }, (_, b) => s.append([user(`${b}.0`), user(`${b}.1`), user(`${b}.2`)])),
      );
      const { items, lastSeq } = await s.load();
      expect(lastSeq).toBe(24);
      expect(items.map((i) => i.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      for (let i = 0; i < 24; i += 3) {
        const batch = contents(items.slice(i, i + 3)).map((c) => c.split('.'));
        expect(batch.map(([b]) => b)).toEqual([batch[0]![0], batch[0]![0], batch[0]![0]]);
        expect(batch.map(([, k]) => k)).toEqual(['0', '1', '2']);
      }
    });

    it('names a corrupted row by thread and seq; a window without it still loads', async () => {
      const store = await make();
      const s = store.session('t_bad');
      await s.append(['1', '2', '3'].map(user));
      await store.client.query(
        "UPDATE tandem_messages SET message = '{not json' WHERE thread_id = $1 AND seq = 1",
        ['t_bad'],
      );
      const error = await s.load().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/t_bad.*item 1\b/) });
      expect(contents((await s.load({ limit: 2 })).items)).toEqual(['2', '3']);
    });

    it('writes nothing of an append whose connection fails mid-transaction, and reports it unavailable', async () => {
      const store = await make();
      const broken = await openSqlStore(failingAfter(store.client, 1));
      const error = await broken
        .session('t_half')
        .append(['1', '2'].map(user))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        kind: 'unavailable',
        message: expect.stringContaining(store.client.name),
      });
      expect(await store.session('t_half').load()).toEqual({ items: [], lastSeq: 0 });
    });

    it('rejects bad ids with invalid_id', async () => {
      const store = await make();
      expect(() => store.session('')).toThrow(expect.objectContaining({ kind: 'invalid_id' }));
      expect(() => store.session('a\nb')).toThrow(expect.objectContaining({ kind: 'invalid_id' }));
    });
  });

  describe(`${name} resources and memory`, () => {
    it('lists a resource’s threads newest first; deleteResource removes its threads, memory and vectors only', async () => {
      const store = await make();
      await store.session('old', { resourceId: 'u1' }).append([user('x')], { now: 1 });
      await store.session('new', { resourceId: 'u1' }).append([user('y')], { now: 2 });
      await store.session('other', { resourceId: 'u2' }).append([user('z')], { now: 3 });
      await store.workingMemory.set('u1', { name: 'Ada' });
      await store.workingMemory.set('u2', { name: 'Bob' });
      const vector = (id: string, resourceId: string) => ({
        id,
        vector: [1, 0, 0],
        resourceId,
        threadId: 'old',
        text: id,
        createdAt: 1,
      });
      await store.vectors.upsert([vector('v1', 'u1'), vector('v2', 'u2')]);
      expect(await store.threads('u1')).toEqual(['new', 'old']);
      await store.deleteResource('u1');
      expect(await store.threads('u1')).toEqual([]);
      expect((await store.session('old').load()).items).toEqual([]);
      expect(await store.workingMemory.get('u1')).toBeUndefined();
      expect(await store.vectors.query({ vector: [1, 0, 0], topK: 5, resourceId: 'u1' })).toEqual([]);
      expect(await store.threads('u2')).toEqual(['other']);
      expect((await store.workingMemory.get('u2'))?.value).toEqual({ name: 'Bob' });
      expect(await store.vectors.query({ vector: [1, 0, 0], topK: 5, resourceId: 'u2' })).toHaveLength(1);
    });

    it('versions working memory and writes conditionally', async () => {
      const store = await make();
      const wm = store.workingMemory;
      expect(await wm.set('u', 'note', { expectedVersion: 0, now: 5 })).toBe(true);
      expect(await wm.set('u', 'again', { expectedVersion: 0 })).toBe(false);
      expect(await wm.get('u')).toEqual({ value: 'note', version: 1, updatedAt: 5 });
      expect(await wm.set('u', 'v2', { expectedVersion: 1 })).toBe(true);
      expect(await wm.set('u', 'stale', { expectedVersion: 1 })).toBe(false);
      expect(await wm.set('u', { v: 3 })).toBe(true);
      expect((await wm.get('u'))?.version).toBe(3);
      await wm.delete('u');
      expect(await wm.get('u')).toBeUndefined();
    });

    it('recalls the nearest vectors of the resource by cosine, best first, without the excluded thread', async () => {
      const store = await make();
      const rec = (id: string, vector: number[], threadId = 'a', resourceId = 'u') => ({
        id,
        vector,
        resourceId,
        threadId,
        text: `text ${id}`,
        createdAt: 1,
        metadata: { id },
      });
      await store.vectors.upsert([
        rec('same', [1, 0]),
        rec('near', [0.9, 0.1]),
        rec('far', [0, 1]),
        rec('mine', [1, 0], 'current'),
        rec('stranger', [1, 0], 'a', 'someone-else'),
      ]);
      const matches = await store.vectors.query({
        vector: [2, 0],
        topK: 2,
        resourceId: 'u',
        excludeThreadId: 'current',
      });
      expect(matches.map((m) => m.record.id)).toEqual(['same', 'near']);
      expect(matches[0]!.score).toBeCloseTo(1, 5);
      expect(matches[0]!.record).toEqual(rec('same', [1, 0]));
      const strict = await store.vectors.query({ vector: [1, 0], topK: 5, resourceId: 'u', minScore: 0.5 });
      expect(strict.map((m) => m.record.id).sort()).toEqual(['mine', 'near', 'same']);
    });
  });
}

/**
 * A client that loses the connection at its statement number `statements + 1`
 * (migration statements aside), as a server going away mid-operation would.
 */
function failingAfter(client: SqlClient, statements: number): SqlClient {
  let count = 0;
  const failing =
    (q: SqlQueryable): SqlQueryable['query'] =>
    (text, params) => {
      if (/tandem_schema|advisory/.test(text)) return q.query(text, params);
      if (++count > statements) return Promise.reject(new Error('Connection terminated unexpectedly'));
      return q.query(text, params);
    };
  return {
    name: client.name,
    query: failing(client),
    close: async () => {},
    transaction: (work) => client.transaction((tx) => work({ query: failing(tx) })),
  };
}
