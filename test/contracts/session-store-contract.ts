/**
 * The behaviour every SessionStore must have, as a reusable suite: each store
 * (memory, Redis, the SQL stores) runs it against its real engine.
 */
import { describe, expect, it } from 'vitest';
import { fromBase64 } from '../../src/core/media.js';
import type { MediaData, Message } from '../../src/index.js';
import type { SessionStore } from '../../src/state/session.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const texts = (items: { message: Message }[]) =>
  items.map(({ message }) => (typeof message.content === 'string' ? message.content : message.content));
const seqs = (items: { seq: number }[]) => items.map((item) => item.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const bytesOf = (data: MediaData | undefined) => (typeof data === 'string' ? fromBase64(data) : data);

/** Rejects with what `attempt` throws, whether it throws at once or rejects later. */
const settle = async (attempt: () => Promise<unknown>) => attempt();

export function sessionStoreContract(name: string, make: () => Promise<SessionStore> | SessionStore): void {
  describe(`${name} (SessionStore contract)`, () => {
    it('an empty thread loads empty; append([]) writes nothing; pop gives undefined', async () => {
      const session = (await make()).session('t_empty');
      expect(await session.load()).toEqual({ items: [], lastSeq: 0 });
      expect(await session.append([])).toEqual([]);
      expect(await session.pop()).toBeUndefined();
      expect((await session.load()).lastSeq).toBe(0);
    });

    it('gives gap-free seqs from 1, stamps runId and time, loads oldest first', async () => {
      const session = (await make()).session('t_seq', { resourceId: 'r_seq' });
      expect(session.id).toBe('t_seq');
      expect(session.resourceId).toBe('r_seq');
      const first = await session.append([user('a'), user('b')], { runId: 'run_1', now: 1_000 });
      expect(first).toEqual([
        { seq: 1, message: user('a'), runId: 'run_1', createdAt: 1_000 },
        { seq: 2, message: user('b'), runId: 'run_1', createdAt: 1_000 },
      ]);
      const second = await session.append([user('c')], { now: 2_000 });
      expect(second).toEqual([{ seq: 3, message: user('c'), createdAt: 2_000 }]);
      expect(await session.load()).toEqual({ items: [...first, ...second], lastSeq: 3 });
    });

    it('keeps 20 concurrent appenders to one thread gap-free, each batch contiguous', async () => {
      const store = await make();
      const batches = await Promise.all(
        range(0, 19).map((w) =>
          // Each writer has its own session object, as separate runs would.
          store.session('t_race').append([user(`w${w}:0`), user(`w${w}:1`), user(`w${w}:2`)]),
        ),
      );
      const { items, lastSeq } = await store.session('t_race').load();
      expect(lastSeq).toBe(60);
      expect(seqs(items)).toEqual(range(1, 60));
      for (const [w, batch] of batches.entries()) {
        const start = batch[0]?.seq ?? 0;
        expect(seqs(batch)).toEqual([start, start + 1, start + 2]);
        expect(texts(items.slice(start - 1, start + 2))).toEqual([`w${w}:0`, `w${w}:1`, `w${w}:2`]);
      }
    });

    it('loads the last N items after the summary, and the summary with them', async () => {
      const session = (await make()).session('t_limit');
      await session.append(range(1, 10).map((i) => user(`m${i}`)));
      expect(seqs((await session.load({ limit: 3 })).items)).toEqual([8, 9, 10]);
      const summary = { text: 'the first eight', throughSeq: 8, createdAt: 5 };
      await session.saveSummary(summary);
      expect(await session.load({ limit: 5 })).toMatchObject({ summary, lastSeq: 10 });
      expect(seqs((await session.load({ limit: 5 })).items)).toEqual([9, 10]);
      expect(seqs((await session.load()).items)).toEqual([9, 10]);
      expect(seqs((await session.load({ limit: 1 })).items)).toEqual([10]);
      expect(await session.load({ limit: 0 })).toEqual({ items: [], summary, lastSeq: 10 });
    });

    it('refuses a negative load limit with a ConfigError', async () => {
      const session = (await make()).session('t_bad_limit');
      await expect(settle(() => session.load({ limit: -1 }))).rejects.toMatchObject({ kind: 'config' });
    });

    it('ignores a summary covering fewer items than the stored one', async () => {
      const session = (await make()).session('t_summary');
      await session.append(range(1, 10).map((i) => user(`m${i}`)));
      await session.saveSummary({ text: 'six', throughSeq: 6, createdAt: 1 });
      await session.saveSummary({ text: 'four', throughSeq: 4, createdAt: 2 });
      expect((await session.load()).summary).toEqual({ text: 'six', throughSeq: 6, createdAt: 1 });
      await session.saveSummary({ text: 'eight', throughSeq: 8, createdAt: 3 });
      expect((await session.load()).summary?.text).toBe('eight');
    });

    it('refuses a summary through an item the thread does not have, as conflict', async () => {
      const store = await make();
      const session = store.session('t_summary_range');
      const conflict = { name: 'SessionError', kind: 'conflict' };
      await expect(session.saveSummary({ text: 'x', throughSeq: 1, createdAt: 1 })).rejects.toMatchObject(
        conflict,
      );
      await session.append([user('a'), user('b')]);
      await expect(session.saveSummary({ text: 'x', throughSeq: 3, createdAt: 1 })).rejects.toMatchObject(
        conflict,
      );
      await expect(session.saveSummary({ text: 'x', throughSeq: 0, createdAt: 1 })).rejects.toMatchObject(
        conflict,
      );
      expect(await session.load()).toEqual({ items: expect.any(Array), lastSeq: 2 });
    });

    it('pops the last item; the next append takes its seq', async () => {
      const session = (await make()).session('t_pop');
      await session.append([user('a'), user('b'), user('c')], { now: 7 });
      expect(await session.pop()).toEqual({ seq: 3, message: user('c'), createdAt: 7 });
      expect(await session.load()).toMatchObject({ lastSeq: 2 });
      expect(seqs(await session.append([user('d')]))).toEqual([3]);
      expect(texts((await session.load()).items)).toEqual(['a', 'b', 'd']);
    });

    it('pop of an item the summary covers drops that summary, so no item hides behind it', async () => {
      const session = (await make()).session('t_pop_summary');
      await session.append([user('a'), user('b')]);
      await session.saveSummary({ text: 'a and b', throughSeq: 2, createdAt: 1 });
      await session.pop();
      await session.append([user('c')]);
      const { items, summary } = await session.load();
      expect(summary).toBeUndefined();
      expect(texts(items)).toEqual(['a', 'c']);
    });

    it('clear removes the items and summary of its thread only; seqs start again at 1', async () => {
      const store = await make();
      const session = store.session('t_clear', { resourceId: 'r_clear' });
      const other = store.session('t_clear_other');
      await session.append([user('a'), user('b')]);
      await session.saveSummary({ text: 's', throughSeq: 1, createdAt: 1 });
      await other.append([user('kept')]);
      await session.clear();
      expect(await session.load()).toEqual({ items: [], lastSeq: 0 });
      expect(await store.threads?.('r_clear')).toEqual([]);
      expect(seqs(await session.append([user('again')]))).toEqual([1]);
      expect(texts((await other.load()).items)).toEqual(['kept']);
    });

    it("lists a resource's threads, newest activity first", async () => {
      const store = await make();
      if (!store.threads) throw new Error(`${name} has no threads()`);
      await store.session('t_a', { resourceId: 'r_list' }).append([user('1')], { now: 1_000 });
      await store.session('t_b', { resourceId: 'r_list' }).append([user('2')], { now: 2_000 });
      await store.session('t_c', { resourceId: 'r_list_other' }).append([user('3')], { now: 3_000 });
      expect(await store.threads('r_list')).toEqual(['t_b', 't_a']);
      await store.session('t_a', { resourceId: 'r_list' }).append([user('4')], { now: 4_000 });
      expect(await store.threads('r_list')).toEqual(['t_a', 't_b']);
      expect(await store.threads('r_list_none')).toEqual([]);
    });

    it('deleteResource removes every thread of that resource and nothing of another', async () => {
      const store = await make();
      if (!store.deleteResource || !store.threads) throw new Error(`${name} has no deleteResource()`);
      const gone = [
        store.session('t_d1', { resourceId: 'r_del' }),
        store.session('t_d2', { resourceId: 'r_del' }),
      ];
      const kept = store.session('t_k', { resourceId: 'r_keep' });
      for (const session of [...gone, kept]) {
        await session.append([user('x'), user('y')]);
        await session.saveSummary({ text: 'x', throughSeq: 1, createdAt: 1 });
      }
      await store.deleteResource('r_del');
      for (const session of gone)
        expect(await store.session(session.id).load()).toEqual({ items: [], lastSeq: 0 });
      expect(await store.threads('r_del')).toEqual([]);
      expect(await store.threads('r_keep')).toEqual(['t_k']);
      expect(await kept.load()).toMatchObject({ lastSeq: 2, summary: { text: 'x' } });
      await store.deleteResource('r_never_seen');
    });

    it('rejects empty ids and ids with control characters as invalid_id', async () => {
      const store = await make();
      const invalid = { name: 'SessionError', kind: 'invalid_id' };
      for (const id of ['', 'a\nb', 'nul\u0000', 'del\u007f']) {
        await expect(settle(() => store.session(id).load())).rejects.toMatchObject(invalid);
        await expect(
          settle(() => store.session('t_ok', { resourceId: id }).append([user('x')])),
        ).rejects.toMatchObject(invalid);
        if (store.threads) await expect(settle(() => store.threads!(id))).rejects.toMatchObject(invalid);
        if (store.deleteResource)
          await expect(settle(() => store.deleteResource!(id))).rejects.toMatchObject(invalid);
      }
      expect((await store.session('t_ok').load()).lastSeq).toBe(0);
    });

    it('keeps ids with path, glob, key-separator and unicode characters apart', async () => {
      const store = await make();
      const ids = ['../escape', 'a/b', 'a*', 'x:y', "q'uote", '%_', 'üñí 🚀'];
      for (const id of ids) await store.session(id, { resourceId: `r:${id}` }).append([user(id)]);
      for (const id of ids) {
        expect(texts((await store.session(id).load()).items)).toEqual([id]);
        expect(await store.threads?.(`r:${id}`)).toEqual([id]);
      }
    });

    it('round-trips unicode, a NUL character and a 1 MB message', async () => {
      const session = (await make()).session('t_text');
      const odd = 'héllo ✓ 🚀 مرحبا e\u0301 \u0000 "quoted" \\ \n\t end';
      const big = `${'x'.repeat(500_000)}${'é'.repeat(250_000)}🚀`;
      await session.append([user(odd), user(big)]);
      expect(texts((await session.load()).items)).toEqual([odd, big]);
    });

    it('round-trips every kind of message, media bytes as base64 or bytes', async () => {
      const session = (await make()).session('t_media');
      const png = new Uint8Array([137, 80, 78, 71, 0, 255, 1]);
      const messages: Message[] = [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', mediaType: 'image/png', data: png },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hm', signature: 'sig' },
            {
              type: 'tool_call',
              id: 'c1',
              name: 'shot',
              arguments: '{"a":1}',
              providerMetadata: { g: { s: 'x' } },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'c1',
              toolName: 'shot',
              content: 'ok',
              attachments: [{ type: 'file', mediaType: 'application/pdf', data: png, filename: 'a.pdf' }],
            },
          ],
        },
      ];
      await session.append(messages);
      const [first, second, third] = (await session.load()).items.map((item) => item.message);
      const image = (first?.content as Array<{ type: string; data?: MediaData }> | undefined)?.[1];
      expect(bytesOf(image?.data)).toEqual(png);
      expect(second).toEqual(messages[1]);
      const result = third?.role === 'tool' ? third.content[0] : undefined;
      expect(bytesOf(result?.attachments?.[0]?.data)).toEqual(png);
      expect({ ...result, attachments: undefined }).toEqual({
        type: 'tool_result',
        toolCallId: 'c1',
        toolName: 'shot',
        content: 'ok',
        attachments: undefined,
      });
    });

    it('gives copies: changing an appended or loaded message changes nothing stored', async () => {
      const session = (await make()).session('t_copy');
      const message = { role: 'user', content: [{ type: 'text', text: 'original' }] } as Message;
      await session.append([message]);
      (message.content[0] as { text: string }).text = 'changed before load';
      const loaded = (await session.load()).items[0]?.message;
      (loaded?.content[0] as { text: string }).text = 'changed after load';
      expect((await session.load()).items[0]?.message).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'original' }],
      });
    });
  });
}
