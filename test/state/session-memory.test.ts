/**
 * The in-memory session store against the Session contract: seqs without
 * gaps, batches that never interleave, the window after the summary, the
 * summary rules, pop and clear, a resource's threads, and refused ids.
 */
import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, type Message, SessionError, textOf } from '../../src/index.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const said = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const texts = (items: { message: Message }[]) => items.map(({ message }) => textOf(message));

describe('InMemorySessionStore', () => {
  it('numbers items 1, 2, 3… per thread and stamps run and time', async () => {
    const store = new InMemorySessionStore();
    const session = store.session('t1');
    const first = await session.append([user('a'), said('b')], { runId: 'r1', now: 5 });
    const second = await session.append([user('c')], { now: 6 });
    expect(first.map((i) => [i.seq, i.runId, i.createdAt])).toEqual([
      [1, 'r1', 5],
      [2, 'r1', 5],
    ]);
    expect(second[0]).toMatchObject({ seq: 3, createdAt: 6 });
    expect(second[0]).not.toHaveProperty('runId');
    expect((await store.session('t2').append([user('x')]))[0]!.seq).toBe(1);
    expect(await session.append([])).toEqual([]);
    expect((await session.load()).lastSeq).toBe(3);
  });

  it('keeps each batch contiguous when appends run at once', async () => {
    const session = new InMemorySessionStore().session('t');
    const batches = Array.from({ length: 20 }, (_, b) => [user(`${b}.1`), said(`${b}.2`), user(`${b}.3`)]);
    await Promise.all(batches.map((batch) => session.append(batch)));
    const { items } = await session.load();
    expect(items.map((i) => i.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (let i = 0; i < 60; i += 3) {
      const prefix = texts(items.slice(i, i + 3)).map((t) => t.split('.')[0]);
      expect(new Set(prefix).size).toBe(1);
    }
  });

  it('stores copies: changing an appended or loaded message changes nothing stored', async () => {
    const session = new InMemorySessionStore().session('t');
    const message = user('original');
    await session.append([message]);
    (message as { content: string }).content = 'changed';
    const loaded = await session.load();
    (loaded.items[0]!.message as { content: string }).content = 'changed too';
    expect(texts((await session.load()).items)).toEqual(['original']);
  });

  it('loads the last `limit` items after the summary, with the summary', async () => {
    const session = new InMemorySessionStore().session('t');
    await session.append(Array.from({ length: 10 }, (_, i) => user(`m${i + 1}`)));
    expect(texts((await session.load({ limit: 3 })).items)).toEqual(['m8', 'm9', 'm10']);
    await session.saveSummary({ text: 'first eight', throughSeq: 8, createdAt: 1 });
    const snapshot = await session.load({ limit: 5 });
    expect(texts(snapshot.items)).toEqual(['m9', 'm10']);
    expect(snapshot.summary).toEqual({ text: 'first eight', throughSeq: 8, createdAt: 1 });
    expect(snapshot.lastSeq).toBe(10);
  });

  it('ignores a summary covering fewer items than the stored one, and refuses one past the end', async () => {
    const session = new InMemorySessionStore().session('t');
    await session.append(Array.from({ length: 5 }, (_, i) => user(`m${i + 1}`)));
    await session.saveSummary({ text: 'through 4', throughSeq: 4, createdAt: 1 });
    await session.saveSummary({ text: 'through 2', throughSeq: 2, createdAt: 2 });
    expect((await session.load()).summary?.text).toBe('through 4');
    await session.saveSummary({ text: 'through 4 again', throughSeq: 4, createdAt: 3 });
    expect((await session.load()).summary?.text).toBe('through 4 again');
    await expect(session.saveSummary({ text: 'x', throughSeq: 6, createdAt: 4 })).rejects.toMatchObject({
      kind: 'conflict',
    });
  });

  it('pops the last item (dropping a summary that covers it) and clears the thread', async () => {
    const store = new InMemorySessionStore();
    const session = store.session('t');
    expect(await session.pop()).toBeUndefined();
    await session.append([user('a'), said('b'), user('c')]);
    await session.saveSummary({ text: 'all', throughSeq: 3, createdAt: 1 });
    expect((await session.pop())?.seq).toBe(3);
    const after = await session.load();
    expect(after.summary).toBeUndefined();
    expect(texts(after.items)).toEqual(['a', 'b']);
    expect((await session.append([user('d')]))[0]!.seq).toBe(3);
    await session.clear();
    expect(await session.load()).toEqual({ items: [], lastSeq: 0 });
    expect((await session.append([user('e')]))[0]!.seq).toBe(1);
  });

  it("lists a resource's threads, newest activity first, and deletes them all", async () => {
    const store = new InMemorySessionStore();
    await store.session('old', { resourceId: 'u1' }).append([user('a')]);
    await store.session('other', { resourceId: 'u2' }).append([user('b')]);
    await store.session('new', { resourceId: 'u1' }).append([user('c')]);
    expect(await store.threads('u1')).toEqual(['new', 'old']);
    await store.session('old', { resourceId: 'u1' }).append([user('d')]);
    expect(await store.threads('u1')).toEqual(['old', 'new']);
    await store.deleteResource('u1');
    expect(await store.threads('u1')).toEqual([]);
    expect((await store.session('old').load()).items).toEqual([]);
    expect(await store.threads('u2')).toEqual(['other']);
  });

  it('refuses empty, too long and control-character ids with SessionError invalid_id', () => {
    const store = new InMemorySessionStore();
    for (const id of ['', 'x'.repeat(257), 'a\nb', 'tab\there']) {
      let error: unknown;
      try {
        store.session(id);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({ kind: 'invalid_id' });
    }
    expect(() => store.session('ok', { resourceId: '' })).toThrow(/resource id "" is empty/);
    expect(store.session('x'.repeat(256)).id).toHaveLength(256);
  });
});
