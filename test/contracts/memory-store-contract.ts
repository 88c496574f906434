/**
 * The behaviour every WorkingMemoryStore and VectorStore must have, as
 * reusable suites each store runs against its real engine.
 */
import { describe, expect, it } from 'vitest';
import type { VectorRecord, VectorStore, WorkingMemoryStore } from '../../src/state/memory-store.js';

/** Rejects with what `attempt` throws, whether it throws at once or rejects later. */
const settle = async (attempt: () => Promise<unknown>) => attempt();

export function workingMemoryStoreContract(
  name: string,
  make: () => Promise<WorkingMemoryStore> | WorkingMemoryStore,
): void {
  describe(`${name} (WorkingMemoryStore contract)`, () => {
    it('gets undefined for an unknown resource', async () => {
      expect(await (await make()).get('r_none')).toBeUndefined();
    });

    it('round-trips JSON and text values, bumping the version on every write', async () => {
      const store = await make();
      const value = { name: 'Ada', likes: ['tea', '✓ 🚀'], n: 1.5, ok: true, none: null };
      expect(await store.set('r_1', value, { now: 1_000 })).toBe(true);
      expect(await store.get('r_1')).toEqual({ value, version: 1, updatedAt: 1_000 });
      expect(await store.set('r_1', '# Notes\n- likes tea', { now: 2_000 })).toBe(true);
      expect(await store.get('r_1')).toEqual({ value: '# Notes\n- likes tea', version: 2, updatedAt: 2_000 });
    });

    it('with expectedVersion, writes only over that version (0: none stored)', async () => {
      const store = await make();
      expect(await store.set('r_cas', { v: 'a' }, { expectedVersion: 0 })).toBe(true);
      expect(await store.set('r_cas', { v: 'b' }, { expectedVersion: 0 })).toBe(false);
      expect(await store.set('r_cas', { v: 'b' }, { expectedVersion: 2 })).toBe(false);
      expect(await store.get('r_cas')).toMatchObject({ value: { v: 'a' }, version: 1 });
      expect(await store.set('r_cas', { v: 'c' }, { expectedVersion: 1 })).toBe(true);
      expect(await store.get('r_cas')).toMatchObject({ value: { v: 'c' }, version: 2 });
    });

    it('of ten concurrent writes expecting the same version, exactly one writes', async () => {
      const store = await make();
      await store.set('r_race', { by: 'start' });
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.set('r_race', { by: i }, { expectedVersion: 1 })),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store.get('r_race')).toMatchObject({ value: { by: outcomes.indexOf(true) }, version: 2 });
    });

    it('deletes one resource only; a deleted resource is at version 0 again', async () => {
      const store = await make();
      await store.set('r_gone', 'x');
      await store.set('r_kept', 'y');
      await store.delete('r_gone');
      expect(await store.get('r_gone')).toBeUndefined();
      expect(await store.get('r_kept')).toMatchObject({ value: 'y' });
      expect(await store.set('r_gone', 'z', { expectedVersion: 0 })).toBe(true);
      await store.delete('r_never_seen');
    });

    it('gives copies: changing a written or read value changes nothing stored', async () => {
      const store = await make();
      const value = { list: [1, 2] };
      await store.set('r_copy', value);
      value.list.push(3);
      const read = (await store.get('r_copy'))?.value as { list: number[] };
      read.list.push(4);
      expect((await store.get('r_copy'))?.value).toEqual({ list: [1, 2] });
    });

    it('rejects empty resource ids and ids with control characters as invalid_id', async () => {
      const store = await make();
      for (const id of ['', 'a\nb', 'nul\u0000']) {
        const invalid = { name: 'SessionError', kind: 'invalid_id' };
        await expect(settle(() => store.get(id))).rejects.toMatchObject(invalid);
        await expect(settle(() => store.set(id, 'x'))).rejects.toMatchObject(invalid);
        await expect(settle(() => store.delete(id))).rejects.toMatchObject(invalid);
      }
    });
  });
}

const record = (id: string, vector: number[], extra: Partial<VectorRecord> = {}): VectorRecord => ({
  id,
  vector,
  resourceId: 'r_vec',
  threadId: 't_1',
  text: `text of ${id}`,
  createdAt: 1_000,
  ...extra,
});

export function vectorStoreContract(name: string, make: () => Promise<VectorStore> | VectorStore): void {
  describe(`${name} (VectorStore contract)`, () => {
    it('answers the topK records of the resource by cosine similarity, best first', async () => {
      const store = await make();
      await store.upsert([
        record('far', [0, 1, 0, 0]),
        record('near', [1, 0.1, 0, 0], { metadata: { role: 'user' } }),
        record('mid', [1, 1, 0, 0]),
        record('opposite', [-1, 0, 0, 0]),
        record('other_user', [1, 0, 0, 0], { resourceId: 'r_other' }),
      ]);
      const matches = await store.query({ vector: [2, 0, 0, 0], topK: 3, resourceId: 'r_vec' });
      expect(matches.map((m) => m.record.id)).toEqual(['near', 'mid', 'far']);
      expect(matches[0]?.score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
      expect(matches[1]?.score).toBeCloseTo(Math.SQRT1_2, 5);
      expect(matches[2]?.score).toBeCloseTo(0, 5);
      expect(matches[0]?.record).toEqual(record('near', [1, 0.1, 0, 0], { metadata: { role: 'user' } }));
    });

    it('leaves out the excluded thread and matches under minScore', async () => {
      const store = await make();
      await store.upsert([
        record('here', [1, 0, 0, 0], { threadId: 't_current' }),
        record('there', [1, 0.5, 0, 0], { threadId: 't_old' }),
        record('weak', [0.1, 1, 0, 0], { threadId: 't_old' }),
      ]);
      const query = { vector: [1, 0, 0, 0], topK: 10, resourceId: 'r_vec' };
      const excluded = await store.query({ ...query, excludeThreadId: 't_current' });
      expect(excluded.map((m) => m.record.id)).toEqual(['there', 'weak']);
      const strong = await store.query({ ...query, minScore: 0.5 });
      expect(strong.map((m) => m.record.id)).toEqual(['here', 'there']);
    });

    it('replaces a record upserted again under its id', async () => {
      const store = await make();
      await store.upsert([record('same', [1, 0, 0, 0], { text: 'old' })]);
      await store.upsert([record('same', [0, 1, 0, 0], { text: 'new' })]);
      const matches = await store.query({ vector: [0, 1, 0, 0], topK: 5, resourceId: 'r_vec' });
      expect(matches.map((m) => [m.record.id, m.record.text])).toEqual([['same', 'new']]);
      expect(matches[0]?.score).toBeCloseTo(1, 5);
    });

    it('deleteResource removes every record of that resource and nothing of another', async () => {
      const store = await make();
      await store.upsert([
        record('a', [1, 0, 0, 0]),
        record('b', [0, 1, 0, 0], { threadId: 't_2' }),
        record('c', [1, 0, 0, 0], { resourceId: 'r_keep' }),
      ]);
      await store.deleteResource('r_vec');
      expect(await store.query({ vector: [1, 0, 0, 0], topK: 5, resourceId: 'r_vec' })).toEqual([]);
      const kept = await store.query({ vector: [1, 0, 0, 0], topK: 5, resourceId: 'r_keep' });
      expect(kept.map((m) => m.record.id)).toEqual(['c']);
    });
  });
}
